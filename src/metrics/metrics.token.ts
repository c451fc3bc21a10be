/**
 * The METRICS_TOKEN check of `GET /metrics` on the main port: a Bearer credential compared in
 * constant time, so that response times say nothing about how much of a guess was right.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { AppError } from '../errors.js'

/** The challenge of a 401 from /metrics. */
export const METRICS_CHALLENGE = 'Bearer realm="metrics"'

/**
 * Whether `presented` is `expected`, in time that depends on neither: both are hashed first,
 * so the comparison always runs over 32 bytes whatever their lengths.
 */
export function tokenMatches(presented: string, expected: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest()
  return timingSafeEqual(digest(presented), digest(expected))
}

/**
 * The onRequest hook that admits `Authorization: Bearer <token>` only.
 * @throws AppError missing_credentials (401, with WWW-Authenticate) without a Bearer credential, invalid_metrics_token (403) with another one.
 */
export function requireMetricsToken(token: string): (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  return (request, _reply, done) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')
    const presented = match?.[1]
    if (presented === undefined) {
      return done(
        new AppError('missing_credentials', 'The metrics need the metrics token: send Authorization: Bearer <METRICS_TOKEN>.', {
          headers: { 'www-authenticate': METRICS_CHALLENGE },
        }),
      )
    }
    if (!tokenMatches(presented, token)) return done(new AppError('invalid_metrics_token', 'The Bearer credential is not the metrics token.'))
    done()
  }
}
