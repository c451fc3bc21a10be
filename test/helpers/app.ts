/** Builds the app for a test on its own seeded database, and tears both down afterwards. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.js'
import { loadConfig, metricsEnabled, type Config } from '../../src/config.js'
import type { Clock } from '../../src/infra/clock.js'
import type { DatabaseHandle, DatabaseKind } from '../../src/infra/database.js'
import { createMetrics } from '../../src/metrics/metrics.registry.js'
import { CounterUnavailableError } from '../../src/quotas/counter.js'
import { createServices, type Services } from '../../src/services.js'
import { projectPath } from '../../src/infra/paths.js'
import { loadStores, type Stores } from '../../src/startup.js'
import { openTestDatabase } from './database.js'
import { RATE_LIMITS_OFF } from './server.js'

/** The parts of tap's Test this helper needs. */
export interface Teardown {
  teardown(fn: () => unknown): void
}

/** An app under test with the dependencies it was built from. */
export interface TestApp {
  readonly app: FastifyInstance
  readonly database: DatabaseHandle
  readonly stores: Stores
  readonly services: Services
  readonly config: Config
  readonly journalDir: string
}

/** A clock a test can move. */
export class TestClock implements Clock {
  constructor(private current: Date = new Date()) {}

  now(): Date {
    return new Date(this.current)
  }

  set(date: Date): void {
    this.current = date
  }
}

/**
 * The content pack folder of every test in a run on one kind of database: test databases copied
 * from one seeded template share a content revision, so its pack is written once, not once per
 * test app. One folder per kind: the PGlite and PostgreSQL templates have revisions of their
 * own, and writing a pack removes the other packs of its folder. (A test that changes the
 * content writes a pack of its own revision there, and the template's is written again by the
 * next test that needs it: correct, at the cost of one more write.)
 */
export function testContentPacks(kind: DatabaseKind): string {
  return projectPath('var', 'test', 'content-packs', kind)
}

/** The stores as the server loads them (the content pack in {@link testContentPacks}), closed when the test ends. */
export async function loadTestStores(t: Teardown, database: Pick<DatabaseHandle, 'db' | 'kind'>): Promise<Stores> {
  const stores = await loadStores(database.db, { packDir: testContentPacks(database.kind) })
  t.teardown(() => stores.content.close())
  return stores
}

const silent = { error: () => undefined, info: () => undefined, warn: () => undefined }

/**
 * A fresh app on a fresh copy of the seeded database, with metrics when the environment asks
 * for them (METRICS_TOKEN, METRICS_PORT), as server.ts makes them.
 * @param env environment overrides, parsed by the real config loader (the per-second limits are off unless set here: RATE_LIMITS_OFF).
 * @param waitForCounter false to build the app while the quota counter backend does not answer.
 * @param isReady readiness as server.ts reports it (starting, shutting down); always ready when omitted.
 */
export async function buildTestApp(
  t: Teardown,
  options: {
    kind?: DatabaseKind
    env?: Record<string, string>
    clock?: Clock
    database?: DatabaseHandle
    logger?: FastifyBaseLogger
    waitForCounter?: boolean
    isReady?: () => boolean
  } = {},
): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...RATE_LIMITS_OFF, ...options.env })
  const database = options.database ?? (await openTestDatabase(options.kind ?? 'pglite', { seeded: true }))
  const journalDir = mkdtempSync(join(tmpdir(), 'pv-journal-'))
  const clock = options.clock ?? { now: () => new Date() }
  const stores = await loadStores(database.db, { packDir: testContentPacks(database.kind) })
  const services = await createServices({ config, database, stores, clock, logger: silent, journalDir })
  // As server.ts does before it listens: a Redis connection still being made would answer 503s.
  for (let attempt = 0; options.waitForCounter !== false; attempt++) {
    try {
      await services.counter.ping()
      break
    } catch (error) {
      if (!(error instanceof CounterUnavailableError) || attempt >= 600) throw error
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const metrics = metricsEnabled(config.metrics) ? createMetrics({ services, database, clock }) : undefined
  const app = await buildApp({
    config,
    database,
    verses: stores.verses,
    services,
    clock,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.isReady === undefined ? {} : { isReady: options.isReady }),
    ...(metrics === undefined ? {} : { metrics }),
  })
  t.teardown(async () => {
    await app.close()
    await services.stop()
    stores.content.close()
    if (options.database === undefined) await database.close()
    rmSync(journalDir, { recursive: true, force: true })
  })
  return { app, database, stores, services, config, journalDir }
}

/** Creates a key through the service (as the operator CLI does) and returns the full key. */
export async function createTestKey(
  testApp: TestApp,
  options: { account?: string; name?: string; tier?: 'free' | 'developer' | 'scale'; allowedDomains?: string[] } = {},
): Promise<{ key: string; id: string }> {
  const created = await testApp.services.keys.create({
    accountId: options.account ?? 'test-account',
    name: options.name ?? 'test key',
    tier: options.tier ?? 'free',
    allowedDomains: options.allowedDomains ?? [],
  })
  return { key: created.key, id: created.record.id }
}
