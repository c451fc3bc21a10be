/**
 * The per-second rate limits: per key (by tier) on the routes that take an API key, per
 * client address on the others, 429 rate_limited with the same kind of headers and body as
 * the monthly quota, shared through Redis when it is there, and a local limit while Redis
 * cannot answer. The windows are the app clock's seconds, so a test clock held still keeps
 * every request of a test in one window, however slow the machine.
 */
import { randomInt } from 'node:crypto'
import t, { type Test } from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import { ConfigError, loadConfig } from '../../src/config.js'
import type { Problem } from '../../src/errors.js'
import { RateLimiter } from '../../src/quotas/rate-limiter.js'
import { createRedis, RedisQuotaCounter } from '../../src/quotas/redis-counter.js'
import { buildTestApp, createTestKey, TestClock, type TestApp } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { forgetCounters, REDIS_URL } from '../helpers/redis.js'

const BACKENDS: ReadonlyArray<{ readonly name: string; readonly env: Record<string, string> }> = [
  { name: 'embedded', env: {} },
  ...(REDIS_URL === undefined ? [] : [{ name: 'Redis', env: { REDIS_URL } }]),
]
if (REDIS_URL === undefined) t.comment('REDIS_URL is not set: the shared (Redis) rate-limit cases are skipped')

/**
 * A clock held at a random second of 2031-2034: tests (and earlier runs) sharing one Redis
 * never count in the same window.
 */
function stillClock(): TestClock {
  return new TestClock(new Date(Date.UTC(2031, 0, 1) + randomInt(100_000_000) * 1000 + 250))
}

/** Checks a 429 rate_limited answer: status, headers and problem body. */
function assertRateLimited(t: Test, response: LightMyRequestResponse, limit: number): void {
  t.equal(response.statusCode, 429)
  t.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.equal(response.headers['retry-after'], '1')
  t.equal(response.headers['ratelimit-policy'], `"burst";q=${limit};w=1`)
  t.equal(response.headers['ratelimit'], '"burst";r=0;t=1')
  const body = response.json<Problem & { policy: string; limit: number; reset_at: string }>()
  t.equal(body.code, 'rate_limited')
  t.equal(body.policy, 'burst')
  t.equal(body.limit, limit)
  t.match(body.type, /\/problems\/rate-limited$/)
}

for (const backend of BACKENDS) {
  t.test(`${backend.name}: a key gets its tier's requests per second on every route that takes a key, counted or not`, async (t) => {
    const clock = stillClock()
    const testApp = await buildTestApp(t, { clock, env: { ...backend.env, RATE_LIMIT_FREE: '3', RATE_LIMIT_DEVELOPER: '5' } })
    const free = await createTestKey(testApp, { tier: 'free' })
    const developer = await createTestKey(testApp, { tier: 'developer' })
    t.teardown(() => forgetCounters([free.id, developer.id]))
    const ask = (key: string, url: string): Promise<LightMyRequestResponse> => call(t, testApp.app, { url, headers: { 'x-api-key': key } })

    // Counted and uncounted routes share the key's window: the audit's exhausted key kept getting /resolve.
    t.equal((await ask(free.key, '/api/v1/verse/john-3-16')).statusCode, 200)
    t.equal((await ask(free.key, '/api/v1/resolve?q=John%203:16')).statusCode, 200)
    t.equal((await ask(free.key, '/api/v1/narratives')).statusCode, 200)
    const over = await ask(free.key, '/api/v1/verse/john-3-16')
    assertRateLimited(t, over, 3)
    assertRateLimited(t, await ask(free.key, '/api/v1/resolve?q=John%203:16'), 3)
    const usage = await call(t, testApp.app, { url: '/api/v1/usage', headers: { 'x-api-key': free.key } })
    t.equal(usage.json<{ total_queries: number }>().total_queries, 1, 'a limited request is not counted against the quota')

    // Another tier, another limit; another key, its own window.
    for (let i = 0; i < 5; i++) t.equal((await ask(developer.key, '/api/v1/verse/john-3-16')).statusCode, 200)
    assertRateLimited(t, await ask(developer.key, '/api/v1/verse/john-3-16'), 5)

    clock.set(new Date(clock.now().getTime() + 1000))
    t.equal((await ask(free.key, '/api/v1/verse/john-3-16')).statusCode, 200, 'the next second starts a new window')
  })

  t.test(`${backend.name}: concurrent requests of one key get exactly the limit`, async (t) => {
    const clock = stillClock()
    const testApp = await buildTestApp(t, { clock, env: { ...backend.env, RATE_LIMIT_SCALE: '7' } })
    const key = await createTestKey(testApp, { tier: 'scale' })
    t.teardown(() => forgetCounters([key.id]))
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => call(t, testApp.app, { url: '/api/v1/verse/genesis-1-1', headers: { 'x-api-key': key.key } })),
    )
    t.equal(responses.filter((r) => r.statusCode === 200).length, 7)
    t.equal(responses.filter((r) => r.statusCode === 429 && r.json<Problem>().code === 'rate_limited').length, 23)
  })

  t.test(`${backend.name}: routes without a key are limited per client address; probes and preflights never`, async (t) => {
    const clock = stillClock()
    const testApp = await buildTestApp(t, { clock, env: { ...backend.env, RATE_LIMIT_ADDRESS: '2' } })
    const from = (remoteAddress: string, url: string, method: 'GET' | 'OPTIONS' = 'GET'): Promise<LightMyRequestResponse> =>
      call(t, testApp.app, {
        method,
        url,
        remoteAddress,
        headers: method === 'OPTIONS' ? { origin: 'https://app.example.org', 'access-control-request-method': 'GET' } : {},
      })
    // Addresses from the documentation ranges, unique to this run's window anyway.
    t.equal((await from('192.0.2.10', '/llms.txt')).statusCode, 200)
    t.equal((await from('192.0.2.10', '/api/v1/books')).statusCode, 200)
    assertRateLimited(t, await from('192.0.2.10', '/robots.txt'), 2)
    t.equal((await from('192.0.2.11', '/robots.txt')).statusCode, 200, 'another address has its own window')
    for (let i = 0; i < 5; i++) {
      t.equal((await from('192.0.2.10', '/healthz')).statusCode, 200)
      t.equal((await from('192.0.2.10', '/readyz')).statusCode, 200)
      t.equal((await from('192.0.2.10', '/api/v1/verse/john-3-16', 'OPTIONS')).statusCode, 204)
    }
  })

  t.test(`${backend.name}: key routes are limited by key, not by address`, async (t) => {
    const clock = stillClock()
    const testApp = await buildTestApp(t, { clock, env: { ...backend.env, RATE_LIMIT_ADDRESS: '1', RATE_LIMIT_FREE: '4' } })
    const key = await createTestKey(testApp)
    t.teardown(() => forgetCounters([key.id]))
    for (let i = 0; i < 4; i++) {
      const response = await call(t, testApp.app, { url: '/api/v1/verse/john-3-16', remoteAddress: '198.51.100.7', headers: { 'x-api-key': key.key } })
      t.equal(response.statusCode, 200)
    }
  })
}

t.test('behind a proxy named by TRUST_PROXY, the address is the forwarded client', async (t) => {
  const clock = stillClock()
  const build = (env: Record<string, string>): Promise<TestApp> => buildTestApp(t, { clock, env: { RATE_LIMIT_ADDRESS: '1', ...env } })
  const trusting = await build({ TRUST_PROXY: '127.0.0.1' })
  const forwarded = (app: TestApp, client: string): Promise<LightMyRequestResponse> =>
    call(t, app.app, { url: '/llms.txt', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } })
  t.equal((await forwarded(trusting, '203.0.113.1')).statusCode, 200)
  t.equal((await forwarded(trusting, '203.0.113.2')).statusCode, 200, 'each forwarded client has its own window')
  t.equal((await forwarded(trusting, '203.0.113.1')).statusCode, 429)

  const untrusting = await build({})
  t.equal((await forwarded(untrusting, '203.0.113.1')).statusCode, 200)
  t.equal((await forwarded(untrusting, '203.0.113.2')).statusCode, 429, 'without TRUST_PROXY, X-Forwarded-For is ignored')
})

t.test('while Redis cannot answer, each instance limits on its own', async (t) => {
  // A port nothing listens on: the client never connects, so every hit fails as unavailable.
  const counter = new RedisQuotaCounter(createRedis('redis://127.0.0.1:1'))
  t.teardown(() => counter.close())
  const limiter = new RateLimiter(counter, () => Date.UTC(2031, 0, 1, 0, 0, 0, 500))
  const decisions = []
  for (let i = 0; i < 3; i++) decisions.push(await limiter.hit('key:offline', 2))
  t.same(
    decisions.map((d) => d.allowed),
    [true, true, false],
  )
  t.equal(decisions[0]?.resetAt, Date.UTC(2031, 0, 1, 0, 0, 1))
})

t.test('the limits are configured per tier and per address; 0 turns one off; bad values stop start-up', async (t) => {
  t.same(loadConfig({}).rateLimits, { perKey: { free: 10, developer: 100, scale: 1000 }, perAddress: 100 })
  t.same(loadConfig({ RATE_LIMIT_FREE: '0', RATE_LIMIT_ADDRESS: '7' }).rateLimits, { perKey: { free: 0, developer: 100, scale: 1000 }, perAddress: 7 })
  for (const [name, value] of [
    ['RATE_LIMIT_FREE', '-1'],
    ['RATE_LIMIT_SCALE', 'lots'],
    ['RATE_LIMIT_ADDRESS', '1.5'],
    ['TRUST_PROXY', 'proxy.internal'],
    ['TRUST_PROXY', '10.0.0.0/33'],
  ] as const) {
    t.throws(() => loadConfig({ [name]: value }), ConfigError, `${name}=${value}`)
  }
  t.equal(loadConfig({}).trustProxy, false)
  t.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true)
  t.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2)
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' }).trustProxy, ['10.0.0.0/8', '192.168.1.1'])
})

t.test('with the limit off, a key is never rate limited', async (t) => {
  const clock = stillClock()
  const testApp = await buildTestApp(t, { clock, env: { RATE_LIMIT_FREE: '0' } })
  const key = await createTestKey(testApp)
  const responses = await Promise.all(
    Array.from({ length: 20 }, () => call(t, testApp.app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key.key } })),
  )
  t.same(new Set(responses.map((r) => r.statusCode)), new Set([200]))
})
