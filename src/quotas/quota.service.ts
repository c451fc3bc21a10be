/**
 * Monthly quotas: exact consumption through the counter, rebuilt from the ledger when the
 * counter has lost its state, and the rate-limit header fields that describe it.
 */
import type { QuotaConfig } from '../config.js'
import type { Clock } from '../infra/clock.js'
import type { KeyRecord } from '../keys/keys.repository.js'
import type { UsageAttribution } from '../usage/usage.journal.js'
import type { CountedEndpoint, UsageService } from '../usage/usage.service.js'
import { monthPeriod, type MonthPeriod, type QuotaCounter } from './counter.js'

/** A key's quota at one moment. */
export interface QuotaState {
  readonly limit: number
  readonly used: number
  readonly remaining: number
  readonly period: MonthPeriod
  /** Whole seconds until the next month starts (UTC). */
  readonly resetSeconds: number
}

/** The outcome of trying to count one query. */
export interface ConsumeOutcome {
  readonly allowed: boolean
  readonly state: QuotaState
}

/** How often to retry after initialising a lost counter (another request may race us). */
const MAX_ATTEMPTS = 3

/** Quota rules over a counter backend. */
export class QuotaService {
  // The current month, recomputed only when the clock leaves it (the hot path asks every time).
  private month: MonthPeriod | undefined

  constructor(
    private readonly counter: QuotaCounter,
    private readonly usage: UsageService,
    private readonly quotas: QuotaConfig,
    private readonly clock: Clock,
  ) {}

  private periodAt(now: Date): MonthPeriod {
    const time = now.getTime()
    if (this.month === undefined || time < this.month.start.getTime() || time >= this.month.end.getTime()) this.month = monthPeriod(now)
    return this.month
  }

  /** The monthly allowance of a key. */
  limitOf(key: KeyRecord): number {
    return this.quotas.monthly[key.tier]
  }

  /** The key's current quota, without counting anything. */
  async state(key: KeyRecord): Promise<QuotaState> {
    const now = this.clock.now()
    const period = this.periodAt(now)
    const used = (await this.counter.peek(key.id, period.id)) ?? (await this.rebuild(key, period))
    return this.describe(key, period, used, now)
  }

  /**
   * Counts one query if the key has any left, and records it durably (journal) before
   * returning, so the caller can send its 200.
   * @param attribution who and what a counted MCP tool call served, journalled with the query.
   */
  async consume(key: KeyRecord, endpoint: CountedEndpoint, style: string, attribution?: UsageAttribution): Promise<ConsumeOutcome> {
    const now = this.clock.now()
    const period = this.periodAt(now)
    const limit = this.limitOf(key)
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const result = await this.counter.consume(key.id, period.id, limit)
      if (result.status === 'uninitialised') {
        await this.rebuild(key, period)
        continue
      }
      if (result.status === 'exhausted') return { allowed: false, state: this.describe(key, period, result.count, now) }
      try {
        await this.usage.record(key.id, period.id, endpoint, style, attribution)
      } catch (error) {
        // Not recorded means not served: give the unit back so the count stays exact. The
        // journal's failure is what the caller needs to see, even if the refund fails too.
        await this.counter.refund(key.id, period.id).catch(() => undefined)
        throw error
      }
      return { allowed: true, state: this.describe(key, period, result.count, now) }
    }
    throw new Error(`quota counter for key ${key.id} could not be initialised`)
  }

  /** The IETF (draft-ietf-httpapi-ratelimit-headers-11) and legacy X-RateLimit-* fields. */
  headers(state: QuotaState): Record<string, string> {
    return {
      'ratelimit-policy': `"monthly";q=${state.limit};w=${state.period.secondsInPeriod}`,
      ratelimit: `"monthly";r=${state.remaining};t=${state.resetSeconds}`,
      'x-ratelimit-limit': String(state.limit),
      'x-ratelimit-remaining': String(state.remaining),
      'x-ratelimit-reset': String(Math.floor(state.period.end.getTime() / 1000)),
    }
  }

  private async rebuild(key: KeyRecord, period: MonthPeriod): Promise<number> {
    const total = await this.usage.keyTotal(key.id, period.id)
    return this.counter.initialise(key.id, period.id, total, period.end.getTime())
  }

  private describe(key: KeyRecord, period: MonthPeriod, used: number, now: Date): QuotaState {
    const limit = this.limitOf(key)
    return { limit, used, remaining: Math.max(0, limit - used), period, resetSeconds: period.secondsToReset(now) }
  }
}
