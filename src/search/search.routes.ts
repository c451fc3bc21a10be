/** HTTP routes of search: a thin adapter over SearchService and the quota rules. */
import type { FastifyInstance } from 'fastify'
import type { operations } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { registerPreflight } from '../http/cors.js'
import type { Metering } from '../quotas/metering.js'
import type { SearchService } from './search.service.js'

type SearchQuery = operations['searchVerses']['parameters']['query']

/** What the search routes need. */
export interface SearchRouteDeps {
  readonly search: SearchService
  readonly metering: Metering
}

/**
 * Registers GET/OPTIONS /api/v1/search, and starts building the index once the server
 * listens (not before: start-up to ready must stay short) unless it was loaded from its file.
 */
export function registerSearchRoutes(app: FastifyInstance, deps: SearchRouteDeps): void {
  const { search, metering } = deps

  registerPreflight(app, routes.searchVerses, ['GET'])

  app.route<{ Querystring: SearchQuery }>({
    ...routes.searchVerses,
    onRequest: metering.authenticate,
    onSend: metering.quotaHeaders,
    async handler(request, reply) {
      const { q, style = 'faithful', book, limit = 10, cursor } = request.query
      // Validation (400) comes before the quota (429); an empty result still counts.
      const results = await search.search({
        q,
        style,
        limit,
        ...(book === undefined ? {} : { book }),
        ...(cursor === undefined ? {} : { cursor }),
      })
      await metering.charge(request, reply, 'search', style)
      return results
    },
  })

  app.addHook('onListen', (done) => {
    search.warm().catch((error: unknown) => app.log.error({ err: error }, 'building the search index failed'))
    done()
  })
}
