/**
 * The shipped client (src/client/plainverse-client.ts) against a real server: both credentials,
 * typed bodies, problems as PlainverseError with their code, and a 429 retried after Retry-After.
 */
import t from 'tap'
import { createPlainverseClient, PlainverseError, retryAfterSeconds, unwrap } from '../../src/client/plainverse-client.js'
import { removeDataDir, startServer } from '../helpers/server.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

t.test('the typed client', async (t) => {
  // One request a second per free key: the second of two quick requests is a 429 with Retry-After.
  const server = await startServer({ AUTH_JWT_SECRET: TEST_JWT_SECRET, RATE_LIMIT_FREE: '1' })
  t.teardown(async () => {
    await server.stop('SIGTERM')
    removeDataDir(server.dataDir)
  })
  const account = createPlainverseClient({ baseUrl: `${server.baseUrl}/`, identityToken: signToken('client-test') })
  const created = await unwrap(account.POST('/api/v1/keys', { body: { name: 'client test' } }))
  t.match(created.key, /^pv_/)
  const keys = await unwrap(account.GET('/api/v1/keys'))
  t.equal(keys.data.length, 1, 'the identity token lists its keys')

  const waits: number[] = []
  const client = createPlainverseClient({
    baseUrl: server.baseUrl,
    apiKey: created.key,
    sleep: async (ms) => {
      waits.push(ms)
      await new Promise((resolve) => setTimeout(resolve, ms))
    },
  })
  const verse = await unwrap(client.GET('/api/v1/verse/{slug}', { params: { path: { slug: 'jn-3-16' }, query: { style: 'all' } } }))
  t.equal(verse.slug, 'john-3-16')
  t.equal(verse.reference, 'John 3:16')

  const results = await unwrap(client.GET('/api/v1/search', { params: { query: { q: 'shepherd', limit: 3 } } }))
  t.ok(results.data.length <= 3, 'limit is a number')
  // Quick requests may meet the per-second limit (how many depends on the machine's speed): any
  // 429 met was waited out for its Retry-After (1 s) and retried, so every call above succeeded.
  t.ok(
    waits.every((ms) => ms === 1000),
    'every wait is the Retry-After of the per-second limit',
  )

  const missing = await unwrap(client.GET('/api/v1/verse/{slug}', { params: { path: { slug: 'john-3-99' } } })).catch((error: unknown) => error)
  t.ok(missing instanceof PlainverseError)
  t.equal((missing as PlainverseError).status, 404)
  t.equal((missing as PlainverseError).code, 'verse_not_found')
  t.match((missing as PlainverseError).requestId, /\S/)

  const anonymous = createPlainverseClient({ baseUrl: server.baseUrl, maxRetries: 0 })
  const refused = await unwrap(anonymous.GET('/api/v1/verse/{slug}', { params: { path: { slug: 'john-3-16' } } })).catch((error: unknown) => error)
  t.equal((refused as PlainverseError).code, 'missing_credentials')

  const usage = await unwrap(client.GET('/api/v1/usage'))
  t.ok('tier' in usage && usage.tier === 'free', "the key's usage")
})

t.test('Retry-After in seconds or as a date', async (t) => {
  t.equal(retryAfterSeconds('3'), 3)
  t.equal(retryAfterSeconds(new Date(Date.parse('2026-01-01T00:00:10Z')).toUTCString(), Date.parse('2026-01-01T00:00:00Z')), 10)
  t.equal(retryAfterSeconds(null), undefined)
  t.equal(retryAfterSeconds('soon'), undefined)
})

t.test('a 429 is retried after its Retry-After, then the answer is returned', async (t) => {
  const answers = [
    new Response('{"type":"x","title":"t","status":429,"detail":"d","code":"rate_limited","policy":"burst"}', { status: 429, headers: { 'retry-after': '2' } }),
    new Response('{"total_queries":0,"limit":500,"tier":"free","remaining":500,"period_start":"2026-11-01T00:00:00Z","period_end":"2026-12-01T00:00:00Z"}', {
      status: 200,
      headers: { 'content-type': 'application/json' },
    }),
  ]
  const sent: string[] = []
  const waits: number[] = []
  const client = createPlainverseClient({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'pv_test',
    fetch: async (input) => {
      sent.push((input as Request).headers.get('x-api-key') ?? '')
      return answers.shift() ?? new Response(null, { status: 500 })
    },
    sleep: async (ms) => {
      waits.push(ms)
    },
  })
  const usage = await unwrap(client.GET('/api/v1/usage'))
  t.equal('limit' in usage ? usage.limit : undefined, 500)
  t.same(waits, [2000], 'waited the Retry-After')
  t.same(sent, ['pv_test', 'pv_test'], 'sent twice, with the key each time')
})

t.test('a 429 whose wait is too long is reported at once', async (t) => {
  let calls = 0
  const fetch429: typeof fetch = async () => {
    calls++
    return new Response(JSON.stringify({ type: 'x', title: 'Quota exceeded', status: 429, detail: 'used up', code: 'quota_exceeded' }), {
      status: 429,
      headers: { 'content-type': 'application/problem+json', 'retry-after': '86400' },
    })
  }
  const client = createPlainverseClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'pv_x', fetch: fetch429 })
  const error = await unwrap(client.GET('/api/v1/usage')).catch((e: unknown) => e)
  t.equal((error as PlainverseError).code, 'quota_exceeded')
  t.equal(calls, 1, 'no retry for a wait of a day')
})
