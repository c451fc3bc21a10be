/**
 * The process entry point: read the configuration, open the database, prepare it, load the
 * verses into memory, build the app and listen. Stops gracefully on SIGTERM and SIGINT.
 */
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pino } from 'pino'
import { ConfigError, loadConfig, type Config } from './config.js'
import { systemClock } from './infra/clock.js'
import { databaseLocation, openDatabase } from './infra/database.js'

function readConfig(): Config {
  try {
    return loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(78) // EX_CONFIG
    }
    throw error
  }
}

async function main(): Promise<void> {
  const startedAt = performance.now()
  const config = readConfig()
  const logger = pino({ level: config.logLevel })
  // The embedded database compiles its WebAssembly while the rest of the app's modules load:
  // start-up to ready is the target, so the two overlap.
  const opening = openDatabase(databaseLocation(config))
  const [{ buildApp }, { createServices }, { loadStores, prepareDatabase }, { localOperations }, { startAdminServer }] = await Promise.all([
    import('./app.js'),
    import('./services.js'),
    import('./startup.js'),
    import('./admin/admin.operations.js'),
    import('./admin/admin.server.js'),
  ])
  const database = await opening
  const prepared = await prepareDatabase(database.db)
  const stores = await loadStores(database.db)
  const services = await createServices({ config, database, stores, clock: systemClock, logger, journalDir: config.dataDir })
  let ready = false
  const app = await buildApp({ config, database, verses: stores.verses, services, clock: systemClock, logger, isReady: () => ready })
  services.start()
  const admin = await startAdminServer(resolve(config.dataDir), localOperations(services, systemClock))

  let stopping = false
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now')
      process.exit(1)
    }
    stopping = true
    ready = false
    logger.info({ signal }, 'shutting down')
    try {
      // Stop accepting connections and let in-flight requests finish, then flush usage to the
      // ledger, then close the database so that PGlite flushes its files.
      try {
        await app.close()
        await admin.close()
        await services.stop()
      } finally {
        await database.close()
      }
      logger.info('stopped')
      process.exit(0)
    } catch (error) {
      logger.error({ err: error }, 'error while shutting down')
      process.exit(1)
    }
  }
  process.on('SIGTERM', (signal) => void stop(signal))
  process.on('SIGINT', (signal) => void stop(signal))

  await app.listen({ port: config.port, host: config.host })
  ready = true
  logger.info(
    {
      database: database.kind,
      migrations: prepared.migrations,
      seed: prepared.seed,
      verses: stores.verses.size,
      styles: stores.content.size,
      startupMs: Math.round(performance.now() - startedAt),
    },
    'ready',
  )
}

main().catch((error: unknown) => {
  process.stderr.write(`fatal: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
