/** HTTP routes of passages and reference resolution: thin adapters over PassagesService and the quota rules. */
import type { FastifyInstance } from 'fastify'
import type { operations } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { AppError } from '../errors.js'
import { registerPreflight } from '../http/cors.js'
import { apiKeyHook } from '../keys/api-key.auth.js'
import type { KeyVerifier } from '../keys/key-verifier.js'
import { quotaExceeded, rateLimitHeadersHook, setHeaders } from '../quotas/quota.http.js'
import type { QuotaService } from '../quotas/quota.service.js'
import type { PassageSelection, PassagesService } from './passages.service.js'

type GetPassage = operations['getPassage']['parameters']
type ResolveQuery = operations['resolveReference']['parameters']['query']

/** What the passage routes need. */
export interface PassageRouteDeps {
  readonly passages: PassagesService
  readonly keys: KeyVerifier
  readonly quotas: QuotaService
}

/** Registers GET /api/v1/passage/{ref} and GET /api/v1/resolve. */
export function registerPassageRoutes(app: FastifyInstance, deps: PassageRouteDeps): void {
  const { passages, keys, quotas } = deps

  // The free-text parser is built once the server listens, so start-up to ready does not wait.
  app.addHook('onListen', (done) => {
    passages.warm()
    done()
  })

  registerPreflight(app, routes.preflightPassage, ['GET'])
  registerPreflight(app, routes.preflightResolve, ['GET'])

  app.route<{ Querystring: ResolveQuery }>({
    ...routes.resolveReference,
    onRequest: apiKeyHook(keys),
    handler(request) {
      return { query: request.query.q, references: passages.resolve(request.query.q) }
    },
  })

  app.route<{ Params: GetPassage['path']; Querystring: Required<NonNullable<GetPassage['query']>> }>({
    ...routes.getPassage,
    onRequest: apiKeyHook(keys),
    onSend: rateLimitHeadersHook(quotas),
    async handler(request, reply) {
      const key = request.apiKey
      if (key === undefined) throw new Error('onRequest did not authenticate')
      let selection: PassageSelection
      try {
        selection = passages.select(request.params.ref)
      } catch (error) {
        // Too long is a property of the request (400, before the quota); not found is a lookup
        // (404), so an exhausted quota answers 429 first, as on the verse endpoint.
        if (error instanceof AppError && error.code === 'passage_not_found') {
          const state = await quotas.state(key)
          if (state.remaining === 0) throw quotaExceeded(quotas, state)
        }
        throw error
      }
      const style = request.query.style
      const resource = passages.toResource(selection, style)
      const outcome = await quotas.consume(key, 'passage', style)
      if (!outcome.allowed) throw quotaExceeded(quotas, outcome.state)
      setHeaders(reply, quotas.headers(outcome.state))
      return resource
    },
  })
}
