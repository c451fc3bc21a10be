/**
 * The building block of every counted endpoint (verse, narrative, passage, search, MCP tool
 * calls): the API key, then "charge one query or answer 429", or for answers that do not
 * count (a 404, a 304) "429 if the quota is used up, else let the answer through", and the
 * rate-limit headers on every response, written once from one quota state.
 *
 * The order of checks every counted endpoint keeps: 401 (no key), 403 (bad key or domain),
 * 400 (invalid request, by validation, before the handler), 429 (quota used up), then 404
 * or the answer. Neither a 404 nor a 304 counts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { requireApiKey, type ApiKeyAuth } from '../keys/api-key.plugin.js'
import type { KeyRecord } from '../keys/keys.repository.js'
import type { UsageAttribution } from '../usage/usage.journal.js'
import type { CountedEndpoint } from '../usage/usage.service.js'
import { rateLimitHeaders, writeRateLimitHeaders } from './quota.headers.js'
import type { ConsumeOutcome, QuotaService, QuotaState } from './quota.service.js'

type OnSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => void

/** What counted routes use; one instance per app. */
export interface Metering {
  /** onRequest: the API key (401/403); sets `request.apiKey`. */
  readonly authenticate: ApiKeyAuth['authenticate']
  /**
   * onSend: the rate-limit headers on a response that ended before the quota was looked at
   * (a 400 from validation). A callback hook, so that the common case (headers already
   * written) costs no promise.
   */
  readonly quotaHeaders: OnSend
  /**
   * `quotaHeaders` for a route that takes its validation errors itself (`attachValidation`),
   * so that its other answers run no onSend hook: writes the rate-limit headers of the key's
   * quota as it stands, for the 400 the caller then throws (nothing is counted; headers it
   * cannot have are left out, as `quotaHeaders` does). A promise only when the counter must
   * be asked.
   */
  writeQuotaState(request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined
  /** Counts one query for the request's key, or throws the 429; writes the headers. */
  charge(request: FastifyRequest, reply: FastifyReply, endpoint: CountedEndpoint, style: string): Promise<void>
  /**
   * `charge` for a route that answers from memory (the verse lookup): calls `send` once the
   * query is counted and journalled, or sends the error (429, the journal's failure) itself.
   * With the in-process counter this costs no promise: the counted responses of one turn of
   * the event loop are sent together right after their journal lines are written.
   */
  chargeThen(request: FastifyRequest, reply: FastifyReply, endpoint: CountedEndpoint, style: string, send: () => void): void
  /**
   * For an answer that does not count (404, 304): throws the 429 if the quota is used up, else
   * writes the headers. Like `charge`, a promise only when the counter must be asked.
   */
  admitUncounted(request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined
  /**
   * Counts one query without answering yet (an MCP tool call inside the SDK's handler), with
   * who and what it served; `settle` turns the outcome into the response.
   */
  consume(key: KeyRecord, endpoint: CountedEndpoint, style: string, attribution: UsageAttribution): Promise<ConsumeOutcome>
  /** Writes the headers of a counted query's outcome, or throws its 429. */
  settle(reply: FastifyReply, outcome: ConsumeOutcome): void
}

/** The 429 for an exhausted quota, with Retry-After and the violated policy. */
export function quotaExceeded(state: QuotaState): AppError {
  return new AppError(
    'quota_exceeded',
    `This key has used its ${state.limit} queries for ${state.period.id}; the quota resets at ${state.period.end.toISOString()}.`,
    {
      headers: { ...rateLimitHeaders(state), 'retry-after': String(state.resetSeconds) },
      extensions: { policy: 'monthly', limit: state.limit, reset_at: state.period.end.toISOString() },
    },
  )
}

/**
 * The metering of one app.
 * @example const metering = createMetering(registerApiKeyAuth(app, verifier), quotas)
 */
export function createMetering(auth: Pick<ApiKeyAuth, 'authenticate'>, quotas: QuotaService): Metering {
  const settle = (reply: FastifyReply, outcome: ConsumeOutcome): void => {
    if (!outcome.allowed) throw quotaExceeded(outcome.state)
    writeRateLimitHeaders(reply, outcome.state)
  }
  const writeQuotaState = (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined => {
    const key = requireApiKey(request)
    const state = quotas.stateNow(key)
    if (state !== undefined) {
      writeRateLimitHeaders(reply, state)
      return undefined
    }
    return quotas.state(key).then(
      (later) => writeRateLimitHeaders(reply, later),
      // The answer is decided already; headers it cannot have now must not replace it.
      () => undefined,
    )
  }
  return {
    authenticate: auth.authenticate,
    quotaHeaders(request, reply, payload, done) {
      // A 5xx (the counter itself unavailable, say) describes no quota.
      if (request.apiKey === undefined || reply.hasHeader('ratelimit') || reply.statusCode >= 500) return done(null, payload)
      const pending = writeQuotaState(request, reply)
      if (pending === undefined) done(null, payload)
      else void pending.then(() => done(null, payload))
    },
    writeQuotaState,
    charge(request, reply, endpoint, style) {
      return quotas.consume(requireApiKey(request), endpoint, style).then((outcome) => settle(reply, outcome))
    },
    chargeThen(request, reply, endpoint, style, send) {
      const key = requireApiKey(request)
      let outcome: ConsumeOutcome | undefined
      try {
        outcome = quotas.consumeThen(key, endpoint, style, (error) => {
          if (error === undefined) send()
          else void reply.send(error)
        })
        if (outcome !== undefined) settle(reply, outcome)
      } catch (error) {
        void reply.send(error)
        return
      }
      if (outcome === undefined) this.charge(request, reply, endpoint, style).then(send, (error: unknown) => reply.send(error))
    },
    admitUncounted(request, reply) {
      const key = requireApiKey(request)
      const admit = (state: QuotaState): void => {
        if (state.remaining === 0) throw quotaExceeded(state)
        writeRateLimitHeaders(reply, state)
      }
      const state = quotas.stateNow(key)
      if (state === undefined) return quotas.state(key).then(admit)
      admit(state)
      return undefined
    },
    consume: (key, endpoint, style, attribution) => quotas.consume(key, endpoint, style, attribution),
    settle,
  }
}
