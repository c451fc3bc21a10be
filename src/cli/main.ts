/**
 * The operator's command line: `plainverse <command>`. Each command uses the same services
 * as the server.
 */
import { ConfigError, loadConfig } from '../config.js'
import { databaseLocation, migrateToLatest, openDatabase } from '../infra/database.js'
import { prepareDatabase } from '../startup.js'

const USAGE = `Usage: plainverse <command>

Commands:
  db migrate    Apply pending database migrations
  db seed       Apply migrations, then load the committed seed data (idempotent)
  help          Show this help

Configuration comes from the same environment variables as the server (see README).`

/** Runs one command; resolves to the process exit code. */
export async function run(argv: readonly string[], out: (line: string) => void = console.log): Promise<number> {
  const [group, command] = argv
  if (group === undefined || group === 'help' || group === '--help' || group === '-h') {
    out(USAGE)
    return 0
  }
  if (group !== 'db' || (command !== 'migrate' && command !== 'seed')) {
    out(`Unknown command: ${argv.join(' ')}\n\n${USAGE}`)
    return 64 // EX_USAGE
  }
  const config = loadConfig()
  const database = await openDatabase(databaseLocation(config))
  try {
    if (command === 'migrate') {
      const applied = await migrateToLatest(database.db)
      out(applied.length === 0 ? 'migrations: up to date' : `migrations applied: ${applied.join(', ')}`)
    } else {
      const report = await prepareDatabase(database.db)
      out(report.migrations.length === 0 ? 'migrations: up to date' : `migrations applied: ${report.migrations.join(', ')}`)
      out(`kjv: ${report.seed.kjv.status} (${report.seed.kjv.verses} verses)`)
    }
    return 0
  } finally {
    await database.close()
  }
}

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
    process.exit(1)
  })
