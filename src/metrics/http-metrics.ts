/**
 * The HTTP instruments: requests and their latency by route pattern, method and status. The
 * labels are bounded whatever clients send: the route is the pattern the router matched
 * (`/api/v1/verse/:slug`, never the URL), one value stands for every path that matched none,
 * and methods outside the usual few share one value.
 */
import { Counter, Histogram, type Registry } from 'prom-client'

/** The route label of a request that matched no route (a 404 or 405 from the not-found handler). */
export const UNMATCHED_ROUTE = 'unmatched'

/** From half a millisecond (a verse served from memory) to ten seconds (a stuck backend). */
const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** What the request hook feeds. */
export interface HttpMetrics {
  /**
   * Counts one answered request.
   * @param route the matched route pattern, undefined when none matched.
   * @param elapsedMs from the request's arrival to the response's end (`reply.elapsedTime`).
   */
  observe(route: string | undefined, method: string, status: number, elapsedMs: number): void
}

/** One combination of labels: its request count and its histogram child. */
interface Series {
  readonly labels: { readonly route: string; readonly method: string; readonly status: string }
  count: number
  readonly latency: Histogram.Internal<'route' | 'method' | 'status'>
}

/**
 * Registers `plainverse_http_requests_total` and `plainverse_http_request_duration_seconds`.
 * @example createHttpMetrics(registry).observe('/api/v1/verse/:slug', 'GET', 200, 0.8)
 */
export function createHttpMetrics(registry: Registry): HttpMetrics {
  const labelNames = ['route', 'method', 'status'] as const
  // One entry per combination, made on its first request. Bounded by routes x methods x statuses.
  const series = new Map<string, Series>()
  new Counter({
    name: 'plainverse_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames,
    registers: [registry],
    // Counted in a plain number per request and handed over when scraped: a prom-client
    // counter hashes and checks its labels on every increment, even through a child.
    collect() {
      this.reset()
      for (const { labels, count } of series.values()) this.inc(labels, count)
    },
  })
  const latency = new Histogram({
    name: 'plainverse_http_request_duration_seconds',
    help: 'Time from the arrival of a request to the end of its response, by route pattern, method and status.',
    labelNames,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [registry],
  })
  return {
    observe(route, rawMethod, status, elapsedMs) {
      const method = METHODS.has(rawMethod) ? rawMethod : 'OTHER'
      const key = `${route ?? ''} ${method} ${status}`
      let entry = series.get(key)
      if (entry === undefined) {
        const labels = { route: route ?? UNMATCHED_ROUTE, method, status: String(status) }
        entry = { labels, count: 0, latency: latency.labels(labels) }
        series.set(key, entry)
      }
      entry.count++
      entry.latency.observe(elapsedMs / 1_000)
    },
  }
}
