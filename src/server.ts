/**
 * The process entry point: read the configuration, open the database, prepare it, load the
 * verses into memory, build the app and listen. Stops gracefully on SIGTERM and SIGINT.
 */
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pino, type Logger } from 'pino'
import { ConfigError, loadConfig, metricsEnabled, type Config } from './config.js'
import { systemClock } from './infra/clock.js'
import { acquireDataDirLock, DataDirBusyError, type DataDirLock } from './infra/data-dir-lock.js'
import { retryWhile, STARTUP_BACKOFF } from './infra/backoff.js'
import { CounterUnavailableError } from './quotas/counter.js'
import { isDatabaseUnavailable, summarizeError } from './infra/database-errors.js'
import { databaseLocation, openDatabase } from './infra/database.js'
import { collectGarbage, limitHeapGrowth } from './infra/heap.js'
import { keepTickEntryShape } from './infra/tick-shape.js'
import { dataDirSeedOptions } from './seed/seed-files.js'
import type { Metrics } from './metrics/metrics.registry.js'
import type { MetricsListener } from './metrics/metrics.server.js'

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

/**
 * Takes DATA_DIR for this server, or exits at once naming the process that holds it: two
 * servers on one DATA_DIR would each open the embedded database with its own view of the
 * files, and share one usage journal and admin socket.
 */
function claimDataDir(dataDir: string): DataDirLock {
  try {
    return acquireDataDirLock(dataDir, 'server')
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error
    process.stderr.write(
      `${error.message}.\nOne process at a time owns a DATA_DIR (its embedded database, usage journal and admin socket): ` +
        'stop the other process, or give this server its own DATA_DIR (instances sharing PostgreSQL and Redis each need one).\n',
    )
    process.exit(75) // EX_TEMPFAIL
  }
}

/** The METRICS_PORT listener, loaded only when asked for. */
async function startMetricsListener(metrics: Metrics, options: { readonly port: number; readonly host: string }, logger: Logger): Promise<MetricsListener> {
  const { listenMetrics } = await import('./metrics/metrics.server.js')
  return listenMetrics(metrics, options, (error) => logger.error({ err: error }, 'collecting the metrics failed'))
}

async function main(): Promise<void> {
  const startedAt = performance.now()
  limitHeapGrowth()
  keepTickEntryShape()
  const config = readConfig()
  // Errors are logged by type, message, code and stack only: a database client's error can
  // carry the client itself, with the connection string and its password.
  const logger = pino({ level: config.logLevel, serializers: { err: summarizeError } })
  const dataDir = resolve(config.dataDir)
  // Held until the process exits; the kernel releases it even after kill -9.
  const lock = claimDataDir(dataDir)
  // The embedded database compiles its WebAssembly while the rest of the app's modules load:
  // start-up to ready is the target, so the two overlap.
  const opening = openDatabase(databaseLocation(config, (error) => logger.warn({ err: error }, 'database connection lost; the pool replaces it')))
  const [{ buildApp }, { createServices }, { loadStores, prepareDatabase }, { localOperations }, { startAdminServer }] = await Promise.all([
    import('./app.js'),
    import('./services.js'),
    import('./startup.js'),
    import('./admin/admin.operations.js'),
    import('./admin/admin.server.js'),
  ])
  const database = await opening
  // PostgreSQL may not be up yet (a host reboot, a failover, containers started together):
  // keep trying with backoff instead of exiting; the server does not listen, so it is not
  // ready, until the database answers.
  const { prepared, stores } = await retryWhile(
    async () => {
      const preparedNow = await prepareDatabase(database.db, dataDirSeedOptions(dataDir, systemClock))
      // A seed leaves its work behind as garbage: reclaimed before the stores load on top of it.
      if (Object.values(preparedNow.seed).some((report) => report.status === 'loaded')) collectGarbage()
      return { prepared: preparedNow, stores: await loadStores(database.db, { packDir: join(dataDir, 'content') }) }
    },
    (error) => database.kind === 'postgres' && isDatabaseUnavailable(error),
    STARTUP_BACKOFF,
    (error, attempt, waitMs) => logger.warn({ err: error, attempt, retryInMs: waitMs }, 'database unavailable at start-up; retrying'),
  )
  const services = await createServices({
    config,
    database,
    stores,
    clock: systemClock,
    logger,
    journalDir: dataDir,
    searchIndexDir: join(dataDir, 'search'),
  })
  // The saved search index, read before the server listens, serves the first request; without
  // one (a first start, other texts) it is built once the server listens, and saved.
  const indexLoaded = services.search.load()
  // Redis too may not be up yet: wait for it like for the database (requests would get 503s).
  await retryWhile(
    () => services.counter.ping(),
    (error) => error instanceof CounterUnavailableError,
    STARTUP_BACKOFF,
    (error, attempt, waitMs) => logger.warn({ err: error, attempt, retryInMs: waitMs }, 'quota counter (Redis) unavailable at start-up; retrying'),
  )
  let ready = false
  // prom-client is loaded only when metrics are served somewhere; by default nothing is recorded.
  const metrics = metricsEnabled(config.metrics)
    ? await import('./metrics/metrics.registry.js').then((module) => module.createMetrics({ services, database, clock: systemClock }))
    : undefined
  const app = await buildApp({
    config,
    database,
    verses: stores.verses,
    services,
    clock: systemClock,
    logger,
    isReady: () => ready,
    ...(metrics === undefined ? {} : { metrics }),
  })
  await services.start()
  const admin = await startAdminServer(dataDir, localOperations(services, config.quotas, systemClock))
  // The CLI waits for the admin socket while the lock says "starting"; from now on it can use it.
  lock.setState('ready')
  const metricsListener =
    metrics !== undefined && config.metrics.port !== undefined
      ? await startMetricsListener(metrics, { port: config.metrics.port, host: config.metrics.host }, logger)
      : undefined

  let stopping = false
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now')
      process.exit(1)
    }
    stopping = true
    ready = false
    lock.setState('stopping')
    logger.info({ signal }, 'shutting down')
    try {
      // Stop accepting connections and let in-flight requests finish, then flush usage to the
      // ledger, then close the database so that PGlite flushes its files.
      try {
        await app.close()
        await metricsListener?.close()
        await admin.close()
        await services.stop()
      } finally {
        stores.content.close()
        await database.close()
        lock.release()
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

  await indexLoaded
  await app.listen({ port: config.port, host: config.host })
  ready = true
  const address = app.server.address()
  logger.info(
    {
      // The port actually bound (PORT=0 asks the system for a free one).
      port: typeof address === 'object' && address !== null ? address.port : config.port,
      ...(metricsListener === undefined ? {} : { metricsPort: metricsListener.port }),
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
  process.stderr.write(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
