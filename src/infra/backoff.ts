/** Retrying start-up work while a backend it needs is not there yet. */
import { setTimeout as sleep } from 'node:timers/promises'

/** How a retried operation waits between attempts. */
export interface BackoffPolicy {
  readonly initialMs: number
  readonly maxMs: number
}

/** Start-up: a quick first retry, then at most one attempt every 10 s, for as long as it takes. */
export const STARTUP_BACKOFF: BackoffPolicy = Object.freeze({ initialMs: 250, maxMs: 10_000 })

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1): doubling from `initialMs`
 * up to `maxMs`, with "full jitter" so that instances restarted together do not retry in step.
 */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt - 1, 30))
  return Math.round(ceiling / 2 + random() * (ceiling / 2))
}

/**
 * Runs `work` until it succeeds, retrying (forever) only the errors `retryable` accepts;
 * any other error is thrown at once.
 * @param onRetry told of each failed attempt and the wait before the next.
 */
export async function retryWhile<T>(
  work: () => Promise<T>,
  retryable: (error: unknown) => boolean,
  policy: BackoffPolicy,
  onRetry: (error: unknown, attempt: number, waitMs: number) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (!retryable(error)) throw error
      const waitMs = backoffDelay(policy, attempt)
      onRetry(error, attempt, waitMs)
      await sleep(waitMs)
    }
  }
}
