/** HTTP routes of passages and reference resolution: thin adapters over PassagesService and the quota rules. */
import type { FastifyInstance } from 'fastify'
import type { operations } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { AppError } from '../errors.js'
import { registerPreflight } from '../http/cors.js'
import type { Metering } from '../quotas/metering.js'
import type { PassageSelection, PassagesService } from './passages.service.js'

type GetPassage = operations['getPassage']['parameters']
type ResolveQuery = operations['resolveReference']['parameters']['query']

/** What the passage routes need. */
export interface PassageRouteDeps {
  readonly passages: PassagesService
  readonly metering: Metering
}

/** Registers GET /api/v1/passage/{ref} and GET /api/v1/resolve. */
export function registerPassageRoutes(app: FastifyInstance, deps: PassageRouteDeps): void {
  const { passages, metering } = deps

  registerPreflight(app, routes.getPassage, ['GET'])
  registerPreflight(app, routes.resolveReference, ['GET'])

  app.route<{ Querystring: ResolveQuery }>({
    ...routes.resolveReference,
    onRequest: metering.authenticate,
    handler(request) {
      return { query: request.query.q, references: passages.resolve(request.query.q) }
    },
  })

  app.route<{ Params: GetPassage['path']; Querystring: Required<NonNullable<GetPassage['query']>> }>({
    ...routes.getPassage,
    onRequest: metering.authenticate,
    onSend: metering.quotaHeaders,
    async handler(request, reply) {
      let selection: PassageSelection
      try {
        selection = passages.select(request.params.ref)
      } catch (error) {
        // Too long is a property of the request (400, before the quota); not found is a lookup
        // (404), so an exhausted quota answers 429 first, as on every counted endpoint.
        if (error instanceof AppError && error.code === 'passage_not_found') await metering.admitUncounted(request, reply)
        throw error
      }
      const style = request.query.style
      const resource = passages.toResource(selection, style)
      await metering.charge(request, reply, 'passage', style)
      return resource
    },
  })
}
