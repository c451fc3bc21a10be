/**
 * METRICS_PORT on the real server process: a listener of its own serves /metrics without a
 * token, reporting what the main port answered, while the main port (no METRICS_TOKEN)
 * answers 404 there; the listener closes with the server on SIGTERM.
 */
import t from 'tap'
import { fetchChecked } from '../helpers/http.js'
import { parseExposition, sampleOf } from '../helpers/prometheus.js'
import { removeDataDir, seededDataDir, startServer } from '../helpers/server.js'

t.test('METRICS_PORT serves the metrics on a listener of its own, without a token', async (t) => {
  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  const server = await startServer({ DATA_DIR: dataDir, METRICS_PORT: '0' })
  t.teardown(() => server.stop('SIGKILL'))
  const ready = server.logs.find((l) => l.msg === 'ready')
  const metricsPort = ready?.metricsPort
  t.type(metricsPort, 'number', 'the ready line names the metrics port')
  t.not(metricsPort, ready?.port)
  const metricsUrl = `http://127.0.0.1:${String(metricsPort)}`

  t.equal((await fetchChecked(t, server.baseUrl, '/healthz')).status, 200)
  const mainPort = await fetchChecked(t, server.baseUrl, '/metrics')
  t.equal(mainPort.status, 404, 'without METRICS_TOKEN the main port does not serve them')
  t.equal(mainPort.json<{ code: string }>().code, 'not_found')

  // The listener's /metrics is the contract's GET /metrics (its 200 needs no token there).
  const res = await fetchChecked(t, metricsUrl, '/metrics')
  t.equal(res.status, 200)
  t.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8')
  const m = parseExposition(res.body)
  t.same(m.unreadable, [])
  t.equal(sampleOf(m, 'plainverse_http_requests_total', { route: '/healthz', method: 'GET', status: '200' }), 1, 'the main port request is counted')
  t.equal(sampleOf(m, 'plainverse_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }), 1)
  t.equal(sampleOf(m, 'plainverse_database_info', { kind: 'pglite' }), 1)
  t.equal(sampleOf(m, 'plainverse_quota_counter_up', { backend: 'memory' }), 1)
  t.ok(m.types.has('process_cpu_user_seconds_total'), 'process metrics')
  t.ok(m.types.has('plainverse_search_index_documents'))

  // Not contract responses: the listener is not the API, and answers anything but GET /metrics with a bare status.
  t.equal((await fetch(`${metricsUrl}/healthz`)).status, 404, 'the listener serves /metrics only')
  const post = await fetch(`${metricsUrl}/metrics`, { method: 'POST' })
  t.equal(post.status, 405)
  t.equal(post.headers.get('allow'), 'GET, HEAD')

  t.equal(await server.stop('SIGTERM'), 0, 'stops cleanly with the listener open')
  // No response at all: the connection is refused.
  await t.rejects(fetch(`${metricsUrl}/metrics`), 'the listener is closed')
})
