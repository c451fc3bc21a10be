/**
 * Metrics that describe state rather than events: each one reads a service's plain-number
 * `stats()` when Prometheus scrapes (prom-client's `collect`), so that the services know
 * nothing of prom-client and pay nothing between scrapes. Counts kept by a service are
 * exposed as counters (set to the service's total at each scrape), levels as gauges.
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import type { Clock } from '../infra/clock.js'
import type { DatabaseHandle } from '../infra/database.js'
import type { Services } from '../services.js'

/** What the state metrics read. */
export interface StateSources {
  readonly services: Pick<Services, 'quotas' | 'counter' | 'usage' | 'keyVerifier' | 'search'>
  readonly database: Pick<DatabaseHandle, 'kind' | 'stats'>
  /** For the time since the last usage flush. */
  readonly clock: Clock
}

/** A counter whose value is a total some service keeps. */
function totalCounter(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset()
      this.inc(read())
    },
  })
}

/** A gauge read at scrape time. */
function levelGauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read())
    },
  })
}

/**
 * Registers the quota, usage, key cache, database and search metrics on `registry`.
 * @example registerStateMetrics(registry, { services, database, clock: systemClock })
 */
export function registerStateMetrics(registry: Registry, sources: StateSources): void {
  const { services, database, clock } = sources
  new Counter({
    name: 'plainverse_quota_decisions_total',
    help: 'Counted queries by outcome: consumed (served), exhausted (429), unavailable (503, the counter backend did not answer).',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      const stats = services.quotas.stats()
      this.reset()
      for (const outcome of ['consumed', 'exhausted', 'unavailable'] as const) this.inc({ outcome }, stats[outcome])
    },
  })
  const backend = services.counter.stats().backend
  new Counter({
    name: 'plainverse_quota_counter_errors_total',
    help: 'Quota counter operations that failed because the backend (Redis) did not answer.',
    labelNames: ['backend'] as const,
    registers: [registry],
    collect() {
      this.reset()
      this.inc({ backend }, services.counter.stats().errors)
    },
  })
  new Gauge({
    name: 'plainverse_quota_counter_up',
    help: 'Whether the quota counter backend can take commands now (1) or not (0): memory (in-process) or redis.',
    labelNames: ['backend'] as const,
    registers: [registry],
    collect() {
      this.set({ backend }, services.counter.stats().up ? 1 : 0)
    },
  })

  levelGauge(
    registry,
    'plainverse_usage_journal_backlog_entries',
    'Counted queries journalled but not yet flushed to the usage ledger.',
    () => services.usage.stats().backlog,
  )
  // Before the first flush (start-up flushes at once, so hardly ever), the lag runs from here.
  const createdAt = clock.now()
  levelGauge(registry, 'plainverse_usage_flush_lag_seconds', 'Seconds since the usage journal was last flushed to the ledger successfully.', () => {
    const since = services.usage.stats().lastFlushAt ?? createdAt
    return Math.max(0, (clock.now().getTime() - since.getTime()) / 1_000)
  })

  totalCounter(registry, 'plainverse_key_cache_hits_total', 'Well-formed API keys found in the in-memory key cache.', () => services.keyVerifier.stats().hits)
  totalCounter(
    registry,
    'plainverse_key_cache_misses_total',
    'Well-formed API keys missing from the key cache (looked up in the database within a budget, or refused).',
    () => services.keyVerifier.stats().misses,
  )
  levelGauge(registry, 'plainverse_key_cache_keys', 'API keys held in memory (active and revoked).', () => services.keyVerifier.stats().keys)

  new Gauge({
    name: 'plainverse_database_info',
    help: 'The database in use: kind pglite (embedded, in-process, no pool) or postgres (DATABASE_URL, a pg pool).',
    labelNames: ['kind'] as const,
    registers: [registry],
  }).set({ kind: database.kind }, 1)
  if (database.kind === 'postgres') registerPoolMetrics(registry, database)

  levelGauge(registry, 'plainverse_search_index_ready', 'Whether the search index is built (1) or not yet (0).', () =>
    services.search.stats().state === 'ready' ? 1 : 0,
  )
  levelGauge(registry, 'plainverse_search_index_documents', 'Verses in the search index (0 until it is built).', () => services.search.stats().documents)
}

/** The pg pool's gauges, by the field of DatabaseStats each reads. */
const POOL_GAUGES = [
  ['plainverse_database_pool_connections', 'PostgreSQL connections open (idle or in use).', 'total'],
  ['plainverse_database_pool_idle_connections', 'PostgreSQL connections open and idle.', 'idle'],
  ['plainverse_database_pool_waiting_queries', 'Queries waiting for a PostgreSQL connection (the pool is full).', 'waiting'],
  ['plainverse_database_pool_max_connections', 'The most connections the pool opens.', 'max'],
] as const

/** The pool gauges; PGlite has no pool, so they exist only for PostgreSQL. */
function registerPoolMetrics(registry: Registry, database: Pick<DatabaseHandle, 'stats'>): void {
  for (const [name, help, field] of POOL_GAUGES) {
    levelGauge(registry, name, help, () => {
      const stats = database.stats()
      return stats.kind === 'postgres' ? stats[field] : 0
    })
  }
}
