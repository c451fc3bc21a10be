/**
 * Monthly quota counters: the interface every backend implements (in-process, Redis) and the
 * calendar-month period the quota is counted in.
 *
 * The counters are a fast, exact cache of the durable usage ledger in the database. They can
 * lose their state (process restart, Redis restart or eviction), so a missing counter is
 * reported as `uninitialised` rather than silently starting at 0: starting at 0 would hand a
 * key its whole monthly allowance again. The caller loads the ledger total, calls
 * `initialise`, then retries `consume`.
 */

/** The outcome of one `consume`. */
export type ConsumeResult =
  /** One unit was counted; `count` is the count after this consume. */
  | { readonly status: 'consumed'; readonly count: number }
  /** The count is already at (or above) the limit; nothing changed. */
  | { readonly status: 'exhausted'; readonly count: number }
  /** No counter exists yet: initialise it from the ledger, then retry. */
  | { readonly status: 'uninitialised' }

/** A per-key, per-period counter that is exact under concurrency. */
export interface QuotaCounter {
  /** Atomically adds one if the count is below `limit`. */
  consume(keyId: string, period: string, limit: number): Promise<ConsumeResult>
  /**
   * Sets the counter to `value` if it does not exist (rebuild from the ledger); returns the
   * current value. `expiresAt` is the end of the period (epoch ms). If `expiresAt` is already
   * past, nothing is stored (the period is over) and `value` is returned.
   */
  initialise(keyId: string, period: string, value: number, expiresAt: number): Promise<number>
  /** The current count, or undefined if uninitialised. */
  peek(keyId: string, period: string): Promise<number | undefined>
  /**
   * Removes one previously consumed unit (never below 0) — used when a counted request fails
   * after consuming. An uninitialised counter stays uninitialised.
   */
  refund(keyId: string, period: string): Promise<void>
  /** Resolves when the backend answers; rejects otherwise (for /readyz). */
  ping(): Promise<void>
  /** Releases the backend; later calls reject. */
  close(): Promise<void>
}

/** A calendar month in UTC, the period a monthly quota is counted in. */
export interface MonthPeriod {
  /** `YYYY-MM`, used in counter keys and the ledger. */
  readonly id: string
  /** First instant of the month (UTC). */
  readonly start: Date
  /** First instant of the next month (UTC): exclusive end, when the quota resets. */
  readonly end: Date
  /** Length of the month in seconds (28, 29, 30 or 31 days). */
  readonly secondsInPeriod: number
  /**
   * Whole seconds until the reset, rounded up so that a client told to wait that long never
   * retries while the period is still running; 0 once the period is over.
   */
  secondsToReset(now: Date): number
}

/**
 * The calendar month (UTC) that contains `now`.
 *
 * `Date.UTC` normalises month 12 to January of the next year, which covers December → January
 * and leap years without special cases.
 *
 * @param now - The instant to place; must be a valid Date.
 * @returns The month's id, bounds, length and a reset-countdown helper.
 * @throws RangeError if `now` is an invalid Date.
 */
export function monthPeriod(now: Date): MonthPeriod {
  const ms = now.getTime()
  if (!Number.isFinite(ms)) throw new RangeError('monthPeriod: invalid date')
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth()
  const start = new Date(Date.UTC(year, month, 1))
  const end = new Date(Date.UTC(year, month + 1, 1))
  const endMs = end.getTime()
  return Object.freeze({
    id: `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}`,
    start,
    end,
    secondsInPeriod: (endMs - start.getTime()) / 1000,
    secondsToReset(at: Date): number {
      return Math.max(0, Math.ceil((endMs - at.getTime()) / 1000))
    },
  })
}

/**
 * Rejects arguments that would corrupt a counter. Shared so that every backend fails the same
 * way on the same input, which the contract suite relies on.
 *
 * @throws RangeError naming the argument.
 */
export function assertCounterArgs(args: { keyId: string; period: string; limit?: number; value?: number; expiresAt?: number }): void {
  // ':' would make the Redis key `quota:<keyId>:<period>` ambiguous between keys.
  if (args.keyId.length === 0) throw new RangeError('quota counter: keyId must not be empty')
  if (args.period.length === 0 || args.period.includes(':')) throw new RangeError('quota counter: period must be non-empty and contain no ":"')
  if (args.limit !== undefined && !(Number.isSafeInteger(args.limit) && args.limit >= 0)) throw new RangeError('quota counter: limit must be a non-negative integer')
  if (args.value !== undefined && !(Number.isSafeInteger(args.value) && args.value >= 0)) throw new RangeError('quota counter: value must be a non-negative integer')
  // Redis refuses a PXAT of 0 or below; rejecting it here keeps both backends alike.
  if (args.expiresAt !== undefined && !(Number.isSafeInteger(args.expiresAt) && args.expiresAt > 0)) throw new RangeError('quota counter: expiresAt must be a positive integer epoch-ms')
}
