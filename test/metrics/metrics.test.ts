/**
 * GET /metrics on the main port: off (404) unless METRICS_TOKEN is set, then only to that
 * Bearer token; and what it exposes after real requests: the request counter and latency
 * histogram by route pattern, the quota decisions, the counter backend, the usage journal,
 * the key cache, the database, the search index and the process metrics.
 */
import t, { type Test } from 'tap'
import type { Problem } from '../../src/errors.js'
import { generateKey } from '../../src/keys/key-format.js'
import { tokenMatches } from '../../src/metrics/metrics.token.js'
import { buildTestApp, createTestKey, TestClock, type TestApp } from '../helpers/app.js'
import { availableKinds } from '../helpers/database.js'
import { call } from '../helpers/http.js'
import { freePort } from '../helpers/postgres-instance.js'
import { parseExposition, sampleOf, type Exposition } from '../helpers/prometheus.js'
import { privateRedisUnavailable, startPrivateRedis } from '../helpers/redis-instance.js'

const TOKEN = 'metrics-test-token-0123456789'
const VERSE = '/api/v1/verse/john-3-16'
const VERSE_ROUTE = '/api/v1/verse/:slug'

/** Scrapes the app as Prometheus would (with the token), checked against the contract. */
async function scrape(t: Test, testApp: TestApp): Promise<Exposition> {
  const res = await call(t, testApp.app, { url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
  t.equal(res.statusCode, 200, 'the scrape succeeds')
  t.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8')
  const exposition = parseExposition(res.body)
  t.same(exposition.unreadable, [], 'every line is a comment or a sample')
  return exposition
}

t.test('tokenMatches compares whole tokens, whatever their lengths', async (t) => {
  t.ok(tokenMatches(TOKEN, TOKEN))
  t.notOk(tokenMatches(TOKEN.slice(0, -1), TOKEN), 'a prefix')
  t.notOk(tokenMatches(`${TOKEN}x`, TOKEN), 'a longer value')
  t.notOk(tokenMatches('', TOKEN))
})

t.test('off by default: /metrics is 404 not_found like any unknown path', async (t) => {
  const { app } = await buildTestApp(t)
  for (const method of ['GET', 'HEAD', 'POST'] as const) {
    const res = await call(t, app, { method, url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    t.equal(res.statusCode, 404, method)
    if (method !== 'HEAD') t.equal(res.json<Problem>().code, 'not_found', `${method}: not_found, not method_not_allowed`)
  }
})

t.test('METRICS_PORT alone keeps /metrics off the main port', async (t) => {
  const { app } = await buildTestApp(t, { env: { METRICS_PORT: String(await freePort()) } })
  const res = await call(t, app, { url: '/metrics' })
  t.equal(res.statusCode, 404)
  t.equal(res.json<Problem>().code, 'not_found')
})

t.test('METRICS_TOKEN: no Bearer credential 401, another one 403, the token 200', async (t) => {
  const testApp = await buildTestApp(t, { env: { METRICS_TOKEN: TOKEN } })
  const { app } = testApp
  const { key } = await createTestKey(testApp)

  const none = await call(t, app, { url: '/metrics' })
  t.equal(none.statusCode, 401)
  t.equal(none.json<Problem>().code, 'missing_credentials')
  t.equal(none.headers['www-authenticate'], 'Bearer realm="metrics"')
  const apiKey = await call(t, app, { url: '/metrics', headers: { 'x-api-key': key } })
  t.equal(apiKey.statusCode, 401, 'an API key header is no metrics token')
  const basic = await call(t, app, { url: '/metrics', headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` } })
  t.equal(basic.statusCode, 401, 'nor is another scheme')

  for (const wrong of [`${TOKEN}x`, TOKEN.slice(1), key]) {
    const res = await call(t, app, { url: '/metrics', headers: { authorization: `Bearer ${wrong}` } })
    t.equal(res.statusCode, 403)
    t.equal(res.json<Problem>().code, 'invalid_metrics_token')
    t.notMatch(res.body, TOKEN, 'the token is never echoed')
  }

  const ok = await call(t, app, { url: '/metrics', headers: { authorization: `bearer  ${TOKEN}` } })
  t.equal(ok.statusCode, 200, 'the scheme is case-insensitive')
  t.match(ok.body, /^# HELP /m)
  const head = await call(t, app, { method: 'HEAD', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
  t.equal(head.statusCode, 200)
})

t.test('after real requests every family shows what happened', async (t) => {
  const clock = new TestClock(new Date('2027-05-10T12:00:00Z'))
  const testApp = await buildTestApp(t, { clock, env: { METRICS_TOKEN: TOKEN, QUOTA_FREE: '2' } })
  const { app } = testApp
  const { key } = await createTestKey(testApp, { tier: 'free' })
  const { key: searchKey } = await createTestKey(testApp, { tier: 'scale' })

  const before = await scrape(t, testApp)
  t.equal(sampleOf(before, 'plainverse_search_index_ready'), 0, 'the index is not built before the first search (no listen in tests)')
  t.equal(sampleOf(before, 'plainverse_search_index_documents'), 0)

  const statuses: number[] = []
  for (let i = 0; i < 3; i++) statuses.push((await call(t, app, { url: VERSE, headers: { 'x-api-key': key } })).statusCode)
  t.same(statuses, [200, 200, 429], 'two counted queries, then the free quota of 2 is used up')
  const unknown = await call(t, app, { url: VERSE, headers: { 'x-api-key': generateKey() } })
  t.equal(unknown.statusCode, 403, 'a well-formed key nobody created')
  // Four segments: no route, not even the public pages' /:book/:chapter/:verse.
  t.equal((await call(t, app, { url: '/nothing/here/at/42' })).statusCode, 404)
  t.equal((await call(t, app, { url: '/api/v1/search?q=shepherd&limit=1', headers: { 'x-api-key': searchKey } })).statusCode, 200)
  clock.set(new Date('2027-05-10T12:01:30Z'))

  const m = await scrape(t, testApp)
  const requests = (status: string, route = VERSE_ROUTE): number | undefined => sampleOf(m, 'plainverse_http_requests_total', { route, method: 'GET', status })
  t.equal(requests('200'), 2, 'requests by route pattern, method and status')
  t.equal(requests('429'), 1)
  t.equal(requests('403'), 1)
  t.equal(requests('404', 'unmatched'), 1, 'a path that matches no route has one label value')
  t.equal(requests('200', '/api/v1/search'), 1)
  t.equal(requests('200', '/metrics'), 1, 'the first scrape is counted too')
  t.notOk(
    m.samples.some((s) => Object.values(s.labels).some((v) => v.includes('john-3-16') || v.includes('nothing'))),
    'no label holds a raw URL',
  )
  const latency = { route: VERSE_ROUTE, method: 'GET', status: '200' }
  t.equal(sampleOf(m, 'plainverse_http_request_duration_seconds_count', latency), 2)
  t.equal(sampleOf(m, 'plainverse_http_request_duration_seconds_bucket', { ...latency, le: '+Inf' }), 2)
  t.ok((sampleOf(m, 'plainverse_http_request_duration_seconds_sum', latency) ?? -1) > 0, 'latency is recorded')

  t.equal(sampleOf(m, 'plainverse_quota_decisions_total', { outcome: 'consumed' }), 3, 'two verses and one search')
  t.equal(sampleOf(m, 'plainverse_quota_decisions_total', { outcome: 'exhausted' }), 1)
  t.equal(sampleOf(m, 'plainverse_quota_decisions_total', { outcome: 'unavailable' }), 0)
  t.equal(sampleOf(m, 'plainverse_quota_counter_up', { backend: 'memory' }), 1)
  t.equal(sampleOf(m, 'plainverse_quota_counter_errors_total', { backend: 'memory' }), 0)

  t.equal(sampleOf(m, 'plainverse_key_cache_hits_total'), 4, 'each request with a created key was answered from memory')
  t.equal(sampleOf(m, 'plainverse_key_cache_misses_total'), 1, 'the unknown key missed')
  t.equal(sampleOf(m, 'plainverse_key_cache_keys'), 2)

  t.equal(sampleOf(m, 'plainverse_usage_journal_backlog_entries'), 3, 'the three counted queries are journalled, not yet flushed')
  t.equal(sampleOf(m, 'plainverse_usage_flush_lag_seconds'), 90, 'the last flush (at start-up) was 90 s ago by the clock')
  await testApp.services.usage.flush()
  const flushed = await scrape(t, testApp)
  t.equal(sampleOf(flushed, 'plainverse_usage_journal_backlog_entries'), 0, 'a flush empties the backlog')
  t.equal(sampleOf(flushed, 'plainverse_usage_flush_lag_seconds'), 0)

  t.equal(sampleOf(m, 'plainverse_database_info', { kind: 'pglite' }), 1)
  t.notOk(
    m.samples.some((s) => s.name.startsWith('plainverse_database_pool_')),
    'the embedded database has no pool to report',
  )
  t.equal(sampleOf(m, 'plainverse_search_index_ready'), 1)
  t.equal(sampleOf(m, 'plainverse_search_index_documents'), 31_102)

  for (const family of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
    t.ok(m.types.has(family), `process metric ${family}`)
  }
  t.equal(m.types.get('plainverse_http_requests_total'), 'counter')
  t.equal(m.types.get('plainverse_http_request_duration_seconds'), 'histogram')
  t.equal(m.types.get('plainverse_quota_decisions_total'), 'counter')
  t.equal(m.types.get('plainverse_usage_flush_lag_seconds'), 'gauge')
})

t.test('a counter backend that does not answer: 503s counted as unavailable, the backend down', async (t) => {
  const testApp = await buildTestApp(t, {
    env: { METRICS_TOKEN: TOKEN, REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    waitForCounter: false,
  })
  const { key } = await createTestKey(testApp)
  const res = await call(t, testApp.app, { url: VERSE, headers: { 'x-api-key': key } })
  t.equal(res.statusCode, 503)
  t.equal(res.json<Problem>().code, 'quota_backend_unavailable')

  const m = await scrape(t, testApp)
  t.equal(sampleOf(m, 'plainverse_quota_decisions_total', { outcome: 'unavailable' }), 1)
  t.equal(sampleOf(m, 'plainverse_quota_decisions_total', { outcome: 'consumed' }), 0)
  t.equal(sampleOf(m, 'plainverse_quota_counter_up', { backend: 'redis' }), 0)
  t.ok((sampleOf(m, 'plainverse_quota_counter_errors_total', { backend: 'redis' }) ?? 0) >= 1, 'the failed consume is a backend error')
  t.equal(sampleOf(m, 'plainverse_http_requests_total', { route: VERSE_ROUTE, method: 'GET', status: '503' }), 1)
})

t.test('a Redis backend: up while it answers, down while it is stopped, up again', { skip: privateRedisUnavailable() ?? false }, async (t) => {
  const redis = await startPrivateRedis(t)
  const testApp = await buildTestApp(t, { env: { METRICS_TOKEN: TOKEN, REDIS_URL: redis.url } })
  const { key } = await createTestKey(testApp)
  const verse = async (): Promise<number> => (await call(t, testApp.app, { url: VERSE, headers: { 'x-api-key': key } })).statusCode
  /** Waits for the client to see the change of state (never a fixed sleep). */
  const until = async (up: boolean): Promise<void> => {
    for (let i = 0; testApp.services.counter.stats().up !== up; i++) {
      if (i > 600) throw new Error(`the counter never became ${up ? 'up' : 'down'}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  t.equal(await verse(), 200)
  const up = await scrape(t, testApp)
  t.equal(sampleOf(up, 'plainverse_quota_counter_up', { backend: 'redis' }), 1)
  t.equal(sampleOf(up, 'plainverse_quota_counter_errors_total', { backend: 'redis' }), 0)

  await redis.stop()
  await until(false)
  t.equal(await verse(), 503)
  const down = await scrape(t, testApp)
  t.equal(sampleOf(down, 'plainverse_quota_counter_up', { backend: 'redis' }), 0)
  t.equal(sampleOf(down, 'plainverse_quota_decisions_total', { outcome: 'unavailable' }), 1)
  t.ok((sampleOf(down, 'plainverse_quota_counter_errors_total', { backend: 'redis' }) ?? 0) >= 1)

  await redis.start()
  await until(true)
  t.equal(await verse(), 200, 'served again once Redis is back (its lost counter rebuilt from the ledger)')
  const again = await scrape(t, testApp)
  t.equal(sampleOf(again, 'plainverse_quota_counter_up', { backend: 'redis' }), 1)
  t.equal(sampleOf(again, 'plainverse_quota_decisions_total', { outcome: 'consumed' }), 2)
})

for (const { kind, skip } of availableKinds()) {
  t.test(`${kind}: the database families`, { skip }, async (t) => {
    const testApp = await buildTestApp(t, { kind, env: { METRICS_TOKEN: TOKEN } })
    const m = await scrape(t, testApp)
    t.equal(sampleOf(m, 'plainverse_database_info', { kind }), 1)
    const pool = m.samples.filter((s) => s.name.startsWith('plainverse_database_pool_'))
    if (kind === 'pglite') {
      t.same(pool, [], 'the embedded database has no pool to report')
      return
    }
    const connections = sampleOf(m, 'plainverse_database_pool_connections') ?? -1
    const idle = sampleOf(m, 'plainverse_database_pool_idle_connections') ?? -1
    t.equal(sampleOf(m, 'plainverse_database_pool_max_connections'), 4, 'the test pool holds 4')
    t.ok(connections >= 1 && connections <= 4, `connections open: ${connections}`)
    t.ok(idle >= 0 && idle <= connections, `idle: ${idle}`)
    t.equal(sampleOf(m, 'plainverse_database_pool_waiting_queries'), 0, 'nothing waits on an idle app')
  })
}
