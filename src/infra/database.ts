/**
 * The database: PGlite in-process (persisted in DATA_DIR) by default, or a PostgreSQL server
 * through `pg` when DATABASE_URL is set. Both speak the same SQL through the same Kysely types.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely'
import type pg from 'pg'
import type { Database } from '../../db/schema.js'
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from '../config.js'
import { migrations } from '../../db/migrations/index.js'
import { projectPath } from './paths.js'
import { PGliteDialect } from './pglite-dialect.js'

export type DatabaseKind = 'pglite' | 'postgres'

/**
 * The connection pool at one moment, for the metrics: PostgreSQL's `pg` pool; the embedded
 * PGlite is one in-process connection and has no pool to report.
 */
export type DatabaseStats =
  | { readonly kind: 'pglite' }
  | {
      readonly kind: 'postgres'
      /** Connections open, idle or in use. */
      readonly total: number
      readonly idle: number
      /** Queries waiting for a connection (the pool is at `max`). */
      readonly waiting: number
      readonly max: number
    }

/** An open database and how to close it. */
export interface DatabaseHandle {
  readonly db: Kysely<Database>
  readonly kind: DatabaseKind
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>
  /** The pool's counts, read from memory (no query). */
  stats(): DatabaseStats
  close(): Promise<void>
}

/** Where to find the database: a PostgreSQL URL, a PGlite folder, or PGlite in memory. */
export type DatabaseLocation =
  | {
      readonly kind: 'postgres'
      readonly url: string
      readonly poolSize?: number
      readonly timeouts?: DatabaseTimeouts
      /** Told when an idle connection dies (a restart, a failover, pg_terminate_backend); the pool replaces it. */
      readonly onConnectionError?: (error: Error) => void
    }
  | {
      readonly kind: 'pglite'
      readonly dir: string | undefined
      /**
       * A migrated and seeded database folder that an empty `dir` starts as a copy of, when it
       * exists (the server's and the CLI's DATA_DIR: the build's, pgliteSeededTemplateDir), so
       * their first start finds every seed data set loaded. Without it, or when it does not
       * exist, an empty folder starts from the build's initialized cluster: an empty database.
       */
      readonly seededTemplate?: string
    }

/**
 * Chooses the location from configuration: DATABASE_URL wins over DATA_DIR.
 * @param onConnectionError for PostgreSQL: told when an idle connection dies.
 */
export function databaseLocation(
  config: { readonly databaseUrl: string | undefined; readonly dataDir: string; readonly databaseTimeouts: DatabaseTimeouts },
  onConnectionError?: (error: Error) => void,
): DatabaseLocation {
  return config.databaseUrl !== undefined
    ? { kind: 'postgres', url: config.databaseUrl, timeouts: config.databaseTimeouts, ...(onConnectionError === undefined ? {} : { onConnectionError }) }
    : { kind: 'pglite', dir: join(resolve(config.dataDir), 'pglite'), seededTemplate: pgliteSeededTemplateDir() }
}

/** The pool of a PostgreSQL location: bounded connects and statements, and dead connections reported, not thrown. */
async function createPool(location: Extract<DatabaseLocation, { kind: 'postgres' }>): Promise<pg.Pool> {
  const timeouts = location.timeouts ?? DEFAULT_DATABASE_TIMEOUTS
  // Loaded only for a PostgreSQL server, as PGlite is only for the embedded database: a start
  // loads the driver it uses, not both.
  const { default: driver } = await import('pg')
  const pool = new driver.Pool({
    connectionString: location.url,
    max: location.poolSize ?? 10,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    // The server enforces statement_timeout; this catches a server that stops answering at all.
    query_timeout: timeouts.statementMs + 5_000,
    idle_in_transaction_session_timeout: timeouts.statementMs * 2,
    keepAlive: true,
  })
  // An idle connection that dies emits 'error' on the pool; unhandled, it would end the
  // process. The pool drops that connection and opens a new one on the next query.
  pool.on('error', (error) => location.onConnectionError?.(error))
  // A connection that dies while checked out between statements (inside a transaction, say)
  // emits 'error' on the client itself, where the pool listens only while it is idle: without
  // this listener the process would end. Its next statement fails, and the pool discards it
  // when it is released because it is no longer queryable.
  pool.on('connect', (client) => {
    client.on('error', (error) => location.onConnectionError?.(error))
  })
  return pool
}

/**
 * The embedded database's memory settings. PGlite runs PostgreSQL in this process's
 * WebAssembly memory, which grows to the largest demand and is never given back: PostgreSQL's
 * defaults (128 MB of shared buffers, 64 MB for maintenance) would make the process that much
 * bigger for good. The hot path reads memory, not the database; what the database still does
 * (start-up reads, the usage ledger, keys) fits these with room to spare.
 */
export const PGLITE_CONF = ['shared_buffers = 16MB', 'work_mem = 2MB', 'maintenance_work_mem = 16MB', 'temp_buffers = 1MB', 'wal_buffers = 1MB'].join('\n')

/** The installed PGlite's version: a database folder is only ever opened by the PGlite that made it. */
export function pgliteVersion(): string {
  const packageJson = join(dirname(dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')))), 'package.json')
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version
}

/**
 * Where the build leaves a freshly initialized, empty embedded cluster for the installed PGlite
 * (scripts/pglite-template.ts), one folder per PGlite version so that a template never outlives
 * the PGlite that made it.
 */
export function pgliteTemplateDir(): string {
  return projectPath('dist', 'pglite-template', pgliteVersion())
}

/**
 * Where the build leaves the same cluster migrated and seeded (scripts/seeded-template.ts), one
 * folder per PGlite version. One made from older sources is still safe to start from: the
 * server migrates and seeds whatever is not current, as on any existing database.
 */
export function pgliteSeededTemplateDir(): string {
  return projectPath('dist', 'pglite-seeded', pgliteVersion())
}

/**
 * Starts an empty embedded database folder from the build's template, when there is one: PGlite's
 * own initdb runs a second PostgreSQL and the initdb program in this process, which takes several
 * seconds and leaves some 400 MiB of WebAssembly memory behind (collected late, if ever, while the
 * seed runs on top of it). The copy lands under another name and is renamed into place, so an
 * interrupted copy never looks like a database. Without a template (running from sources before
 * a build), PGlite initializes the folder itself as before. Given a seeded template that exists
 * (the server's and the CLI's location), it copies that instead: the first start then finds the
 * database migrated and seeded.
 */
function copyPgliteTemplate(dir: string, seededTemplate: string | undefined): void {
  if (readdirSync(dir).length > 0) return
  const template = [seededTemplate, pgliteTemplateDir()].find((folder) => folder !== undefined && existsSync(join(folder, 'PG_VERSION')))
  if (template === undefined) return
  const copying = `${dir}.copying-${process.pid}`
  rmSync(copying, { recursive: true, force: true })
  cpSync(template, copying, { recursive: true, filter: (source) => !source.endsWith('postmaster.pid') })
  rmSync(dir, { recursive: true })
  renameSync(copying, dir)
}

/** How long /readyz waits for the database before it says "not ready". */
const PING_TIMEOUT_MS = 2_000

/**
 * Opens the database.
 * @example const handle = await openDatabase({ kind: 'pglite', dir: undefined }) // in memory
 */
export async function openDatabase(location: DatabaseLocation): Promise<DatabaseHandle> {
  let db: Kysely<Database>
  let stats: () => DatabaseStats = () => ({ kind: 'pglite' })
  if (location.kind === 'postgres') {
    const pool = await createPool(location)
    stats = () => ({ kind: 'postgres', total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max })
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  } else {
    if (location.dir !== undefined) {
      mkdirSync(location.dir, { recursive: true })
      copyPgliteTemplate(location.dir, location.seededTemplate)
    }
    const { PGlite } = await import('@electric-sql/pglite')
    const pglite = await PGlite.create({ ...(location.dir === undefined ? {} : { dataDir: location.dir }), postgresqlconf: PGLITE_CONF })
    db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) })
  }
  return {
    db,
    kind: location.kind,
    stats,
    async ping() {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the database did not answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS)
      })
      try {
        await Promise.race([sql`select 1`.execute(db), timeout])
      } finally {
        clearTimeout(timer)
      }
    },
    async close() {
      await db.destroy()
    },
  }
}

/**
 * Brings the schema up to the newest migration; safe to run at every start.
 * @returns the names of the migrations that ran now.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  // The common case at start-up: everything is applied. One query instead of the migrator's
  // lock-table round trips keeps start-up fast.
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db).then(
    (result) => new Set(result.rows.map((r) => r.name)),
    () => new Set<string>(),
  )
  if (Object.keys(migrations).every((name) => applied.has(name))) return []
  const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ ...migrations }) } })
  const { error, results } = await migrator.migrateToLatest()
  if (error !== undefined) throw error instanceof Error ? error : new Error(String(error))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
