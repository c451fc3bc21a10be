/** The one hook that feeds the HTTP metrics: every response, once it has been sent. */
import type { FastifyInstance } from 'fastify'
import type { Metrics } from './metrics.registry.js'

/**
 * Adds an onResponse hook that counts the request under its route pattern. A callback hook:
 * it runs on every request and needs no promise.
 * @example installRequestMetrics(app, metrics)
 */
export function installRequestMetrics(app: FastifyInstance, metrics: Pick<Metrics, 'http'>): void {
  const { http } = metrics
  app.addHook('onResponse', (request, reply, done) => {
    http.observe(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime)
    done()
  })
}
