/** How a key's quota is written in a response: the rate-limit header fields. */
import type { QuotaState } from './quota.service.js'

/**
 * The IETF (draft-ietf-httpapi-ratelimit-headers-11) and legacy X-RateLimit-* fields of a
 * quota state.
 */
export function rateLimitHeaders(state: QuotaState): Record<string, string> {
  const headers: Record<string, string> = {}
  writeRateLimitHeaders({ header: (name, value) => (headers[name] = value) }, state)
  return headers
}

/** Where the fields are written: a Fastify reply. */
interface HeaderSink {
  header(name: string, value: string): unknown
}

/** Where writeRateLimitHeaders lists the fields: one list for every call (one thread, no call inside another). */
const scratch: string[] = []

/**
 * Writes the quota's fields onto a reply one by one (every counted response does this).
 */
export function writeRateLimitHeaders(reply: HeaderSink, state: QuotaState): void {
  scratch.length = 0
  appendRateLimitHeaders(scratch, state)
  for (let i = 0; i < scratch.length; i += 2) reply.header(scratch[i] ?? '', scratch[i + 1] ?? '')
}

/**
 * The quota's fields appended to a flat list of names and values, as `writeHead` takes them (the
 * verse lane writes its response in one call): the one list of the fields, which the functions
 * above write in their own forms.
 */
export function appendRateLimitHeaders(list: string[], state: QuotaState): void {
  const fixed = fixedFields(state)
  const remaining = String(state.remaining)
  list.push(
    'ratelimit-policy',
    fixed.policy,
    'ratelimit',
    `"monthly";r=${remaining};t=${state.resetSeconds}`,
    'x-ratelimit-limit',
    fixed.limitText,
    'x-ratelimit-remaining',
    remaining,
    'x-ratelimit-reset',
    fixed.reset,
  )
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
