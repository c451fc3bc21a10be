/** HTTP routes of the narratives: thin adapters over NarrativesService and the quota rules. */
import type { FastifyInstance } from 'fastify'
import type { operations } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { registerPreflight } from '../http/cors.js'
import type { Metering } from '../quotas/metering.js'
import type { Gospel } from './narrative.store.js'
import type { NarrativesService } from './narratives.service.js'

type ListQuery = NonNullable<operations['listNarratives']['parameters']['query']>
type GetNarrative = operations['getNarrative']['parameters']

/** What the narrative routes need. */
export interface NarrativeRouteDeps {
  readonly narratives: NarrativesService
  readonly metering: Metering
}

/** Registers GET /api/v1/narratives and GET /api/v1/narratives/{slug}. */
export function registerNarrativeRoutes(app: FastifyInstance, deps: NarrativeRouteDeps): void {
  const { narratives, metering } = deps

  registerPreflight(app, routes.listNarratives, ['GET'])
  registerPreflight(app, routes.getNarrative, ['GET'])

  app.route<{ Querystring: ListQuery }>({
    ...routes.listNarratives,
    onRequest: metering.authenticate,
    handler(request) {
      const { gospel, q, limit, cursor } = request.query
      return narratives.list({
        ...(gospel === undefined ? {} : { gospel: gospel as Gospel }),
        ...(q === undefined ? {} : { q }),
        ...(cursor === undefined ? {} : { cursor }),
        limit: limit ?? 50,
      })
    },
  })

  app.route<{ Params: GetNarrative['path']; Querystring: Required<NonNullable<GetNarrative['query']>> }>({
    ...routes.getNarrative,
    onRequest: metering.authenticate,
    onSend: metering.quotaHeaders,
    async handler(request, reply) {
      const narrative = narratives.find(request.params.slug)
      if (narrative === undefined) {
        await metering.admitUncounted(request, reply)
        throw narratives.notFound(request.params.slug)
      }
      const resource = narratives.toResource(narrative, request.query.style)
      await metering.charge(request, reply, 'narrative', request.query.style)
      return resource
    },
  })
}
