/** How a key's quota is written in a response: the rate-limit header fields. */
import type { QuotaState } from './quota.service.js'

/**
 * The IETF (draft-ietf-httpapi-ratelimit-headers-11) and legacy X-RateLimit-* fields of a
 * quota state.
 */
export function rateLimitHeaders(state: QuotaState): Record<string, string> {
  // One list of the fields: writeRateLimitHeaders's.
  const headers: Record<string, string> = {}
  writeRateLimitHeaders({ header: (name, value) => (headers[name] = value) }, state)
  return headers
}

/** Where the fields are written: a Fastify reply. */
interface HeaderSink {
  header(name: string, value: string): unknown
}

/**
 * Writes the quota's fields onto a reply one by one, with no object in between (every counted
 * response does this).
 */
export function writeRateLimitHeaders(reply: HeaderSink, state: QuotaState): void {
  const fixed = fixedFields(state)
  const remaining = String(state.remaining)
  reply.header('ratelimit-policy', fixed.policy)
  reply.header('ratelimit', `"monthly";r=${remaining};t=${state.resetSeconds}`)
  reply.header('x-ratelimit-limit', fixed.limitText)
  reply.header('x-ratelimit-remaining', remaining)
  reply.header('x-ratelimit-reset', fixed.reset)
}

/**
 * The same fields appended to a flat list of names and values, as `writeHead` takes them (the
 * verse lane writes its response in one call).
 */
export function appendRateLimitHeaders(list: string[], state: QuotaState): void {
  writeRateLimitHeaders({ header: (name, value) => list.push(name, value) }, state)
}

/** The fields that change only with the limit or the month, kept from the last call (the hot path asks every time). */
interface FixedFields {
  readonly limit: number
  readonly periodId: string
  readonly policy: string
  readonly reset: string
  readonly limitText: string
}
let last: FixedFields | undefined

function fixedFields(state: QuotaState): FixedFields {
  if (last === undefined || last.limit !== state.limit || last.periodId !== state.period.id) {
    last = {
      limit: state.limit,
      periodId: state.period.id,
      policy: `"monthly";q=${state.limit};w=${state.period.secondsInPeriod}`,
      reset: String(Math.floor(state.period.end.getTime() / 1000)),
      limitText: String(state.limit),
    }
  }
  return last
}
