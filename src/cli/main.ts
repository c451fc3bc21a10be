/**
 * The operator's command line: `npx plainverse <command>`. Commands use the same services as
 * the server: through the running server's admin socket when one is up (the embedded PGlite
 * admits one process at a time), otherwise in-process on the database directly, holding
 * DATA_DIR's lock (see data-dir-access.ts).
 */
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { localOperations, remoteOperations, type AccountUsage, type AdminOperations, type KeyView } from '../admin/admin.operations.js'
import { adminPaths, readAdminToken } from '../admin/admin.server.js'
import { ConfigError, loadConfig, TIERS, type Config, type Tier } from '../config.js'
import { AppError } from '../errors.js'
import { systemClock } from '../infra/clock.js'
import type { DataDirLock } from '../infra/data-dir-lock.js'
import { databaseLocation, migrateToLatest, openDatabase } from '../infra/database.js'
import { claimEmbeddedDatabase, cliContentPackDir, DataDirUnavailable, DEFAULT_WAIT, EX_TEMPFAIL, reachDataDir, socketAnswers } from './data-dir-access.js'
import { createServices } from '../services.js'
import { runContentCommand } from './content.command.js'
import { loadStores, prepareDatabase } from '../startup.js'
import { dataDirSeedOptions } from '../seed/seed-files.js'

const USAGE = `Usage: plainverse <command> [options]

Database:
  db migrate                         Apply pending database migrations
  db seed                            Apply migrations, then load the committed seed data (idempotent)

API keys (work while the server is running):
  keys create --name NAME [--account ID] [--tier free|developer|scale]
                                     Create a key and print it (shown only once)
  keys list [--account ID]           List active keys
  keys revoke ID                     Revoke a key (every instance stops accepting it within 5 s)
  keys set-tier ID TIER              Change a key's tier
  usage [--account ID]               Usage this month, by endpoint, style and key
  usage --attributions [--account ID]
                                     Counted MCP tool calls this month by AI client, and the
                                     20 verses MCP calls served most

Content:
  content generate|export|import|report
                                     AI generation, JSONL exchange, modernizer report
                                     (plainverse content --help for details)

Options:
  --json                             Print JSON instead of text (every command)
  -h, --help                         Show this help

Exit codes: 0 success, 1 error, 3 unknown key, 64 bad usage (an unknown command or option,
a missing or invalid argument), 75 DATA_DIR held by another process, 78 bad configuration.

Configuration comes from the same environment variables as the server (see README).`

/** Exit codes (sysexits.h where one fits). */
const EX_USAGE = 64
const EX_CONFIG = 78

/** A command line that cannot be run as written: exits {@link EX_USAGE} with the usage text. */
class UsageError extends Error {}

type Print = (line: string) => void

/** Runs one command; resolves to the process exit code. */
export async function run(argv: readonly string[], out: Print = console.log, err: Print = console.error): Promise<number> {
  // The content commands have options of their own.
  if (argv[0] === 'content') return runContentCommand(argv.slice(1), { out, err, stdout: process.stdout, stderr: process.stderr })
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    err(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`)
    return EX_USAGE
  }
  const {
    positionals: [group, command, ...rest],
    values,
  } = parsed
  if (values.help === true || group === undefined || group === 'help') {
    out(USAGE)
    return 0
  }
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    err(error.message)
    return EX_CONFIG
  }
  const json = values.json === true ? (value: unknown) => out(JSON.stringify(value, null, 2)) : undefined
  try {
    if (group === 'db' && (command === 'migrate' || command === 'seed') && rest.length === 0) return await database(config, command, json, out)
    const action = adminAction(group, command, rest, values)
    if (action === undefined) throw new UsageError(`Unknown command: ${argv.join(' ')}`)
    return await withOperations(
      config,
      async (ops) => {
        await action(ops, json, out)
        return 0
      },
      err,
    )
  } catch (error) {
    if (error instanceof UsageError) {
      err(`${error.message}\n\n${USAGE}`)
      return EX_USAGE
    }
    if (error instanceof DataDirUnavailable) {
      err(`error: ${error.message}`)
      return EX_TEMPFAIL
    }
    if (error instanceof AppError) {
      err(`error: ${error.detail} (${error.code})`)
      // An argument the service refuses (a name too long...) is bad usage like a missing one.
      return error.status === 404 ? 3 : error.status === 400 ? EX_USAGE : 1
    }
    throw error
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      tier: { type: 'string' },
      json: { type: 'boolean' },
      attributions: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

type Values = ReturnType<typeof parse>['values']
type Action = (ops: AdminOperations, json: ((value: unknown) => void) | undefined, out: Print) => Promise<void>

/** `usage --attributions`: who the MCP endpoint served (AI clients) and what (verses). */
function printAttributions(usage: AccountUsage, account: string | undefined, json: ((value: unknown) => void) | undefined, out: Print): void {
  const { period_start, period_end, by_client, top_verses } = usage
  if (json) return json({ period_start, period_end, by_client, top_verses })
  out(`MCP attributions ${period_start.slice(0, 10)} to ${period_end.slice(0, 10)}${account === undefined ? ' (all accounts)' : ` (account ${account})`}`)
  const clients = Object.entries(by_client).sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
  out('  by client:')
  if (clients.length === 0) out('    none')
  for (const [client, queries] of clients) out(`    ${String(queries).padStart(8)}  ${client}`)
  out('  top verses:')
  if (top_verses.length === 0) out('    none')
  for (const verse of top_verses) out(`    ${String(verse.queries).padStart(8)}  ${verse.reference} (${verse.slug})`)
}

function adminAction(group: string, command: string | undefined, rest: readonly string[], values: Values): Action | undefined {
  if (group === 'usage') {
    const account = values.account ?? command
    return async (ops, json, out) => {
      const usage = await ops.usage(account)
      if (values.attributions === true) return printAttributions(usage, account, json, out)
      if (json) return json(usage)
      out(`Usage ${usage.period_start.slice(0, 10)} to ${usage.period_end.slice(0, 10)}${account === undefined ? ' (all accounts)' : ` (account ${account})`}`)
      out(`  total queries: ${usage.total_queries}`)
      out(
        `  by endpoint:   ${
          Object.entries(usage.by_endpoint)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ') || 'none'
        }`,
      )
      out(`  by style:      faithful ${usage.by_style.faithful}, casual ${usage.by_style.casual}, all ${usage.by_style.all}`)
      for (const key of usage.keys)
        out(`  ${key.prefix}...  ${key.id}  ${key.tier.padEnd(9)} ${String(key.total_queries).padStart(8)} / ${key.limit}  ${key.name}`)
    }
  }
  if (group !== 'keys') return undefined
  if (command === 'create') {
    const name = values.name
    const tier = values.tier ?? 'free'
    if (name === undefined) throw new UsageError('keys create needs --name NAME')
    assertTier(tier)
    return async (ops, json, out) => {
      const created = await ops.createKey({ name, account: values.account ?? 'operator', tier })
      if (json) return json(created)
      out(created.key)
      out(
        `\nCreated key ${created.id} (${created.prefix}...) for account ${created.account_id}: tier ${created.tier}, ${created.rate_limit_monthly} queries a month.`,
      )
      out('Store the key now: it is shown only once.')
    }
  }
  if (command === 'list') {
    return async (ops, json, out) => {
      const keys = await ops.listKeys(values.account)
      if (json) return json(keys)
      if (keys.length === 0) out('No active keys.')
      for (const key of keys) out(describe(key))
    }
  }
  const [id, tier] = rest
  if (command === 'revoke' && id !== undefined) {
    return async (ops, json, out) => {
      const key = await ops.revokeKey(id)
      return json ? json(key) : out(`Revoked ${describe(key)}`)
    }
  }
  if (command === 'set-tier' && id !== undefined && tier !== undefined) {
    assertTier(tier)
    return async (ops, json, out) => {
      const key = await ops.setTier(id, tier)
      return json ? json(key) : out(`Tier set: ${describe(key)}`)
    }
  }
  return undefined
}

function assertTier(tier: string): asserts tier is Tier {
  if (!(TIERS as readonly string[]).includes(tier)) throw new UsageError(`the tier must be one of ${TIERS.join(', ')} (got ${JSON.stringify(tier)})`)
}

function describe(key: KeyView): string {
  return `${key.id}  ${key.prefix}...  ${key.tier.padEnd(9)} ${String(key.rate_limit_monthly).padStart(8)}/month  account ${key.account_id}  "${key.name}"  created ${key.created_at}`
}

/**
 * Runs `work` on the running server's admin socket, or in-process. With the embedded
 * database, in-process means holding DATA_DIR's lock: a command never opens a database that
 * a server (even one still starting) holds, and waits for that server's socket instead.
 */
async function withOperations(config: Config, work: (ops: AdminOperations) => Promise<number>, note: Print): Promise<number> {
  const dataDir = resolve(config.dataDir)
  let lock: DataDirLock | undefined
  if (config.databaseUrl === undefined) {
    const access = await reachDataDir(dataDir, { ...DEFAULT_WAIT, note })
    if (access.kind === 'socket') return work(remoteOperations(access.socket, access.token))
    lock = access.lock
  } else {
    // PostgreSQL takes any number of clients: the socket when a server on this DATA_DIR answers, else directly.
    const token = readAdminToken(dataDir)
    const { socket } = adminPaths(dataDir)
    if (token !== undefined && (await socketAnswers(socket))) return work(remoteOperations(socket, token))
  }
  try {
    const handle = await openDatabase(databaseLocation(config))
    try {
      await prepareDatabase(handle.db, dataDirSeedOptions(dataDir, systemClock))
      // A pack folder of its own: the CLI may run beside a server on this DATA_DIR (PostgreSQL).
      const stores = await loadStores(handle.db, { packDir: cliContentPackDir(dataDir) })
      const quiet = { error: () => undefined, info: () => undefined, warn: () => undefined }
      // The CLI counts nothing; its own journal folder keeps it apart from a server's journal.
      const services = await createServices({ config, database: handle, stores, clock: systemClock, logger: quiet, journalDir: join(dataDir, 'cli') })
      try {
        return await work(localOperations(services, config.quotas, systemClock))
      } finally {
        await services.stop()
        stores.content.close()
      }
    } finally {
      await handle.close()
    }
  } finally {
    lock?.release()
  }
}

async function database(config: Config, command: 'migrate' | 'seed', json: ((value: unknown) => void) | undefined, out: Print): Promise<number> {
  // Only the embedded database needs the lock; PostgreSQL serializes migrations itself.
  const lock = config.databaseUrl === undefined ? claimEmbeddedDatabase(resolve(config.dataDir)) : undefined
  const handle = await openDatabase(databaseLocation(config)).catch((error: unknown) => {
    lock?.release()
    throw error
  })
  try {
    if (command === 'migrate') {
      const applied = await migrateToLatest(handle.db)
      if (json) json({ migrations: applied })
      else out(applied.length === 0 ? 'migrations: up to date' : `migrations applied: ${applied.join(', ')}`)
    } else {
      const report = await prepareDatabase(handle.db, dataDirSeedOptions(resolve(config.dataDir), systemClock))
      if (json) {
        json(report)
        return 0
      }
      out(report.migrations.length === 0 ? 'migrations: up to date' : `migrations applied: ${report.migrations.join(', ')}`)
      out(`kjv: ${report.seed.kjv.status} (${report.seed.kjv.verses} verses)`)
      const content = report.seed.content
      out(
        content.status === 'unchanged'
          ? 'content: unchanged'
          : `content: loaded (${content.curated} curated, ${content.generated} generated, ${content.modernized} modernized)`,
      )
      const narratives = report.seed.narrativeContent
      out(
        narratives.status === 'unchanged'
          ? 'narrative content: unchanged'
          : `narrative content: loaded (${narratives.curated} curated, ${narratives.generated} generated)`,
      )
    }
    return 0
  } finally {
    await handle.close()
    lock?.release()
  }
}

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  })
