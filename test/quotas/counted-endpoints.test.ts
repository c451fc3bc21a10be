/**
 * The contract every counted endpoint keeps, run against each of them (verse, narrative,
 * passage, search, MCP tool calls), on the embedded counter and on Redis when REDIS_URL is
 * set: 401 without a key, 403 with a bad one, 400 before 429, 429 before 404, the rate-limit
 * headers on a 404, and nothing counted for a 404 or a 304.
 */
import t, { type Test } from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import type { Problem } from '../../src/errors.js'
import { generateKey } from '../../src/keys/key-format.js'
import { buildTestApp, createTestKey, type TestApp } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { rpcHeaders, toolCall } from '../helpers/mcp.js'
import { forgetCounters, REDIS_URL } from '../helpers/redis.js'

/** How an endpoint is asked for a counted answer, an invalid request, a missing thing and a cached copy. */
interface CountedEndpointCase {
  readonly name: string
  readonly method: 'GET' | 'POST'
  readonly url: string
  /** A request that succeeds and counts one query. */
  readonly ok: Ask
  /** A request that fails validation (400). */
  readonly invalid: Ask
  /** A request for something that does not exist: 404, or for MCP a tool error in a 200. */
  readonly missing?: Ask & { readonly status: 200 | 404; readonly code?: string }
  /** Whether the ok answer carries an ETag that If-None-Match turns into an uncounted 304. */
  readonly conditional?: boolean
}

interface Ask {
  readonly url: string
  readonly body?: string
}

const mcp = (args: Record<string, unknown>, name = 'get_verse'): Ask => ({ url: '/mcp', body: toolCall(name, args) })

const CASES: readonly CountedEndpointCase[] = [
  {
    name: 'verse',
    method: 'GET',
    url: '/api/v1/verse/john-3-16',
    ok: { url: '/api/v1/verse/john-3-16' },
    invalid: { url: '/api/v1/verse/john-3-16?style=formal' },
    missing: { url: '/api/v1/verse/john-3-99', status: 404, code: 'verse_not_found' },
    conditional: true,
  },
  {
    name: 'narrative',
    method: 'GET',
    url: '/api/v1/narratives/john-jesus-feeds-five-thousand',
    ok: { url: '/api/v1/narratives/john-jesus-feeds-five-thousand' },
    invalid: { url: '/api/v1/narratives/john-jesus-feeds-five-thousand?style=formal' },
    missing: { url: '/api/v1/narratives/no-such-narrative', status: 404, code: 'narrative_not_found' },
  },
  {
    name: 'passage',
    method: 'GET',
    url: '/api/v1/passage/john-3-16-18',
    ok: { url: '/api/v1/passage/john-3-16-18' },
    invalid: { url: '/api/v1/passage/john-3-16-18?style=formal' },
    missing: { url: '/api/v1/passage/john-3-99', status: 404, code: 'passage_not_found' },
  },
  {
    name: 'search',
    method: 'GET',
    url: '/api/v1/search?q=shepherd',
    ok: { url: '/api/v1/search?q=shepherd' },
    invalid: { url: '/api/v1/search?q=shepherd&limit=0' },
  },
  {
    name: 'MCP tools/call',
    method: 'POST',
    url: '/mcp',
    ok: mcp({ reference: 'john-3-16' }),
    invalid: { url: '/mcp', body: '{"jsonrpc":"2.0","id":1,' },
    missing: { ...mcp({ reference: 'john-3-99' }), status: 200 },
  },
]

const backends = [
  { name: 'embedded counter', env: {} as Record<string, string>, skip: false as const },
  {
    name: 'Redis',
    env: REDIS_URL === undefined ? {} : ({ REDIS_URL } as Record<string, string>),
    skip: REDIS_URL === undefined ? 'Redis suites skipped: REDIS_URL is not set' : (false as const),
  },
]

/** Sends one request of a case with a credential (or none). */
function send(
  testApp: TestApp,
  endpoint: CountedEndpointCase,
  request: Ask,
  key: string | undefined,
  extra: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return call(t, testApp.app, {
    method: endpoint.method,
    url: request.url,
    headers: { ...(endpoint.method === 'POST' ? rpcHeaders() : {}), ...(key === undefined ? {} : { 'x-api-key': key }), ...extra },
    ...(request.body === undefined ? {} : { payload: request.body }),
  })
}

/** The key's used queries this month, as enforcement sees them. */
async function used(testApp: TestApp, id: string): Promise<number> {
  const key = await testApp.services.keyVerifier.verify(await keyOf(testApp, id))
  if (!key.ok) throw new Error('key not found')
  return (await testApp.services.quotas.state(key.key)).used
}

const keys = new Map<string, string>()
async function keyOf(_testApp: TestApp, id: string): Promise<string> {
  const key = keys.get(id)
  if (key === undefined) throw new Error(`unknown key ${id}`)
  return key
}

function problemCode(response: LightMyRequestResponse): string {
  return (JSON.parse(response.body) as Problem).code
}

for (const backend of backends) {
  t.test(`counted endpoints (${backend.name})`, { skip: backend.skip }, async (t) => {
    const testApp = await buildTestApp(t, { env: { QUOTA_FREE: '2', ...backend.env } })
    for (const endpoint of CASES) {
      await t.test(endpoint.name, async (t: Test) => {
        const fresh = await createTestKey(testApp, { name: `${endpoint.name} fresh` })
        const spent = await createTestKey(testApp, { name: `${endpoint.name} spent` })
        keys.set(fresh.id, fresh.key)
        keys.set(spent.id, spent.key)
        t.teardown(() => forgetCounters([fresh.id, spent.id]))

        const anonymous = await send(testApp, endpoint, endpoint.ok, undefined)
        t.equal(anonymous.statusCode, 401, 'no key: 401')
        t.equal(problemCode(anonymous), 'missing_credentials')
        t.ok(anonymous.headers['www-authenticate'], '401 names the scheme')
        const stranger = await send(testApp, endpoint, endpoint.ok, generateKey())
        t.equal(stranger.statusCode, 403, 'an unknown key: 403')
        t.equal(problemCode(stranger), 'invalid_api_key')

        // Spend the small allowance (2), checking that each success counts exactly one.
        for (const expected of [1, 2]) {
          const ok = await send(testApp, endpoint, endpoint.ok, spent.key)
          t.equal(ok.statusCode, 200, 'a success')
          t.equal(await used(testApp, spent.id), expected, 'each success counts one')
          t.equal(ok.headers['x-ratelimit-remaining'], String(2 - expected), 'and says what is left')
        }
        const invalid = await send(testApp, endpoint, endpoint.invalid, spent.key)
        t.equal(invalid.statusCode, 400, 'an invalid request on a spent key: 400 before 429')
        const over = await send(testApp, endpoint, endpoint.ok, spent.key)
        t.equal(over.statusCode, 429, 'a spent key: 429')
        t.equal(problemCode(over), 'quota_exceeded')
        t.ok(Number(over.headers['retry-after']) > 0, 'with Retry-After')

        if (endpoint.missing !== undefined) {
          const missingSpent = await send(testApp, endpoint, endpoint.missing, spent.key)
          t.equal(missingSpent.statusCode, 429, 'a missing thing on a spent key: 429 before 404')
          const missing = await send(testApp, endpoint, endpoint.missing, fresh.key)
          t.equal(missing.statusCode, endpoint.missing.status, 'a missing thing on a fresh key')
          if (endpoint.missing.code !== undefined) t.equal(problemCode(missing), endpoint.missing.code)
          else t.match(JSON.parse(missing.body), { result: { isError: true } }, 'MCP: a tool error')
          t.equal(missing.headers['x-ratelimit-remaining'], '2', 'the rate-limit headers on a not-found answer')
          t.equal(missing.headers['ratelimit'], `"monthly";r=2;t=${missing.headers['ratelimit']?.toString().split('t=')[1]}`)
          t.equal(await used(testApp, fresh.id), 0, 'a not-found answer counts nothing')
        }
        if (endpoint.conditional === true) {
          const first = await send(testApp, endpoint, endpoint.ok, fresh.key)
          t.equal(first.statusCode, 200)
          const cached = await send(testApp, endpoint, endpoint.ok, fresh.key, { 'if-none-match': String(first.headers.etag) })
          t.equal(cached.statusCode, 304, 'If-None-Match: 304')
          t.equal(cached.headers['x-ratelimit-remaining'], '1', 'headers on the 304')
          t.equal(await used(testApp, fresh.id), 1, 'a 304 counts nothing')
        }
      })
    }
  })
}
