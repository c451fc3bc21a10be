/** POST/GET/DELETE /api/v1/keys: creation, listing, revocation and every error case. */
import t from 'tap'
import type { Problem } from '../../src/errors.js'
import { isWellFormedKey } from '../../src/keys/key-format.js'
import { buildTestApp } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

interface Created {
  id: string
  name: string
  key: string
  prefix: string
  tier: string
  rate_limit_monthly: number
  allowed_domains: string[]
  created_at: string
}

t.test('keys API', async (t) => {
  const testApp = await buildTestApp(t, { env: { AUTH_JWT_SECRET: TEST_JWT_SECRET, MAX_KEYS_PER_ACCOUNT: '3' } })
  const { app } = testApp
  const alice = { authorization: `Bearer ${signToken('alice')}` }
  const bob = { authorization: `Bearer ${signToken('bob')}` }
  const post = (headers: Record<string, string>, payload: unknown, contentType = 'application/json') =>
    call(t, app, {
      method: 'POST',
      url: '/api/v1/keys',
      headers: { ...headers, 'content-type': contentType },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    })

  const created = await post(alice, { name: '  My church app  ', allowed_domains: ['Example.COM', '*.example.org'] })
  t.equal(created.statusCode, 201)
  const key = created.json<Created>()
  t.ok(isWellFormedKey(key.key), 'the key has the pv_ format and a valid checksum')
  t.match(key.key, /^pv_[0-9A-Za-z]{36}$/)
  t.equal(key.prefix, key.key.slice(0, 7))
  t.equal(key.name, 'My church app', 'name is trimmed')
  t.equal(key.tier, 'free')
  t.equal(key.rate_limit_monthly, 500)
  t.same(key.allowed_domains, ['example.com', '*.example.org'], 'stored lower case')
  t.match(key.id, /^[0-9a-f-]{36}$/)

  const verse = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key.key, origin: 'https://example.com' } })
  t.equal(verse.statusCode, 200, 'the new key works')

  t.test('the key is stored only as a hash', async (t) => {
    const { sql } = await import('kysely')
    const { rows } = await sql<{ row: string }>`select row_to_json(k)::text as row from api_keys k`.execute(testApp.database.db)
    for (const row of rows) t.notMatch(row.row, key.key.slice(3), 'no column holds the secret')
  })

  t.test('listing shows usage and never the secret', async (t) => {
    const res = await call(t, app, { url: '/api/v1/keys', headers: alice })
    t.equal(res.statusCode, 200)
    t.notMatch(res.body, key.key)
    const list = res.json<{ data: Array<{ id: string; usage: { total_queries: number; remaining: number } }> }>().data
    t.equal(list.length, 1)
    t.equal(list[0]?.id, key.id)
    t.equal(list[0]?.usage.total_queries, 1)
    t.equal(list[0]?.usage.remaining, 499)
    const other = await call(t, app, { url: '/api/v1/keys', headers: bob })
    t.same(other.json<{ data: unknown[] }>().data, [], "another account sees none of alice's keys")
  })

  t.test('bad bodies are 400 and store nothing', async (t) => {
    const bodies: unknown[] = [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 42 },
      { name: null },
      { name: ['a'] },
      { name: 'ok', allowed_domains: ['not a domain'] },
      { name: 'ok', allowed_domains: ['*.com'] },
      { name: 'ok', allowed_domains: ['http://example.com'] },
      { name: 'ok', allowed_domains: 'example.com' },
      { name: 'a\u0000b' },
      { name: 'tab\tname' },
      { name: 'ok', allowed_domains: [''] },
      { name: 'ok', extra: true },
      [],
      'null',
      '"name"',
      { name: 'ok', allowed_domains: Array.from({ length: 51 }, (_, i) => `d${i}.example.com`) },
    ]
    for (const body of bodies) {
      const res = await post(alice, body)
      t.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 60))
      t.equal(res.json<Problem>().code, 'invalid_parameter')
    }
    const broken = await post(alice, '{"name": ')
    t.equal(broken.statusCode, 400, 'malformed JSON')
    const list = await call(t, app, { url: '/api/v1/keys', headers: alice })
    t.equal(list.json<{ data: unknown[] }>().data.length, 1, 'nothing was created')
  })

  t.test('a body that is not JSON is 415', async (t) => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await post(alice, 'name=x', type)
      t.equal(res.statusCode, 415, type)
      t.equal(res.json<Problem>().code, 'unsupported_media_type')
    }
    const big = await post(alice, { name: 'x'.repeat(70_000) })
    t.equal(big.statusCode, 413)
  })

  t.test('the account key limit is 409', async (t) => {
    t.equal((await post(alice, { name: 'second' })).statusCode, 201)
    t.equal((await post(alice, { name: 'third' })).statusCode, 201)
    const fourth = await post(alice, { name: 'fourth' })
    t.equal(fourth.statusCode, 409)
    t.equal(fourth.json<Problem>().code, 'key_limit_reached')
    t.equal((await post(bob, { name: 'bob 1' })).statusCode, 201, 'the limit is per account')
  })

  t.test('revocation', async (t) => {
    const unknown = await call(t, app, { method: 'DELETE', url: '/api/v1/keys/00000000-0000-4000-8000-000000000000', headers: alice })
    t.equal(unknown.statusCode, 404)
    t.equal(unknown.json<Problem>().code, 'key_not_found')
    const garbage = await call(t, app, { method: 'DELETE', url: '/api/v1/keys/not-a-uuid', headers: alice })
    t.equal(garbage.statusCode, 404)
    const foreign = await call(t, app, { method: 'DELETE', url: `/api/v1/keys/${key.id}`, headers: bob })
    t.equal(foreign.statusCode, 404, "bob cannot revoke alice's key")
    const revoked = await call(t, app, { method: 'DELETE', url: `/api/v1/keys/${key.id}`, headers: alice })
    t.equal(revoked.statusCode, 204)
    t.equal(revoked.body, '')
    const after = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key.key, origin: 'https://example.com' } })
    t.equal(after.statusCode, 403, 'stops working at once on this instance')
    t.equal(after.json<Problem>().code, 'invalid_api_key')
    const again = await call(t, app, { method: 'DELETE', url: `/api/v1/keys/${key.id}`, headers: alice })
    t.equal(again.statusCode, 404, 'revoking twice is 404')
    t.equal((await post(alice, { name: 'after revoking' })).statusCode, 201, 'a revoked key frees a slot')
  })

  t.test('tokens are required', async (t) => {
    const none = await call(t, app, { method: 'POST', url: '/api/v1/keys', headers: { 'content-type': 'application/json' }, payload: '{"name":"x"}' })
    t.equal(none.statusCode, 401)
    t.equal(none.json<Problem>().code, 'missing_credentials')
    const anon = await post({ authorization: `Bearer ${signToken('anon-user', { role: 'anon' })}` }, { name: 'x' })
    t.equal(anon.statusCode, 401, "Supabase's anon key never creates keys")
    t.equal(anon.json<Problem>().code, 'invalid_token')
    const controlSub = await post({ authorization: `Bearer ${signToken('evil\u0000sub')}` }, { name: 'x' })
    t.equal(controlSub.statusCode, 401, 'a subject with control characters names no account')
    const forged = await post({ authorization: `Bearer ${signToken('alice', {}, 'another-secret-of-at-least-32-characters')}` }, { name: 'x' })
    t.equal(forged.statusCode, 401)
    const unauthenticatedBadBody = await post({}, '{"name": ')
    t.equal(unauthenticatedBadBody.statusCode, 401, 'authentication is checked before the body')
    const apiKeyInstead = await call(t, app, { url: '/api/v1/keys', headers: { 'x-api-key': key.key } })
    t.equal(apiKeyInstead.statusCode, 401, 'an API key cannot manage keys')
  })

  t.test('every 401 names its scheme in WWW-Authenticate (RFC 9110 11.6.1, RFC 6750)', async (t) => {
    const expired = `Bearer ${signToken('alice', { exp: Math.floor(Date.now() / 1000) - 3600 })}`
    const anon = `Bearer ${signToken('anon-user', { role: 'anon' })}`
    const cases: Array<[string, { method: 'GET' | 'POST'; url: string; headers: Record<string, string> }, RegExp]> = [
      ['POST /keys without credentials', { method: 'POST', url: '/api/v1/keys', headers: {} }, /^Bearer realm="plainverse"$/],
      ['GET /keys without credentials', { method: 'GET', url: '/api/v1/keys', headers: {} }, /^Bearer realm="plainverse"$/],
      ['POST /keys with an API key', { method: 'POST', url: '/api/v1/keys', headers: { 'x-api-key': key.key } }, /^Bearer realm="plainverse"$/],
      [
        'POST /keys with an API key as Bearer',
        { method: 'POST', url: '/api/v1/keys', headers: { authorization: `Bearer ${key.key}` } },
        /error="invalid_token"/,
      ],
      ['/usage with an expired token', { method: 'GET', url: '/api/v1/usage', headers: { authorization: expired } }, /error="invalid_token"/],
      ['/usage with an anon-role token', { method: 'GET', url: '/api/v1/usage', headers: { authorization: anon } }, /error="invalid_token"/],
      ['/usage with a garbage token', { method: 'GET', url: '/api/v1/usage', headers: { authorization: 'Bearer not.a.token' } }, /error="invalid_token"/],
      ['/usage without credentials', { method: 'GET', url: '/api/v1/usage', headers: {} }, /ApiKey realm="plainverse", header="X-API-Key"/],
    ]
    for (const [label, request, challenge] of cases) {
      const res = await call(t, app, {
        ...request,
        headers: { ...request.headers, 'content-type': 'application/json' },
        payload: request.method === 'POST' ? '{"name":"x"}' : undefined,
      })
      t.equal(res.statusCode, 401, label)
      t.match(String(res.headers['www-authenticate']), challenge, `${label}: WWW-Authenticate`)
    }
  })

  t.test('one credential in both headers (as some generated clients send it) is one credential', async (t) => {
    const token = signToken('bob')
    const bobs = (await post(bob, { name: 'both headers' })).json<Created>().key
    const usage = await call(t, app, { url: '/api/v1/usage', headers: { 'x-api-key': token, authorization: `Bearer ${token}` } })
    t.equal(usage.statusCode, 200, 'an identity token in both headers is the account')
    t.ok('by_endpoint' in usage.json<Record<string, unknown>>(), "the account's usage")
    const both = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': bobs, authorization: `Bearer ${bobs}` } })
    t.equal(both.statusCode, 200, 'an API key in both headers')
    const keyUsage = await call(t, app, { url: '/api/v1/usage', headers: { 'x-api-key': bobs, authorization: `Bearer ${token}` } })
    t.equal(keyUsage.statusCode, 200, 'two different values: X-API-Key is the credential')
    t.equal(keyUsage.json<{ tier?: string }>().tier, 'free', "the key's own usage")
  })
})

t.test('without an identity provider, key management answers 503 and the rest works', async (t) => {
  const { app } = await buildTestApp(t)
  const res = await call(t, app, {
    method: 'POST',
    url: '/api/v1/keys',
    headers: { authorization: `Bearer ${signToken('alice')}`, 'content-type': 'application/json' },
    payload: '{"name":"x"}',
  })
  t.equal(res.statusCode, 503)
  t.equal(res.json<Problem>().code, 'sign_in_not_configured')
  t.match(res.json<Problem>().detail, /AUTH_JWKS_URL/)
  t.equal(res.headers['retry-after'], undefined, 'configuration, not time: no Retry-After (openapi.yaml, BackendRetryAfter)')
  const list = await call(t, app, { url: '/api/v1/keys', headers: { authorization: `Bearer ${signToken('alice')}` } })
  t.equal(list.statusCode, 503)
  t.equal(list.headers['retry-after'], undefined)
  t.equal((await call(t, app, { url: '/api/v1/books' })).statusCode, 200)
})
