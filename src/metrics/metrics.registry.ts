/**
 * The Prometheus metrics of one app: a registry of its own (tests build many apps in one
 * process, and the global registry would mix them), the process metrics prom-client collects,
 * the HTTP instruments the request hook feeds, and the state read from the services at
 * scrape time. Made by server.ts only when metrics are served somewhere (METRICS_TOKEN or
 * METRICS_PORT), so the default configuration records nothing.
 */
import { collectDefaultMetrics, Registry } from 'prom-client'
import { createHttpMetrics, type HttpMetrics } from './http-metrics.js'
import { registerStateMetrics, type StateSources } from './state-metrics.js'

/** One app's metrics. */
export interface Metrics {
  /** The exposition's Content-Type: `text/plain; version=0.0.4; charset=utf-8`. */
  readonly contentType: string
  /** Fed by the request hook. */
  readonly http: HttpMetrics
  /** Every family in the Prometheus text format, state read now. */
  exposition(): Promise<string>
}

/**
 * Makes the registry and every metric.
 * @example const metrics = createMetrics({ services, database, clock: systemClock }); await metrics.exposition()
 */
export function createMetrics(sources: StateSources): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const http = createHttpMetrics(registry)
  registerStateMetrics(registry, sources)
  return { contentType: registry.contentType, http, exposition: () => registry.metrics() }
}
