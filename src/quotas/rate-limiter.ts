/**
 * The per-second rate limit: a fixed one-second window per key (by tier) or per client
 * address, counted by the quota counter's backend so that every instance shares it when
 * Redis is there.
 *
 * Failure policy: while the shared backend cannot answer, each instance limits on its own
 * (an in-process window with the same limit), so a Redis outage neither blocks the routes
 * that need no quota nor lifts the limit.
 */
import { AppError } from '../errors.js'
import { CounterUnavailableError, type QuotaCounter } from './counter.js'
import { MemoryRateWindow } from './rate-window.js'

/** One request's place in its window. */
export interface RateDecision {
  readonly allowed: boolean
  /** Requests allowed per second. */
  readonly limit: number
  /** Epoch ms at which the window ends. */
  readonly resetAt: number
}

/** Counts requests per id and second against a limit. */
export class RateLimiter {
  readonly #counter: QuotaCounter
  readonly #now: () => number
  readonly #fallback = new MemoryRateWindow()
  #allowed: RateDecision | undefined

  /**
   * @param counter - Where windows are counted (Redis or in-process).
   * @param now - The clock (epoch ms).
   */
  constructor(counter: QuotaCounter, now: () => number) {
    this.#counter = counter
    this.#now = now
  }

  /**
   * Counts one request for `id` (e.g. `key:<id>`, `ip:<address>`) against `limit` requests a
   * second: synchronous in-process, a promise with Redis.
   */
  hit(id: string, limit: number): RateDecision | Promise<RateDecision> {
    const window = Math.floor(this.#now() / 1000)
    let counted: number | Promise<number>
    try {
      counted = this.#counter.hit(id, window)
    } catch (error) {
      return this.#decide(this.#local(error, id, window), limit, window)
    }
    if (typeof counted === 'number') return this.#decide(counted, limit, window)
    return counted.then(
      (count) => this.#decide(count, limit, window),
      (error: unknown) => this.#decide(this.#local(error, id, window), limit, window),
    )
  }

  /**
   * The decision for a count. Allowed decisions are the same for every request of a window
   * and limit, so the last one is handed out again rather than made anew for each request.
   */
  #decide(count: number, limit: number, window: number): RateDecision {
    const resetAt = (window + 1) * 1000
    if (count > limit) return { allowed: false, limit, resetAt }
    const last = this.#allowed
    if (last !== undefined && last.limit === limit && last.resetAt === resetAt) return last
    this.#allowed = Object.freeze({ allowed: true, limit, resetAt })
    return this.#allowed
  }

  /** The local count while the shared backend cannot answer; any other failure is a bug and is rethrown. */
  #local(error: unknown, id: string, window: number): number {
    if (!(error instanceof CounterUnavailableError)) throw error
    return this.#fallback.hit(id, window)
  }
}

/** The 429 for a request over the per-second limit, with Retry-After and the violated policy. */
export function rateLimited(decision: RateDecision, scope: 'key' | 'address', now: number): AppError {
  const seconds = Math.max(1, Math.ceil((decision.resetAt - now) / 1000))
  const who = scope === 'key' ? 'This key' : 'This client address'
  return new AppError('rate_limited', `${who} may make ${decision.limit} requests a second; wait ${seconds} s and spread requests out.`, {
    headers: {
      'retry-after': String(seconds),
      'ratelimit-policy': `"burst";q=${decision.limit};w=1`,
      ratelimit: `"burst";r=0;t=${seconds}`,
    },
    extensions: { policy: 'burst', limit: decision.limit, reset_at: new Date(decision.resetAt).toISOString() },
  })
}
