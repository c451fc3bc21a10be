/**
 * Monthly quota counters: the interface every backend implements (in-process, Redis). The
 * calendar-month period they count in is the ledger's (usage/period.ts).
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

/**
 * The counter backend cannot answer now (Redis down, reconnecting, or not answering in
 * time). Requests that need it get a 503 with Retry-After; nothing is served uncounted.
 */
export class CounterUnavailableError extends Error {
  override readonly name = 'CounterUnavailableError'

  constructor(
    message: string,
    /**
     * True when a consume was sent and its reply never came (a timeout, a dropped
     * connection): it may have counted. The caller reconciles it (`QuotaCounter.reconcile`).
     */
    readonly outcomeUnknown = false,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** What a counter backend says about itself: plain numbers, read by the metrics at scrape time. */
export interface CounterStats {
  readonly backend: 'memory' | 'redis'
  /** Whether it can take commands now (false while Redis is down or reconnecting, and once closed). */
  readonly up: boolean
  /** Operations that failed because the backend could not answer, since the counter was made. */
  readonly errors: number
}

/** A per-key, per-period counter that is exact under concurrency. */
export interface QuotaCounter {
  /**
   * Whether several instances share the counts (Redis). A shared counter that lost its state
   * must be rebuilt from what every instance has counted, not just this one.
   */
  readonly shared: boolean
  /**
   * Atomically adds one if the count is below `limit`. `opId` names this consume, so that one
   * whose outcome is unknown can be reconciled (without one, it cannot be).
   * @throws CounterUnavailableError when the backend cannot answer now.
   */
  consume(keyId: string, period: string, limit: number, opId?: string): Promise<ConsumeResult>
  /**
   * `consume` answered at once, for a backend that holds its counts in this process; absent
   * where an answer needs a round trip (Redis). Throws what `consume` rejects with.
   */
  consumeNow?(keyId: string, period: string, limit: number): ConsumeResult
  /**
   * Undoes the consume named `opId` if it counted (one whose reply was lost); true when it had
   * counted and was refunded, false when it never counted.
   */
  reconcile(keyId: string, period: string, opId: string): Promise<boolean>
  /**
   * Sets the counter to `value` if it does not exist (rebuild from the ledger); returns the
   * current value. `expiresAt` is the end of the period (epoch ms). If `expiresAt` is already
   * past, nothing is stored (the period is over) and `value` is returned.
   */
  initialise(keyId: string, period: string, value: number, expiresAt: number): Promise<number>
  /** The current count, or undefined if uninitialised. */
  peek(keyId: string, period: string): Promise<number | undefined>
  /** `peek` answered at once, where the backend can (see `consumeNow`). */
  peekNow?(keyId: string, period: string): number | undefined
  /**
   * Removes one previously consumed unit (never below 0) — used when a counted request fails
   * after consuming. An uninitialised counter stays uninitialised.
   */
  refund(keyId: string, period: string): Promise<void>
  /**
   * Adds one hit for `id` in the one-second window `window` (the epoch second) and returns the
   * window's count, this hit included: the per-second rate limit. Synchronous in-process, a
   * promise with Redis (shared by every instance).
   * @throws CounterUnavailableError when the backend cannot answer now.
   */
  hit(id: string, window: number): number | Promise<number>
  /** Resolves when the backend answers; rejects otherwise (for /readyz). */
  ping(): Promise<void>
  /** Releases the backend; later calls reject. */
  close(): Promise<void>
  /** The backend's state and error count, without asking the backend. */
  stats(): CounterStats
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
  if (args.limit !== undefined && !(Number.isSafeInteger(args.limit) && args.limit >= 0))
    throw new RangeError('quota counter: limit must be a non-negative integer')
  if (args.value !== undefined && !(Number.isSafeInteger(args.value) && args.value >= 0))
    throw new RangeError('quota counter: value must be a non-negative integer')
  // Redis refuses a PXAT of 0 or below; rejecting it here keeps both backends alike.
  if (args.expiresAt !== undefined && !(Number.isSafeInteger(args.expiresAt) && args.expiresAt > 0))
    throw new RangeError('quota counter: expiresAt must be a positive integer epoch-ms')
}
