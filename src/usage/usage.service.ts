/**
 * Usage: records counted queries (journal first, ledger in batches) and reports totals.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyBaseLogger } from 'fastify'
import { systemClock, type Clock } from '../infra/clock.js'
import type { Journalled, UsageAttribution, UsageJournal } from './usage.journal.js'
import type { ClientIncrement, DailyIncrement, LedgerIncrement, LedgerRow, UsageRepository, VerseIncrement } from './usage.repository.js'
import type { UsageTally } from './usage.tally.js'

/** Endpoints whose successful responses are counted. */
export type CountedEndpoint = 'verse' | 'narrative' | 'passage' | 'search' | 'mcp'

/** Usage of some keys in a period, broken down as the account view reports it. */
export interface UsageBreakdown {
  readonly total: number
  readonly byEndpoint: Readonly<Record<string, number>>
  readonly byStyle: Readonly<Record<string, number>>
  readonly byKey: ReadonlyMap<string, number>
}

/** Who MCP tool calls of some keys served in a period, and what. */
export interface AttributionSummary {
  /** Counted calls per AI client. */
  readonly byClient: Readonly<Record<string, number>>
  /** The verses served most, most first (ties in canonical order, i.e. by id). */
  readonly topVerses: ReadonlyArray<{ readonly verseId: number; readonly serves: number }>
}

/** The journal's state, for the metrics. */
export interface UsageStats {
  /** Counted queries journalled but not yet in the ledger. */
  readonly backlog: number
  /** When a flush last succeeded; undefined before the first one. */
  readonly lastFlushAt: Date | undefined
}

/** How long since its last flush an instance still counts as alive for `settledTotal`. */
const ALIVE_WITHIN_MS = 10_000

/** `settledTotal` could not hear from every live instance in time. */
export class UsageNotSettledError extends Error {
  override readonly name = 'UsageNotSettledError'
}

/** Records and reports usage. */
export class UsageService {
  private chain: Promise<unknown> = Promise.resolve()
  private timer: NodeJS.Timeout | undefined
  private lastFlushAt: Date | undefined
  private intervalMs: number | undefined

  /** @param clock stamps successful flushes (the metrics report the time since the last one). */
  constructor(
    private readonly repository: UsageRepository,
    private readonly journal: UsageJournal,
    private readonly logger: Pick<FastifyBaseLogger, 'error' | 'info'>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** How often the periodic flush runs once started (undefined before `start`). */
  get flushIntervalMs(): number | undefined {
    return this.intervalMs
  }

  /** The backlog and the last successful flush, without touching the database. */
  stats(): UsageStats {
    return { backlog: this.journal.backlog(), lastFlushAt: this.lastFlushAt }
  }

  /** Applies what an earlier run journalled but did not flush (after a crash), then starts afresh. */
  async recover(): Promise<number> {
    const applied = await this.repository.appliedSeq(this.journal.journalId)
    this.journal.markApplied(applied)
    this.journal.continueAfter(applied)
    const replayed = this.journal.backlog()
    await this.flush()
    return replayed
  }

  /**
   * Records one counted query durably (journal), with its attribution when it has one (a
   * counted MCP tool call); the caller sends its response once this resolves.
   */
  async record(keyId: string, period: string, endpoint: CountedEndpoint, style: string, attribution?: UsageAttribution): Promise<void> {
    await this.journal.append(keyId, period, endpoint, style, attribution)
  }

  /**
   * Records one counted query and calls `journalled` once it is durable (journal), or with
   * the error that kept it from being: the hot path's `record`, without a promise.
   */
  recordThen(keyId: string, period: string, endpoint: CountedEndpoint, style: string, journalled: Journalled): void {
    this.journal.appendThen(keyId, period, endpoint, style, journalled)
  }

  /**
   * Adds every journalled entry to the ledger; one flush at a time. A serving instance (one
   * that was started) then records the flush: a heartbeat that other instances wait on.
   */
  flush(): Promise<void> {
    return this.exclusive(async () => {
      await this.applyPending()
      if (this.timer !== undefined) await this.repository.heartbeat(this.journal.journalId)
      this.lastFlushAt = this.clock.now()
    })
  }

  /**
   * A key's total in a period as every live instance has counted it: flushes this instance's
   * journal, then waits until each other instance that flushed within the last 10 s has
   * completed two more flushes (the second began after this call started, so it carried
   * everything that instance journalled before), then reads the ledger. A shared counter that
   * lost its state (Redis flushed or restarted) is rebuilt from this.
   * @throws UsageNotSettledError when a live instance has not flushed twice within `timeoutMs`.
   */
  async settledTotal(keyId: string, period: string, options: { readonly timeoutMs: number; readonly pollMs: number }): Promise<number> {
    await this.flush()
    const self = this.journal.journalId
    const start = new Map(
      (await this.repository.journalStates()).filter((j) => j.journalId !== self && j.silentMs < ALIVE_WITHIN_MS).map((j) => [j.journalId, j.flushes]),
    )
    const deadline = performance.now() + options.timeoutMs
    while (start.size > 0) {
      for (const state of await this.repository.journalStates()) {
        const before = start.get(state.journalId)
        // Flushed twice since, or silent long enough to count as gone (its journal is replayed when it restarts).
        if (before !== undefined && (state.flushes >= before + 2 || state.silentMs >= ALIVE_WITHIN_MS)) start.delete(state.journalId)
      }
      if (start.size === 0) break
      if (performance.now() > deadline) throw new UsageNotSettledError(`${start.size} instance(s) did not flush their usage within ${options.timeoutMs} ms`)
      await sleep(options.pollMs)
    }
    return this.keyTotal(keyId, period)
  }

  /** Adds the journalled queries not yet in the ledger (inside `exclusive`). */
  private async applyPending(): Promise<void> {
    if (this.journal.backlog() === 0) return
    await this.resync()
    // The journal summed the queries as it wrote them: this walks a few groups per tally, never
    // one object per query, so the event loop is not held up however many a second brought.
    const tallies = this.journal.seal()
    const first = tallies[0]?.first ?? 0
    const last = tallies[tallies.length - 1]?.last ?? 0
    if (last === 0) return
    const { increments, daily, clients, verses } = batchOf(tallies, this.clock.now())
    await this.repository.applyBatch(this.journal.journalId, first, last, increments, { clients, verses }, daily)
    this.journal.markApplied(last)
    this.journal.rotateIfLarge()
  }

  /**
   * Flushes every `intervalMs` until stop(), starting with one flush now: its heartbeat tells
   * the other instances that this one is alive before it serves anything.
   */
  async start(intervalMs: number): Promise<void> {
    this.intervalMs = intervalMs
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => this.logger.error({ err: error }, 'usage flush failed; entries stay journalled'))
    }, intervalMs)
    this.timer.unref()
    await this.flush().catch((error: unknown) => this.logger.error({ err: error }, 'usage flush failed; entries stay journalled'))
  }

  /** Stops the timer, flushes what is left and says so: other instances stop waiting on this one. */
  async stop(): Promise<void> {
    if (this.timer === undefined) return this.flush()
    clearInterval(this.timer)
    this.timer = undefined
    await this.flush()
    await this.repository.retire(this.journal.journalId)
  }

  /** Queries of one key in a period: the ledger plus what is journalled but not yet flushed. */
  keyTotal(keyId: string, period: string): Promise<number> {
    return this.exclusive(async () => {
      await this.resync()
      const ledger = await this.repository.keyTotal(keyId, period)
      let pending = 0
      for (const tally of this.journal.pending()) pending += tally.total(keyId, period)
      return ledger + pending
    })
  }

  /** Usage of some keys in a period, with breakdowns. */
  breakdown(keyIds: readonly string[], period: string): Promise<UsageBreakdown> {
    return this.exclusive(async () => {
      await this.resync()
      const wanted = new Set(keyIds)
      const rows: LedgerRow[] = await this.repository.rowsFor(keyIds, period)
      for (const tally of this.journal.pending()) {
        for (const keyId of wanted) tally.forEachGroupOf(keyId, period, (endpoint, style, queries) => rows.push({ keyId, period, endpoint, style, queries }))
      }
      const byEndpoint: Record<string, number> = {}
      const byStyle: Record<string, number> = { faithful: 0, casual: 0, all: 0 }
      const byKey = new Map<string, number>()
      let total = 0
      for (const row of rows) {
        total += row.queries
        byEndpoint[row.endpoint] = (byEndpoint[row.endpoint] ?? 0) + row.queries
        byStyle[row.style] = (byStyle[row.style] ?? 0) + row.queries
        byKey.set(row.keyId, (byKey.get(row.keyId) ?? 0) + row.queries)
      }
      return { total, byEndpoint, byStyle, byKey }
    })
  }

  /**
   * Counted MCP calls per AI client and the `limit` verses served most, for some keys in a
   * period: the attribution tables plus what is journalled but not yet flushed.
   */
  attributions(keyIds: readonly string[], period: string, limit: number): Promise<AttributionSummary> {
    return this.exclusive(async () => {
      await this.resync()
      const wanted = new Set(keyIds)
      // A Map, not an object: a client may call itself `__proto__`.
      const byClient = new Map<string, number>()
      const serves = new Map<number, number>()
      for (const row of await this.repository.clientTotals(keyIds, period)) byClient.set(row.client, (byClient.get(row.client) ?? 0) + row.queries)
      for (const row of await this.repository.verseTotals(keyIds, period)) serves.set(row.verseId, (serves.get(row.verseId) ?? 0) + row.serves)
      for (const tally of this.journal.pending()) {
        for (const row of tally.clients())
          if (wanted.has(row.keyId) && row.period === period) byClient.set(row.client, (byClient.get(row.client) ?? 0) + row.queries)
        for (const row of tally.verses())
          if (wanted.has(row.keyId) && row.period === period) serves.set(row.verseId, (serves.get(row.verseId) ?? 0) + row.serves)
      }
      const topVerses = [...serves]
        .map(([verseId, count]) => ({ verseId, serves: count }))
        .sort((a, b) => b.serves - a.serves || a.verseId - b.verseId)
        .slice(0, limit)
      return { byClient: Object.fromEntries(byClient), topVerses }
    })
  }

  /**
   * Counted queries of some keys per day of a period, from its first day to today (or its last
   * day, for a past period), days without queries included: the ledger's daily table plus what
   * is journalled but not yet flushed (dated today).
   */
  daily(keyIds: readonly string[], period: string): Promise<Array<{ date: string; queries: number }>> {
    return this.exclusive(async () => {
      await this.resync()
      const first = `${period}-01`
      const last = dayIn(period, this.clock.now())
      const counts = new Map<string, number>()
      for (const row of await this.repository.dailyTotals(keyIds, first, last)) counts.set(row.day, row.queries)
      const wanted = new Set(keyIds)
      for (const tally of this.journal.pending()) for (const keyId of wanted) counts.set(last, (counts.get(last) ?? 0) + tally.total(keyId, period))
      const days: Array<{ date: string; queries: number }> = []
      for (let day = new Date(`${first}T00:00:00Z`); isoDay(day) <= last; day = new Date(day.getTime() + 86_400_000)) {
        days.push({ date: isoDay(day), queries: counts.get(isoDay(day)) ?? 0 })
      }
      return days
    })
  }

  /** The last day each of some keys had a counted query (`YYYY-MM-DD`), journalled queries included (today). */
  lastUsedDays(keyIds: readonly string[]): Promise<Map<string, string>> {
    return this.exclusive(async () => {
      await this.resync()
      const days = await this.repository.lastUsedDays(keyIds)
      const wanted = new Set(keyIds)
      const now = this.clock.now()
      for (const tally of this.journal.pending()) {
        for (const { keyId, period } of tally.keyPeriods()) {
          const day = dayIn(period, now)
          if (wanted.has(keyId) && day > (days.get(keyId) ?? '')) days.set(keyId, day)
        }
      }
      return days
    })
  }

  /**
   * Forgets pending entries the ledger already has: a batch whose commit succeeded but whose
   * acknowledgement was lost (a connection dropped after COMMIT) must not count twice.
   */
  private async resync(): Promise<void> {
    // Lines appended in this turn of the event loop are written at its end: a report must see them.
    await this.journal.written()
    if (this.journal.backlog() > 0) this.journal.markApplied(await this.repository.appliedSeq(this.journal.journalId))
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work)
    this.chain = run.catch(() => undefined)
    return run
  }
}

/**
 * One ledger batch from some tallies: their groups, attributions and daily counts summed
 * (a group may be in several tallies when an earlier flush failed), the daily ones dated by
 * `now`, the flush's time.
 */
function batchOf(
  tallies: readonly UsageTally[],
  now: Date,
): { increments: LedgerIncrement[]; daily: DailyIncrement[]; clients: ClientIncrement[]; verses: VerseIncrement[] } {
  const increments = new Map<string, LedgerIncrement>()
  const daily = new Map<string, DailyIncrement>()
  const clients = new Map<string, ClientIncrement>()
  const verses = new Map<string, VerseIncrement>()
  for (const tally of tallies) {
    tally.forEachGroup((keyId, period, endpoint, style, queries) => {
      const id = `${keyId}\t${period}\t${endpoint}\t${style}`
      increments.set(id, { keyId, period, endpoint, style, queries: (increments.get(id)?.queries ?? 0) + queries })
      const day = dayIn(period, now)
      const dayId = `${keyId}\t${day}`
      daily.set(dayId, { keyId, day, queries: (daily.get(dayId)?.queries ?? 0) + queries })
    })
    for (const c of tally.clients()) {
      const id = `${c.keyId}\t${c.period}\t${c.client}\t${c.tool}`
      clients.set(id, { ...c, queries: (clients.get(id)?.queries ?? 0) + c.queries })
    }
    for (const v of tally.verses()) {
      const id = `${v.keyId}\t${v.period}\t${v.verseId}`
      verses.set(id, { ...v, serves: (verses.get(id)?.serves ?? 0) + v.serves })
    }
  }
  return { increments: [...increments.values()], daily: [...daily.values()], clients: [...clients.values()], verses: [...verses.values()] }
}

/** `YYYY-MM-DD` of an instant (UTC). */
function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10)
}

/**
 * The day a query of `period` (`YYYY-MM`) is dated when recorded at `now`: today, unless the
 * flush happens outside the period (a query journalled before midnight at a month's end and
 * flushed after, or replayed after a restart), when it is the period's nearest day.
 */
export function dayIn(period: string, now: Date): string {
  const today = isoDay(now)
  if (today.startsWith(`${period}-`)) return today
  if (today < period) return `${period}-01`
  const [year, month] = period.split('-').map(Number) as [number, number]
  return isoDay(new Date(Date.UTC(year, month, 0)))
}
