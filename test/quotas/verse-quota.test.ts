/**
 * Monthly quotas on GET /api/v1/verse/{slug}: what counts, the order of checks, 429 and the
 * rate-limit headers, exactness under concurrency, tier changes, and rebuilding a counter that
 * lost its state, on the embedded counter and (when REDIS_URL is set) on Redis.
 */
import t, { type Test } from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import { Redis } from 'ioredis'
import { forgetCounters, REDIS_URL } from '../helpers/redis.js'
import type { components } from '../../generated/api-types.js'
import type { Problem } from '../../src/errors.js'
import { generateKey } from '../../src/keys/key-format.js'
import { RedisQuotaCounter } from '../../src/quotas/redis-counter.js'
import { buildTestApp, createTestKey, TestClock, type TestApp } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

type KeyUsage = components['schemas']['KeyUsage']
type QuotaProblem = Problem & { policy: string; limit: number; reset_at: string }

const VERSE = '/api/v1/verse/john-3-16'

/** A February (28 days) after today, so that counters expire in the future on every backend. */
const NOW = new Date('2027-02-10T12:00:00Z')
const PERIOD = '2027-02'
const PERIOD_END = new Date('2027-03-01T00:00:00Z')
const SECONDS_IN_FEBRUARY = 28 * 86_400
const SECONDS_TO_RESET = (PERIOD_END.getTime() - NOW.getTime()) / 1000 // 18.5 days = 1,598,400

const LIMITS = { QUOTA_FREE: '25', QUOTA_DEVELOPER: '40', QUOTA_SCALE: '60' }

/** Asserts the five rate-limit headers exactly. */
function assertRateLimit(
  t: Test,
  res: LightMyRequestResponse,
  expected: { limit: number; remaining: number; secondsInPeriod?: number; secondsToReset?: number; end?: Date },
  label: string,
): void {
  const w = expected.secondsInPeriod ?? SECONDS_IN_FEBRUARY
  const reset = expected.secondsToReset ?? SECONDS_TO_RESET
  const end = expected.end ?? PERIOD_END
  t.equal(res.headers['ratelimit-policy'], `"monthly";q=${expected.limit};w=${w}`, `${label}: RateLimit-Policy`)
  t.equal(res.headers['ratelimit'], `"monthly";r=${expected.remaining};t=${reset}`, `${label}: RateLimit`)
  t.equal(res.headers['x-ratelimit-limit'], String(expected.limit), `${label}: X-RateLimit-Limit`)
  t.equal(res.headers['x-ratelimit-remaining'], String(expected.remaining), `${label}: X-RateLimit-Remaining`)
  t.equal(res.headers['x-ratelimit-reset'], String(end.getTime() / 1000), `${label}: X-RateLimit-Reset`)
}

function remainingOf(res: LightMyRequestResponse): number {
  return Number(res.headers['x-ratelimit-remaining'])
}

const backends: Array<{ name: string; env: Record<string, string>; skip: string | false }> = [
  { name: 'the embedded counter', env: {}, skip: false },
  {
    name: 'Redis',
    env: REDIS_URL === undefined ? {} : { REDIS_URL },
    skip: REDIS_URL === undefined ? 'Redis suites skipped: REDIS_URL is not set (e.g. REDIS_URL=redis://127.0.0.1:6379)' : false,
  },
]

for (const backend of backends) {
  t.test(`verse quotas on ${backend.name}`, { skip: backend.skip }, async (t) => {
    const clock = new TestClock(NOW)
    const env = { ...LIMITS, AUTH_JWT_SECRET: TEST_JWT_SECRET, ...backend.env }
    const testApp = await buildTestApp(t, { clock, env })
    const { app } = testApp
    const created: string[] = []
    t.teardown(() => forgetCounters(created))
    const newKey = async (options: { account?: string; allowedDomains?: string[] } = {}): Promise<{ key: string; id: string }> => {
      const k = await createTestKey(testApp, options)
      created.push(k.id)
      return k
    }
    const verse = (key: string, url = VERSE, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
      call(t, app, { url, headers: { 'x-api-key': key, ...headers } })
    // Identity tokens are checked against the app's clock, which is not today.
    const iat = Math.floor(NOW.getTime() / 1000)
    const token = (sub: string): string => signToken(sub, { iat, exp: iat + 3600 })

    t.test('headers on a 200, and style=all counts once', async (t) => {
      const { key } = await newKey()
      const first = await verse(key)
      t.equal(first.statusCode, 200)
      assertRateLimit(t, first, { limit: 25, remaining: 24 }, 'first 200')
      const all = await verse(key, `${VERSE}?style=all`)
      t.equal(all.statusCode, 200)
      assertRateLimit(t, all, { limit: 25, remaining: 23 }, 'style=all')
      const casual = await call(t, app, { url: `${VERSE}?style=casual`, headers: { authorization: `Bearer ${key}` } })
      assertRateLimit(t, casual, { limit: 25, remaining: 22 }, 'style=casual via Bearer')
    })

    t.test('only successful verse lookups count', async (t) => {
      const { key, id } = await newKey({ account: 'counting' })
      const ok = await verse(key)
      t.equal(ok.statusCode, 200)
      assertRateLimit(t, ok, { limit: 25, remaining: 24 }, 'the one counted lookup')
      const etag = String(ok.headers.etag)

      const notModified = await verse(key, VERSE, { 'if-none-match': etag })
      t.equal(notModified.statusCode, 304)
      assertRateLimit(t, notModified, { limit: 25, remaining: 24 }, '304')
      const notFound = await verse(key, '/api/v1/verse/john-3-99')
      t.equal(notFound.statusCode, 404)
      t.equal(notFound.json<Problem>().code, 'verse_not_found')
      assertRateLimit(t, notFound, { limit: 25, remaining: 24 }, '404')
      const badStyle = await verse(key, `${VERSE}?style=formal`)
      t.equal(badStyle.statusCode, 400)
      assertRateLimit(t, badStyle, { limit: 25, remaining: 24 }, '400')
      const usage = await call(t, app, { url: '/api/v1/usage', headers: { 'x-api-key': key } })
      t.equal(usage.statusCode, 200)
      t.equal(usage.json<KeyUsage>().total_queries, 1, '/usage reports one query')
      t.equal((await call(t, app, { url: '/api/v1/usage', headers: { authorization: `Bearer ${token('counting')}` } })).statusCode, 200, 'account /usage')
      t.equal((await call(t, app, { url: '/api/v1/keys', headers: { authorization: `Bearer ${token('counting')}` } })).statusCode, 200, '/keys')
      const books = await call(t, app, { url: '/api/v1/books', headers: { 'x-api-key': key } })
      t.equal(books.statusCode, 200, '/books')
      t.equal(
        (await call(t, app, { url: '/api/v1/books', headers: { 'x-api-key': key, 'if-none-match': String(books.headers.etag) } })).statusCode,
        304,
        '/books 304',
      )
      t.equal((await call(t, app, { url: '/api/v1/openapi.json', headers: { 'x-api-key': key } })).statusCode, 200, '/openapi.json')
      t.equal((await call(t, app, { url: '/api/v1/openapi.yaml', headers: { 'x-api-key': key } })).statusCode, 200, '/openapi.yaml')
      t.equal((await call(t, app, { method: 'POST', url: VERSE, headers: { 'x-api-key': key } })).statusCode, 405, '405')

      const next = await verse(key, '/api/v1/verse/genesis-1-1')
      t.equal(next.statusCode, 200)
      assertRateLimit(t, next, { limit: 25, remaining: 23 }, 'nothing in between counted')
      await testApp.services.usage.flush()
      t.equal(await testApp.services.usage.keyTotal(id, PERIOD), 2, 'the ledger holds exactly the two 200s')
    })

    t.test('a restricted key refused for its domain is not counted', async (t) => {
      const { key } = await newKey({ allowedDomains: ['example.com'] })
      for (const origin of ['https://evil.org', 'null']) {
        const refused = await verse(key, VERSE, { origin })
        t.equal(refused.statusCode, 403)
        t.equal(refused.json<Problem>().code, 'domain_not_allowed')
        t.equal(refused.headers['ratelimit'], undefined, 'a 403 describes no quota')
      }
      t.equal((await verse(key)).statusCode, 403, 'no origin at all')
      const ok = await verse(key, VERSE, { origin: 'https://example.com' })
      t.equal(ok.statusCode, 200)
      assertRateLimit(t, ok, { limit: 25, remaining: 24 }, 'the first 200')
    })

    t.test('an exhausted key: 429 with Retry-After, and the order of checks', async (t) => {
      const { key } = await newKey()
      for (let i = 1; i <= 25; i++) {
        const res = await verse(key, i % 2 === 0 ? `${VERSE}?style=all` : VERSE)
        if (res.statusCode !== 200 || remainingOf(res) !== 25 - i)
          t.fail(`request ${i}: ${res.statusCode}, remaining ${String(res.headers['x-ratelimit-remaining'])}`)
      }
      const exceeded = await verse(key)
      t.equal(exceeded.statusCode, 429)
      t.match(exceeded.headers['content-type'], /^application\/problem\+json/)
      const body = exceeded.json<QuotaProblem>()
      t.equal(body.code, 'quota_exceeded')
      t.equal(body.status, 429)
      t.equal(body.policy, 'monthly')
      t.equal(body.limit, 25)
      t.equal(body.reset_at, PERIOD_END.toISOString())
      t.equal(exceeded.headers['retry-after'], String(SECONDS_TO_RESET), 'Retry-After: seconds until March starts')
      assertRateLimit(t, exceeded, { limit: 25, remaining: 0 }, '429')

      // Order: authentication -> validation -> quota -> lookup.
      const badStyle = await verse(key, `${VERSE}?style=formal`)
      t.equal(badStyle.statusCode, 400, 'a bad style with an exhausted key is 400')
      t.equal(badStyle.json<Problem>().code, 'invalid_parameter')
      assertRateLimit(t, badStyle, { limit: 25, remaining: 0 }, '400 on an exhausted key')
      const unknown = await verse(key, '/api/v1/verse/john-3-99')
      t.equal(unknown.statusCode, 429, 'an unknown verse with an exhausted key is 429')
      t.equal(unknown.json<Problem>().code, 'quota_exceeded')
      t.equal(unknown.headers['retry-after'], String(SECONDS_TO_RESET))
      assertRateLimit(t, unknown, { limit: 25, remaining: 0 }, '429 for an unknown verse')
      const noKey = await call(t, app, { url: `${VERSE}?style=formal` })
      t.equal(noKey.statusCode, 401, 'a bad style with no key is 401')
      const badKey = await call(t, app, { url: '/api/v1/verse/john-3-99?style=formal', headers: { 'x-api-key': generateKey() } })
      t.equal(badKey.statusCode, 403, 'a bad style and verse with an unknown key is 403')
      const usage = await call(t, app, { url: '/api/v1/usage', headers: { 'x-api-key': key } })
      t.equal(usage.statusCode, 200, '/usage still answers')
      t.same(usage.json<KeyUsage>(), {
        total_queries: 25,
        limit: 25,
        tier: 'free',
        remaining: 0,
        period_start: '2027-02-01T00:00:00.000Z',
        period_end: PERIOD_END.toISOString(),
      })

      t.test('Retry-After and t follow the clock', async (t) => {
        t.teardown(() => clock.set(NOW))
        clock.set(new Date('2027-02-28T23:59:59.250Z'))
        const late = await verse(key)
        t.equal(late.statusCode, 429)
        t.equal(late.headers['retry-after'], '1', 'rounded up, never 0 while the month runs')
        assertRateLimit(t, late, { limit: 25, remaining: 0, secondsToReset: 1 }, 'last second of February')
        clock.set(new Date('2027-02-01T00:00:00Z'))
        const early = await verse(key)
        t.equal(early.headers['retry-after'], String(SECONDS_IN_FEBRUARY), 'at the start of the month: the whole month')
      })

      t.test('the next calendar month (UTC) starts afresh', async (t) => {
        t.teardown(() => clock.set(NOW))
        clock.set(new Date('2027-03-01T00:00:00Z'))
        const march = await verse(key)
        t.equal(march.statusCode, 200)
        assertRateLimit(
          t,
          march,
          { limit: 25, remaining: 24, secondsInPeriod: 31 * 86_400, secondsToReset: 31 * 86_400, end: new Date('2027-04-01T00:00:00Z') },
          'March',
        )
        clock.set(NOW)
        t.equal((await verse(key)).statusCode, 429, 'February is still used up')
      })
    })

    t.test('exact under concurrency', async (t) => {
      const fire = async (key: string, n: number): Promise<LightMyRequestResponse[]> =>
        Promise.all(Array.from({ length: n }, (_, i) => verse(key, i % 3 === 0 ? `${VERSE}?style=all` : VERSE)))
      const check = (t: Test, responses: LightMyRequestResponse[], allowed: number): void => {
        const ok = responses.filter((r) => r.statusCode === 200)
        const refused = responses.filter((r) => r.statusCode === 429)
        t.equal(ok.length, allowed, `exactly ${allowed} x 200`)
        t.equal(refused.length, responses.length - allowed, `exactly ${responses.length - allowed} x 429`)
        t.same(
          ok.map(remainingOf).sort((a, b) => a - b),
          Array.from({ length: allowed }, (_, i) => i),
          'every 200 saw a distinct remaining count',
        )
        t.ok(
          refused.every((r) => r.headers['retry-after'] === String(SECONDS_TO_RESET) && remainingOf(r) === 0),
          'every 429 has Retry-After and r=0',
        )
      }

      t.test('a cold counter: 60 concurrent requests, 25 left', async (t) => {
        const { key, id } = await newKey()
        check(t, await fire(key, 60), 25)
        await testApp.services.usage.flush()
        t.equal(await testApp.services.usage.keyTotal(id, PERIOD), 25, 'the ledger agrees')
      })

      t.test('a warm counter: 60 concurrent requests, 20 left', async (t) => {
        const { key, id } = await newKey()
        for (let i = 0; i < 5; i++) t.equal((await verse(key)).statusCode, 200)
        check(t, await fire(key, 60), 20)
        t.equal((await verse(key)).statusCode, 429, 'nothing left afterwards')
        await testApp.services.usage.flush()
        t.equal(await testApp.services.usage.keyTotal(id, PERIOD), 25, 'the ledger agrees')
      })

      t.test(
        'two instances sharing Redis: 60 concurrent requests, 25 left',
        { skip: backend.env.REDIS_URL === undefined ? 'only Redis shares a count between instances' : false },
        async (t) => {
          const second = await buildTestApp(t, { clock, env, database: testApp.database })
          const { key } = await newKey()
          const responses = await Promise.all(
            Array.from({ length: 60 }, (_, i) => call(t, i % 2 === 0 ? app : second.app, { url: VERSE, headers: { 'x-api-key': key } })),
          )
          check(t, responses, 25)
          t.equal((await call(t, second.app, { url: VERSE, headers: { 'x-api-key': key } })).statusCode, 429, 'the second instance sees the shared count')
          await second.services.usage.flush()
        },
      )
    })

    t.test('the tier sets the limit, at once', async (t) => {
      const { key, id } = await newKey()
      for (let i = 0; i < 25; i++) await verse(key)
      t.equal((await verse(key)).statusCode, 429, 'free tier used up')
      await testApp.services.keys.setTier(id, 'developer')
      const developer = await verse(key)
      t.equal(developer.statusCode, 200, 'developer tier: more queries at once')
      assertRateLimit(t, developer, { limit: 40, remaining: 14 }, 'developer')
      const usage = (await call(t, app, { url: '/api/v1/usage', headers: { 'x-api-key': key } })).json<KeyUsage>()
      t.same(
        { tier: usage.tier, limit: usage.limit, total: usage.total_queries, remaining: usage.remaining },
        { tier: 'developer', limit: 40, total: 26, remaining: 14 },
      )
      await testApp.services.keys.setTier(id, 'scale')
      assertRateLimit(t, await verse(key), { limit: 60, remaining: 33 }, 'scale')
      await testApp.services.keys.setTier(id, 'free')
      const free = await verse(key)
      t.equal(free.statusCode, 429, 'back to free: over the limit')
      assertRateLimit(t, free, { limit: 25, remaining: 0 }, 'free again')
    })

    // The embedded counter loses its state only with its process: the restart subtest below
    // rebuilds it from the ledger. Redis can lose a key while the app runs (restart, eviction).
    const lostState = backend.env.REDIS_URL === undefined ? 'the embedded counter loses its state only with its process (see the restart subtest)' : false
    t.test('a counter that lost its state is rebuilt from the ledger', { skip: lostState }, async (t) => {
      const counter = testApp.services.counter
      if (!(counter instanceof RedisQuotaCounter)) throw new Error('REDIS_URL is set but the counter is not Redis')
      const { key, id } = await newKey()
      for (let i = 0; i < 3; i++) await verse(key)
      await testApp.services.usage.flush()
      t.equal(counter.key(id, PERIOD), `plainverse:quota:${id}:${PERIOD}`, 'the Redis key')
      const redis = new Redis(REDIS_URL ?? '', { maxRetriesPerRequest: 1 })
      t.teardown(() => redis.disconnect())
      t.equal(await redis.get(counter.key(id, PERIOD)), '3', 'the counter holds 3')
      t.equal(await redis.del(counter.key(id, PERIOD)), 1, 'counter deleted (as by a Redis restart or eviction)')
      const after = await verse(key)
      t.equal(after.statusCode, 200)
      assertRateLimit(t, after, { limit: 25, remaining: 21 }, 'after rebuilding from the ledger')
      t.equal(await redis.get(counter.key(id, PERIOD)), '4', 'the counter is back')
      t.ok((await redis.pttl(counter.key(id, PERIOD))) > 0, 'and expires')

      // Counted but not yet flushed: the journal is part of the ledger total.
      await verse(key)
      await verse(key)
      await redis.del(counter.key(id, PERIOD))
      const usage = await call(t, app, { url: '/api/v1/usage', headers: { 'x-api-key': key } })
      t.equal(usage.json<KeyUsage>().total_queries, 6, '/usage rebuilds it too, journal included')
      await redis.del(counter.key(id, PERIOD))
      assertRateLimit(t, await verse(key), { limit: 25, remaining: 18 }, 'after losing unflushed counts')
    })

    t.test('a second instance (or a restart) continues the count from the ledger', async (t) => {
      const { key } = await newKey()
      for (let i = 0; i < 3; i++) await verse(key)
      await testApp.services.usage.flush()
      const second: TestApp = await buildTestApp(t, { clock, env, database: testApp.database })
      const res = await call(t, second.app, { url: VERSE, headers: { 'x-api-key': key } })
      t.equal(res.statusCode, 200)
      assertRateLimit(t, res, { limit: 25, remaining: 21 }, 'on the second instance')
      const usage = await call(t, second.app, { url: '/api/v1/usage', headers: { 'x-api-key': key } })
      t.equal(usage.json<KeyUsage>().total_queries, 4)
      await second.services.usage.flush()
    })
  })
}

t.test('a clock in an earlier month than the host clock still serves verses', async (t) => {
  // 2026-02-10 is the month the product issue uses as its example; any month before today shows it.
  const clock = new TestClock(new Date('2026-02-10T12:00:00Z'))
  const testApp = await buildTestApp(t, { clock, env: { ...LIMITS, ...(REDIS_URL === undefined ? {} : { REDIS_URL }) } })
  const { key, id } = await createTestKey(testApp)
  t.teardown(() => forgetCounters([id]))
  const res = await call(t, testApp.app, { url: VERSE, headers: { 'x-api-key': key } })
  t.equal(res.statusCode, 200, `got ${res.statusCode}: ${res.body.slice(0, 120)}`)
  t.equal(res.headers['ratelimit'], `"monthly";r=24;t=${18.5 * 86_400}`, 'headers as on a 200')
})
