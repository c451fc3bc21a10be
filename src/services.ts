/**
 * The service graph: every capability's service built once from the infrastructure and
 * passed to the HTTP app and the CLI alike.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.js'
import { IdentityVerifier } from './identity/identity.service.js'
import { epochMs, type Clock } from './infra/clock.js'
import type { DatabaseHandle, DatabaseKind } from './infra/database.js'
import { KeyVerifier } from './keys/key-verifier.js'
import { KeysRepository } from './keys/keys.repository.js'
import { KeysService } from './keys/keys.service.js'
import type { QuotaCounter } from './quotas/counter.js'
import { DashboardService } from './dashboard/dashboard.service.js'
import { OperatorService } from './operator/operator.service.js'
import { MemoryQuotaCounter } from './quotas/memory-counter.js'
import { QuotaService } from './quotas/quota.service.js'
import { RateLimiter } from './quotas/rate-limiter.js'
import type { Stores } from './startup.js'
import { UsageJournal } from './usage/usage.journal.js'
import { UsageRepository } from './usage/usage.repository.js'
import { UsageService } from './usage/usage.service.js'
import { VersesService } from './verses/verses.service.js'
import { NarrativesService } from './narratives/narratives.service.js'
import { PassagesService } from './passages/passages.service.js'
import { ReferenceParser } from './passages/reference-parser.js'
import { SEARCH_INDEX_FORMAT_VERSION } from './search/search.index-file.js'
import { SearchService } from './search/search.service.js'
import { Sitemaps } from './web/sitemaps.js'
import { WebService } from './web/web.service.js'

/**
 * How often journalled usage is added to the ledger: every second, except where nothing waits
 * on it and it costs the answers most, the embedded database with counters in this process:
 * every 5 s. Instances that share Redis counters wait for two flushes of every live instance
 * to rebuild a lost counter (`UsageService.settledTotal`), and on PostgreSQL a flush runs off
 * the event loop; PGlite runs on it, where a flush under load holds the answers queued behind
 * it for several milliseconds (the verse lookup's p99 felt it). Readers are not affected
 * either way: every usage total adds what is journalled but not yet flushed.
 * @example flushIntervalFor('pglite', { shared: false }) // 5_000
 */
export function flushIntervalFor(kind: DatabaseKind, counter: Pick<QuotaCounter, 'shared'>): number {
  return kind === 'pglite' && !counter.shared ? 5_000 : 1_000
}
/** How often each instance looks for revoked or changed keys (the 5-second rule has room to spare). */
export const KEY_POLL_INTERVAL_MS = 2_000

/** Every service. */
export interface Services {
  readonly verses: VersesService
  readonly narratives: NarrativesService
  readonly passages: PassagesService
  readonly search: SearchService
  readonly keyVerifier: KeyVerifier
  readonly keys: KeysService
  readonly usage: UsageService
  readonly quotas: QuotaService
  /** The per-second limits, counted where the quotas are. */
  readonly rateLimiter: RateLimiter
  readonly identity: IdentityVerifier
  /** What the dashboard does for a signed-in account. */
  readonly dashboard: DashboardService
  /** The operator's view (every account and key, tiers, service-wide usage). */
  readonly operator: OperatorService
  readonly counter: QuotaCounter
  /** The public pages. */
  readonly web: WebService
  readonly sitemaps: Sitemaps
  /** Starts background work (usage flushing, key-change polling); resolves once this instance has announced itself. */
  start(): Promise<void>
  /** Stops background work, flushes usage and releases the counter backend. */
  stop(): Promise<void>
}

/** What the services are built from. */
export interface ServiceDeps {
  readonly config: Config
  readonly database: DatabaseHandle
  readonly stores: Stores
  readonly clock: Clock
  readonly logger: Pick<FastifyBaseLogger, 'error' | 'info' | 'warn'>
  /** Where this instance keeps its usage journal (normally DATA_DIR). */
  readonly journalDir: string
  /** Where the search index is saved and read back at the next start (the server: DATA_DIR/search); none: built in memory each time. */
  readonly searchIndexDir?: string
}

/**
 * What identifies the texts the search index is built from: the KJV data set the verses were
 * loaded under, the content revision of the content served (which every change to verse content
 * replaces: the seed, `content import`, `content generate`), and the index format.
 */
function searchIndexKey(stores: Stores): string {
  return createHash('sha256')
    .update(JSON.stringify({ format: SEARCH_INDEX_FORMAT_VERSION, kjv: stores.kjvSeedHash ?? null, contentRevision: stores.content.revision }))
    .digest('hex')
}

/** The Redis counter, loaded only when configured (ioredis is not needed on the embedded default). */
async function redisCounter(url: string, clock: Clock, logger: ServiceDeps['logger']): Promise<QuotaCounter> {
  const { createRedis, RedisQuotaCounter } = await import('./quotas/redis-counter.js')
  return new RedisQuotaCounter(
    createRedis(url, (error) => logger.warn({ err: error }, 'redis connection error')),
    {
      prefix: 'plainverse:',
      now: () => epochMs(clock),
    },
  )
}

/**
 * Builds the services and replays any usage an earlier run journalled but did not flush.
 * @example const services = await createServices({ config, database, stores, clock: systemClock, logger, journalDir: config.dataDir })
 */
export async function createServices(deps: ServiceDeps): Promise<Services> {
  const { config, database, clock, logger } = deps
  const counter: QuotaCounter =
    config.redisUrl === undefined ? new MemoryQuotaCounter({ now: () => epochMs(clock) }) : await redisCounter(config.redisUrl, clock, logger)
  const journal = new UsageJournal(deps.journalDir)
  const usage = new UsageService(new UsageRepository(database.db), journal, logger, clock)
  const replayed = await usage.recover()
  if (replayed > 0) logger.info({ replayed }, 'usage journal replayed into the ledger')
  const keysRepository = new KeysRepository(database.db)
  const keyVerifier = new KeyVerifier(keysRepository, { pollIntervalMs: KEY_POLL_INTERVAL_MS, now: () => epochMs(clock), logger })
  const keys = new KeysService(keysRepository, keyVerifier, config.quotas)
  const quotas = new QuotaService(counter, usage, config.quotas, clock, { opPrefix: randomBytes(8).toString('hex'), logger })
  const identity = new IdentityVerifier(config.auth, { now: () => epochMs(clock) })
  const verses = new VersesService({
    verses: deps.stores.verses,
    content: deps.stores.content,
    intros: deps.stores.intros,
    narratives: deps.stores.narratives,
    sections: deps.stores.sections,
    config,
  })
  const narratives = new NarrativesService(deps.stores.narratives, verses, deps.stores.narrativeContent)
  const search = new SearchService({
    verses: deps.stores.verses,
    content: deps.stores.content,
    resources: verses,
    logger,
    ...(deps.searchIndexDir === undefined ? {} : { indexDir: deps.searchIndexDir, indexKey: searchIndexKey(deps.stores) }),
  })
  return {
    verses,
    narratives,
    passages: new PassagesService({ store: deps.stores.verses, verses, parser: new ReferenceParser(), publicBaseUrl: config.publicBaseUrl }),
    search,
    web: new WebService({
      verses,
      store: deps.stores.verses,
      narratives,
      search,
      site: { baseUrl: config.publicBaseUrl, name: config.attributionSource, license: config.attributionLicense },
      tiers: { monthly: config.quotas.monthly, perSecond: config.rateLimits.perKey },
    }),
    sitemaps: new Sitemaps({ baseUrl: config.publicBaseUrl, store: deps.stores.verses, narratives, lastModified: clock.now() }),
    keyVerifier,
    keys,
    usage,
    quotas,
    rateLimiter: new RateLimiter(counter, () => epochMs(clock)),
    identity,
    operator: new OperatorService({ keys, usage, quotaConfig: config.quotas, clock }),
    dashboard: new DashboardService({ identity, keys, quotas, usage, quotaConfig: config.quotas, clock }),
    counter,
    async start() {
      await keyVerifier.start()
      await usage.start(flushIntervalFor(database.kind, counter))
    },
    async stop() {
      keyVerifier.stop()
      quotas.close()
      // Each step runs even when an earlier one fails, so nothing is left open.
      try {
        // A search index half written would only be rebuilt, but a finished one saves the next start a build.
        await search.flush()
        await usage.stop()
      } finally {
        try {
          journal.close()
        } finally {
          await counter.close()
        }
      }
    },
  }
}
