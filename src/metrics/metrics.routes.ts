/** `GET /metrics` on the main port, behind METRICS_TOKEN. */
import type { FastifyInstance } from 'fastify'
import { routes } from '../../generated/route-schemas.js'
import type { Metrics } from './metrics.registry.js'
import { requireMetricsToken } from './metrics.token.js'

/** What the route needs. */
export interface MetricsRouteDeps {
  readonly metrics: Metrics
  /** METRICS_TOKEN. */
  readonly token: string
}

/**
 * Registers `GET /metrics` (and its HEAD), answering only to the token.
 * @example registerMetricsRoutes(app, { metrics, token: config.metrics.token })
 */
export function registerMetricsRoutes(app: FastifyInstance, deps: MetricsRouteDeps): void {
  app.route({
    ...routes.getMetrics,
    onRequest: requireMetricsToken(deps.token),
    async handler(_request, reply) {
      const text = await deps.metrics.exposition()
      return reply.type(deps.metrics.contentType).header('cache-control', 'no-store').send(text)
    },
  })
}
