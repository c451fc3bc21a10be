/**
 * Monthly quotas: exact consumption through the counter, rebuilt from the ledger when the
 * counter has lost its state. `state` is the one definition of a key's used and remaining
 * queries that every answer (headers, /usage, the key list) reports.
 */
import type { FastifyBaseLogger } from 'fastify'
import { monthlyAllowance, type QuotaConfig } from '../config.js'
import { epochMs, type Clock } from '../infra/clock.js'
import type { KeyRecord } from '../keys/keys.repository.js'
import type { Journalled, UsageAttribution } from '../usage/usage.journal.js'
import { UsageNotSettledError, type CountedEndpoint, type UsageService } from '../usage/usage.service.js'
import { monthPeriod, type MonthPeriod } from '../usage/period.js'
import { CounterUnavailableError, type QuotaCounter } from './counter.js'

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

/** How the consumes of this instance were decided since it started (plain counts, for the metrics). */
export interface QuotaStats {
  /** Counted and served. */
  readonly consumed: number
  /** Refused: the quota is used up (429). */
  readonly exhausted: number
  /** Refused: the counter backend could not answer (503). */
  readonly unavailable: number
}

/** How often to retry after initialising a lost counter (another request may race us). */
const MAX_ATTEMPTS = 3
/**
 * How long a request waits while a lost shared counter is rebuilt (every live instance must
 * flush its journal twice, about two seconds), before it gets a 503.
 */
const REBUILD_WAIT = Object.freeze({ timeoutMs: 8_000, pollMs: 100 })
/** How often unreconciled consumes are tried again while Redis is away. */
const RECONCILE_RETRY_MS = 1_000

/** Quota rules over a counter backend. */
export class QuotaService {
  // The current month, recomputed only when the clock leaves it (the hot path asks every time).
  private month: MonthPeriod | undefined

  /** Rebuilds in progress, one per key and period, shared by the requests that wait on them. */
  private readonly rebuilding = new Map<string, Promise<number>>()
  /** Consumes whose reply was lost, by operation id, until the counter says whether they counted. */
  private readonly unreconciled = new Map<string, { readonly keyId: string; readonly period: string }>()
  private reconcileTimer: NodeJS.Timeout | undefined
  private opSeq = 0
  private readonly decisions = { consumed: 0, exhausted: 0, unavailable: 0 }

  /**
   * @param options.opPrefix names this instance's consumes in the counter (so that a lost
   *   reply can be reconciled): unique per process.
   * @param options.logger told what reconciliation finds.
   */
  constructor(
    private readonly counter: QuotaCounter,
    private readonly usage: UsageService,
    private readonly quotas: QuotaConfig,
    private readonly clock: Clock,
    private readonly options: { readonly opPrefix: string; readonly logger: Pick<FastifyBaseLogger, 'info' | 'warn'> },
  ) {}

  // Its bounds in epoch ms, so that the hot path compares numbers and makes no Date.
  private monthStartMs = 0
  private monthEndMs = 0

  private periodAt(nowMs: number): MonthPeriod {
    if (this.month === undefined || nowMs < this.monthStartMs || nowMs >= this.monthEndMs) {
      this.month = monthPeriod(new Date(nowMs))
      this.monthStartMs = this.month.start.getTime()
      this.monthEndMs = this.month.end.getTime()
    }
    return this.month
  }

  /** The key's current quota, without counting anything. */
  async state(key: KeyRecord): Promise<QuotaState> {
    const now = epochMs(this.clock)
    const period = this.periodAt(now)
    const used = (await this.counter.peek(key.id, period.id)) ?? (await this.rebuild(key, period))
    return this.describe(key, period, used, now)
  }

  /**
   * The key's current quota without a promise, when the counter holds it in this process;
   * undefined when it must be asked (Redis) or rebuilt (use `state`).
   */
  stateNow(key: KeyRecord): QuotaState | undefined {
    if (this.counter.peekNow === undefined) return undefined
    const now = epochMs(this.clock)
    const period = this.periodAt(now)
    const used = this.counter.peekNow(key.id, period.id)
    return used === undefined ? undefined : this.describe(key, period, used, now)
  }

  /**
   * Whether a consume now would be answered in this process and allowed: the counter holds the
   * key's count and it is below the limit. Changes nothing and makes no object (the verse lane
   * asks on every lookup before it decides to answer).
   */
  admitsNow(key: KeyRecord): boolean {
    if (this.counter.peekNow === undefined || this.counter.consumeNow === undefined) return false
    const used = this.counter.peekNow(key.id, this.periodAt(epochMs(this.clock)).id)
    return used !== undefined && used < monthlyAllowance(this.quotas, key.tier)
  }

  /**
   * `consume` without a promise, when the counter answers in this process (the embedded
   * default) and holds the key's count: the hot path. For an allowed query, `journalled` is
   * called once it is durable (send the 200 then), or with the journal's error after the
   * unit was given back. Undefined when the caller must use `consume` (Redis, or a counter
   * to rebuild from the ledger first); then `journalled` is never called.
   */
  consumeThen(key: KeyRecord, endpoint: CountedEndpoint, style: string, journalled: Journalled): ConsumeOutcome | undefined {
    if (this.counter.consumeNow === undefined) return undefined
    const now = epochMs(this.clock)
    const period = this.periodAt(now)
    const result = this.counter.consumeNow(key.id, period.id, monthlyAllowance(this.quotas, key.tier))
    if (result.status === 'uninitialised') return undefined
    if (result.status === 'exhausted') {
      this.decisions.exhausted++
      return { allowed: false, state: this.describe(key, period, result.count, now) }
    }
    this.decisions.consumed++
    this.usage.recordThen(key.id, period.id, endpoint, style, (error) => {
      if (error === undefined) return journalled()
      // As in `decide`: not recorded means not served, and the count stays exact.
      this.counter.refund(key.id, period.id).then(
        () => journalled(error),
        () => journalled(error),
      )
    })
    return { allowed: true, state: this.describe(key, period, result.count, now) }
  }

  /**
   * Counts one query if the key has any left, and records it durably (journal) before
   * returning, so the caller can send its 200.
   * @param attribution who and what a counted MCP tool call served, journalled with the query.
   */
  async consume(key: KeyRecord, endpoint: CountedEndpoint, style: string, attribution?: UsageAttribution): Promise<ConsumeOutcome> {
    try {
      const outcome = await this.decide(key, endpoint, style, attribution)
      if (outcome.allowed) this.decisions.consumed++
      else this.decisions.exhausted++
      return outcome
    } catch (error) {
      if (error instanceof CounterUnavailableError) this.decisions.unavailable++
      throw error
    }
  }

  /** The decisions made so far. */
  stats(): QuotaStats {
    return { ...this.decisions }
  }

  private async decide(key: KeyRecord, endpoint: CountedEndpoint, style: string, attribution?: UsageAttribution): Promise<ConsumeOutcome> {
    const now = epochMs(this.clock)
    const period = this.periodAt(now)
    const limit = monthlyAllowance(this.quotas, key.tier)
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const opId = `${this.options.opPrefix}:${++this.opSeq}`
      let result
      try {
        result = await this.counter.consume(key.id, period.id, limit, opId)
      } catch (error) {
        // The reply was lost, not necessarily the consume: find out later, and refund it if it
        // counted, so that the key is never charged for this query it is not served.
        if (error instanceof CounterUnavailableError && error.outcomeUnknown) this.reconcileLater(key.id, period.id, opId)
        throw error
      }
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

  /** Stops retrying reconciliations (the process is stopping; what is left was logged). */
  close(): void {
    if (this.reconcileTimer !== undefined) clearTimeout(this.reconcileTimer)
    this.reconcileTimer = undefined
    if (this.unreconciled.size > 0)
      this.options.logger.warn(
        { consumes: this.unreconciled.size },
        'stopping with consumes not yet reconciled (their keys may be charged for queries not served)',
      )
  }

  /**
   * Rebuilds a counter that has no state, once per key and period however many requests wait.
   * A counter only this instance uses starts from the ledger plus this instance's journal; a
   * shared one (Redis) first waits until every live instance has flushed what it journalled,
   * so that the rebuilt count includes every query counted anywhere.
   */
  private rebuild(key: KeyRecord, period: MonthPeriod): Promise<number> {
    const id = `${key.id}:${period.id}`
    let running = this.rebuilding.get(id)
    if (running === undefined) {
      running = this.totalForRebuild(key, period)
        .then((total) => this.counter.initialise(key.id, period.id, total, period.end.getTime()))
        .finally(() => this.rebuilding.delete(id))
      this.rebuilding.set(id, running)
    }
    return running
  }

  private async totalForRebuild(key: KeyRecord, period: MonthPeriod): Promise<number> {
    if (!this.counter.shared) return this.usage.keyTotal(key.id, period.id)
    try {
      return await this.usage.settledTotal(key.id, period.id, REBUILD_WAIT)
    } catch (error) {
      if (error instanceof UsageNotSettledError) throw new CounterUnavailableError(`The quota counter of this key is being rebuilt: ${error.message}.`)
      throw error
    }
  }

  /** Queues a consume with an unknown outcome for reconciliation, retried until the counter answers. */
  private reconcileLater(keyId: string, period: string, opId: string): void {
    this.unreconciled.set(opId, { keyId, period })
    this.reconcileTimer ??= setTimeout(() => void this.reconcileNow(), 0).unref()
  }

  private async reconcileNow(): Promise<void> {
    for (const [opId, { keyId, period }] of [...this.unreconciled]) {
      try {
        const refunded = await this.counter.reconcile(keyId, period, opId)
        this.unreconciled.delete(opId)
        this.options.logger.info(
          { keyId, opId, refunded },
          refunded ? 'a consume whose reply was lost had counted: refunded' : 'a consume whose reply was lost had not counted',
        )
      } catch {
        // Still unavailable: the next round tries again.
      }
    }
    this.reconcileTimer = this.unreconciled.size === 0 ? undefined : setTimeout(() => void this.reconcileNow(), RECONCILE_RETRY_MS).unref()
  }

  private describe(key: KeyRecord, period: MonthPeriod, used: number, nowMs: number): QuotaState {
    const limit = monthlyAllowance(this.quotas, key.tier)
    // As period.secondsToReset, from epoch ms: whole seconds, rounded up, 0 once over.
    const resetSeconds = Math.max(0, Math.ceil((period.end.getTime() - nowMs) / 1000))
    return { limit, used, remaining: Math.max(0, limit - used), period, resetSeconds }
  }
}
