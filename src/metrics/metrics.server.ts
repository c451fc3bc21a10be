/**
 * The listener of METRICS_PORT: a bare node:http server that answers `GET /metrics` without a
 * token, for a scraper on a private network (it listens on METRICS_HOST, loopback by
 * default). It is not part of the API: no contract, no request metrics of its own.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Metrics } from './metrics.registry.js'
import { pathOf } from '../http/url-path.js'

/** A listening metrics server. */
export interface MetricsListener {
  /** The port bound (METRICS_PORT=0 asks the system for a free one). */
  readonly port: number
  /** Stops listening and closes idle connections. */
  close(): Promise<void>
}

/** Slow clients cannot hold the listener's sockets: whole requests within this time. */
const REQUEST_TIMEOUT_MS = 10_000

function answer(response: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(text)
}

/**
 * Starts the listener; rejects when the port cannot be bound.
 * @param onError told when rendering the metrics fails (the scraper gets a 500).
 * @example const listener = await listenMetrics(metrics, { port: 9464, host: '127.0.0.1' }, (error) => logger.error({ err: error }))
 */
export async function listenMetrics(
  metrics: Pick<Metrics, 'contentType' | 'exposition'>,
  options: { readonly port: number; readonly host: string },
  onError: (error: unknown) => void,
): Promise<MetricsListener> {
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const path = pathOf(request.url ?? '')
    if (path !== '/metrics') return answer(response, 404, 'Not found: this listener serves /metrics only.\n')
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(response, 405, 'Method not allowed.\n', { allow: 'GET, HEAD' })
    metrics.exposition().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' })
        response.end(request.method === 'HEAD' ? undefined : text)
      },
      (error: unknown) => {
        onError(error)
        answer(response, 500, 'The metrics could not be collected.\n')
      },
    )
  }
  const server = createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS }, handle)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)))
        // A scraper's keep-alive connection would otherwise hold close() open until it times out.
        server.closeIdleConnections()
      }),
  }
}
