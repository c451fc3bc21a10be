/** PATCH /api/v1/keys/{id}: rename and allowed domains, with the rules of creation, and every error case. */
import t from 'tap'
import type { components } from '../../generated/api-types.js'
import type { Problem } from '../../src/errors.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

type KeySummary = components['schemas']['KeySummary']

t.test('PATCH /api/v1/keys/{id}', async (t) => {
  const testApp = await buildTestApp(t, { env: { AUTH_JWT_SECRET: TEST_JWT_SECRET } })
  const { app } = testApp
  const alice = { authorization: `Bearer ${signToken('alice')}` }
  const bob = { authorization: `Bearer ${signToken('bob')}` }
  const key = await createTestKey(testApp, { account: 'alice', name: 'first name' })
  const patch = (headers: Record<string, string>, id: string, payload: unknown, contentType = 'application/json') =>
    call(t, app, {
      method: 'PATCH',
      url: `/api/v1/keys/${id}`,
      headers: { ...headers, 'content-type': contentType },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    })

  t.test('rename and restrict, then lift the restriction', async (t) => {
    const renamed = await patch(alice, key.id, { name: '  Church site  ' })
    t.equal(renamed.statusCode, 200)
    const body = renamed.json<KeySummary>()
    t.equal(body.name, 'Church site', 'trimmed as at creation')
    t.same(body.allowed_domains, [], 'domains unchanged when absent')
    t.equal(body.last_used_on, null, 'never used')

    const restricted = await patch(alice, key.id.toUpperCase(), { allowed_domains: ['Example.COM', '*.example.org', 'example.com'] })
    t.equal(restricted.statusCode, 200, 'the id is case-insensitive as for DELETE')
    t.same(restricted.json<KeySummary>().allowed_domains, ['example.com', '*.example.org'], 'normalised and deduplicated')
    t.equal(restricted.json<KeySummary>().name, 'Church site', 'name unchanged when absent')

    const allowed = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key.key, origin: 'https://example.com' } })
    t.equal(allowed.statusCode, 200, 'an allowed origin is served at once')
    const refused = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key.key, origin: 'https://evil.example.net' } })
    t.equal(refused.statusCode, 403)
    t.equal(refused.json<Problem>().code, 'domain_not_allowed', 'another origin is refused at once')

    const listed = await call(t, app, { url: '/api/v1/keys', headers: alice })
    const summary = listed.json<{ data: KeySummary[] }>().data[0]
    t.equal(summary?.name, 'Church site')
    t.match(summary?.last_used_on, /^\d{4}-\d{2}-\d{2}$/, 'last used today after a counted query')

    const lifted = await patch(alice, key.id, { allowed_domains: [] })
    t.same(lifted.json<KeySummary>().allowed_domains, [])
    const anyOrigin = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key.key, origin: 'https://evil.example.net' } })
    t.equal(anyOrigin.statusCode, 200, 'an empty list lifts the restriction')
  })

  t.test('hostile and bad bodies are 400 and change nothing', async (t) => {
    const bodies: unknown[] = [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'x'.repeat(1001) },
      { name: 42 },
      { name: null },
      { name: 'a\u0000b' },
      { name: 'line\nbreak' },
      { allowed_domains: ['not a domain'] },
      { allowed_domains: ['*.com'] },
      { allowed_domains: ['http://example.com'] },
      { allowed_domains: ['<script>alert(1)</script>.com'] },
      { allowed_domains: ['example.com/"><img src=x>'] },
      { allowed_domains: 'example.com' },
      { allowed_domains: Array.from({ length: 51 }, (_, i) => `d${i}.example.com`) },
      { allowed_domains: ['x'.repeat(254)] },
      { name: 'ok', tier: 'scale' },
      { name: 'ok', extra: true },
      [],
      'null',
      '{"name":',
    ]
    for (const body of bodies) {
      const res = await patch(alice, key.id, body)
      t.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 80))
      t.equal(res.json<Problem>().code, 'invalid_parameter')
    }
    const wrongType = await patch(alice, key.id, 'name=x', 'application/x-www-form-urlencoded')
    t.equal(wrongType.statusCode, 415, 'form bodies are not JSON')
    const listed = await call(t, app, { url: '/api/v1/keys', headers: alice })
    t.equal(listed.json<{ data: KeySummary[] }>().data[0]?.name, 'Church site', 'nothing changed')
  })

  t.test('names are stored as text, never markup', async (t) => {
    const hostile = '<script>alert("x")</script> & \u202e\ud83d\ude00'
    const res = await patch(alice, key.id, { name: hostile })
    t.equal(res.statusCode, 200)
    t.equal(res.json<KeySummary>().name, hostile, 'kept exactly, as JSON text')
  })

  t.test('other accounts, unknown ids, revoked keys and no token', async (t) => {
    const other = await patch(bob, key.id, { name: 'mine now' })
    t.equal(other.statusCode, 404)
    t.equal(other.json<Problem>().code, 'key_not_found', "another account's key is not found (not 403: its existence is not disclosed)")
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "'; drop table api_keys; --", 'x'.repeat(500)]) {
      const res = await patch(alice, encodeURIComponent(id), { name: 'x' })
      t.equal(res.statusCode, 404, id.slice(0, 40))
      t.equal(res.json<Problem>().code, 'key_not_found')
    }
    const anonymous = await patch({}, key.id, { name: 'x' })
    t.equal(anonymous.statusCode, 401)
    t.equal(anonymous.json<Problem>().code, 'missing_credentials')
    const badToken = await patch({ authorization: 'Bearer not.a.token' }, key.id, {})
    t.equal(badToken.statusCode, 401, 'identity is checked before the body')
    const revoked = await createTestKey(testApp, { account: 'alice', name: 'to revoke' })
    await testApp.services.keys.revoke(revoked.id, 'alice')
    const res = await patch(alice, revoked.id, { name: 'x' })
    t.equal(res.statusCode, 404, 'a revoked key cannot be changed')
    const preflight = await call(t, app, {
      method: 'OPTIONS',
      url: `/api/v1/keys/${key.id}`,
      headers: { origin: 'https://app.example.org', 'access-control-request-method': 'PATCH' },
    })
    t.match(String(preflight.headers['access-control-allow-methods']), /PATCH/, 'browsers may send PATCH')
  })

  t.test('without a configured identity provider', async (t) => {
    const bare = await buildTestApp(t)
    const res = await call(t, bare.app, {
      method: 'PATCH',
      url: `/api/v1/keys/${key.id}`,
      headers: { ...alice, 'content-type': 'application/json' },
      payload: '{"name":"x"}',
    })
    t.equal(res.statusCode, 503)
    t.equal(res.json<Problem>().code, 'sign_in_not_configured')
  })
})
