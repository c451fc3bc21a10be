/** HTTP routes of the narratives: thin adapters over NarrativesService and the quota rules. */
import type { FastifyInstance } from 'fastify'
import type { operations } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { registerPreflight } from '../http/cors.js'
import { apiKeyHook } from '../keys/api-key.auth.js'
import type { KeyVerifier } from '../keys/key-verifier.js'
import { quotaExceeded, rateLimitHeadersHook, setHeaders } from '../quotas/quota.http.js'
import type { QuotaService } from '../quotas/quota.service.js'
import type { Gospel } from './narrative.store.js'
import type { NarrativesService } from './narratives.service.js'

type ListQuery = NonNullable<operations['listNarratives']['parameters']['query']>
type GetNarrative = operations['getNarrative']['parameters']

/** What the narrative routes need. */
export interface NarrativeRouteDeps {
  readonly narratives: NarrativesService
  readonly keys: KeyVerifier
  readonly quotas: QuotaService
}

/** Registers GET /api/v1/narratives and GET /api/v1/narratives/{slug}. */
export function registerNarrativeRoutes(app: FastifyInstance, deps: NarrativeRouteDeps): void {
  const { narratives, keys, quotas } = deps

  registerPreflight(app, routes.preflightNarratives, ['GET'])
  registerPreflight(app, routes.preflightNarrative, ['GET'])

  app.route<{ Querystring: ListQuery }>({
    ...routes.listNarratives,
    onRequest: apiKeyHook(keys),
    handler(request) {
      const { gospel, q, limit, cursor } = request.query
      return narratives.list({
        ...(gospel === undefined ? {} : { gospel: gospel as Gospel }),
        ...(q === undefined ? {} : { q }),
        ...(cursor === undefined ? {} : { cursor }),
        limit: Number(limit ?? '50'),
      })
    },
  })

  app.route<{ Params: GetNarrative['path']; Querystring: Required<NonNullable<GetNarrative['query']>> }>({
    ...routes.getNarrative,
    onRequest: apiKeyHook(keys),
    onSend: rateLimitHeadersHook(quotas),
    async handler(request, reply) {
      const key = request.apiKey
      if (key === undefined) throw new Error('onRequest did not authenticate')
      const narrative = narratives.find(request.params.slug)
      if (narrative === undefined) {
        // An exhausted quota answers 429 before the lookup's 404, as on the verse endpoint.
        const state = await quotas.state(key)
        if (state.remaining === 0) throw quotaExceeded(quotas, state)
        throw narratives.notFound(request.params.slug)
      }
      const resource = narratives.toResource(narrative, request.query.style)
      const outcome = await quotas.consume(key, 'narrative', request.query.style)
      if (!outcome.allowed) throw quotaExceeded(quotas, outcome.state)
      setHeaders(reply, quotas.headers(outcome.state))
      return resource
    },
  })
}
