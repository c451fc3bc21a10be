/** How a key's quota is written in a response: the rate-limit header fields. */
import type { QuotaState } from './quota.service.js'

/**
 * The IETF (draft-ietf-httpapi-ratelimit-headers-11) and legacy X-RateLimit-* fields of a
 * quota state.
 */
export function rateLimitHeaders(state: QuotaState): Record<string, string> {
  return {
    'ratelimit-policy': `"monthly";q=${state.limit};w=${state.period.secondsInPeriod}`,
    ratelimit: `"monthly";r=${state.remaining};t=${state.resetSeconds}`,
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(Math.floor(state.period.end.getTime() / 1000)),
  }
}
