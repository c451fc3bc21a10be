/** The HTTP side of quotas: rate-limit headers and the 429 problem, shared by counted routes. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import type { QuotaService, QuotaState } from './quota.service.js'

/** Sets the rate-limit header fields at once. */
export function setHeaders(reply: FastifyReply, headers: Record<string, string>): void {
  reply.headers(headers)
}

/** The 429 for an exhausted quota, with Retry-After and the violated policy. */
export function quotaExceeded(quotas: QuotaService, state: QuotaState): AppError {
  return new AppError('quota_exceeded', `This key has used its ${state.limit} queries for ${state.period.id}; the quota resets at ${state.period.end.toISOString()}.`, {
    headers: { ...quotas.headers(state), 'retry-after': String(state.resetSeconds) },
    extensions: { policy: 'monthly', limit: state.limit, reset_at: state.period.end.toISOString() },
  })
}

/**
 * The onSend hook of counted routes: responses that ended before the quota was looked at
 * (e.g. a 400) still describe it. A callback hook, so that the common case (headers already
 * set) costs no promise.
 */
export function rateLimitHeadersHook(quotas: QuotaService): (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => void {
  return (request, reply, payload, done) => {
    if (request.apiKey === undefined || reply.hasHeader('ratelimit')) return done(null, payload)
    quotas.state(request.apiKey).then(
      (state) => {
        setHeaders(reply, quotas.headers(state))
        done(null, payload)
      },
      (error: Error) => done(error),
    )
  }
}
