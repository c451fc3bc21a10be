/** Builds the app for a test on its own seeded database, and tears both down afterwards. */
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import type { DatabaseHandle, DatabaseKind } from '../../src/infra/database.js'
import { loadStores, type Stores } from '../../src/startup.js'
import { openTestDatabase } from './database.js'

/** The parts of tap's Test this helper needs. */
export interface Teardown {
  teardown(fn: () => unknown): void
}

/** An app under test with the dependencies it was built from. */
export interface TestApp {
  readonly app: FastifyInstance
  readonly database: DatabaseHandle
  readonly stores: Stores
  readonly config: Config
}

/**
 * A fresh app on a fresh copy of the seeded database.
 * @param env environment overrides, parsed by the real config loader.
 */
export async function buildTestApp(t: Teardown, options: { kind?: DatabaseKind; env?: Record<string, string> } = {}): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...options.env })
  const database = await openTestDatabase(options.kind ?? 'pglite', { seeded: true })
  const stores = await loadStores(database.db)
  const app = await buildApp({ config, database, ...stores })
  t.teardown(async () => {
    await app.close()
    await database.close()
  })
  return { app, database, stores, config }
}
