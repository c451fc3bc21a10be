/**
 * Authentication on GET /api/v1/verse/{slug}: missing (401), malformed, unknown and revoked
 * keys (403 invalid_api_key), both ways of sending a key, domain restrictions (403
 * domain_not_allowed) and CORS.
 */
import t, { type Test } from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import type { Problem } from '../../src/errors.js'
import { generateKey } from '../../src/keys/key-format.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { signToken } from '../helpers/tokens.js'

const REDIS_URL = process.env.REDIS_URL
const redisEnv: Record<string, string> = REDIS_URL === undefined || REDIS_URL === '' ? {} : { REDIS_URL }
const VERSE = '/api/v1/verse/john-3-16'

/** Asserts a problem response with this status and code. */
function problem(t: Test, res: LightMyRequestResponse, status: number, code: Problem['code'], label: string): void {
  t.equal(res.statusCode, status, `${label}: status`)
  t.match(res.headers['content-type'], /^application\/problem\+json/, `${label}: problem+json`)
  t.equal(res.json<Problem>().code, code, `${label}: code`)
}

t.test('verse authentication', async (t) => {
  const testApp = await buildTestApp(t, { env: { QUOTA_FREE: '100000', ...redisEnv } })
  const { app } = testApp
  const { key } = await createTestKey(testApp)
  const get = (headers: Record<string, string>, url = VERSE): Promise<LightMyRequestResponse> => call(t, app, { url, headers })

  t.test('a valid key works as X-API-Key and as Authorization: Bearer', async (t) => {
    t.equal((await get({ 'x-api-key': key })).statusCode, 200, 'X-API-Key')
    t.equal((await get({ authorization: `Bearer ${key}` })).statusCode, 200, 'Bearer')
    t.equal((await get({ authorization: `bearer ${key}` })).statusCode, 200, 'the scheme is case-insensitive')
    t.equal((await get({ 'x-api-key': ` ${key} ` })).statusCode, 200, 'surrounding blanks are ignored')
  })

  t.test('no key is 401 missing_credentials with WWW-Authenticate', async (t) => {
    const cases: Array<[string, Record<string, string>]> = [
      ['no header', {}],
      ['blank X-API-Key', { 'x-api-key': '   ' }],
      ['empty Bearer', { authorization: 'Bearer ' }],
      ['Basic scheme', { authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` }],
    ]
    for (const [label, headers] of cases) {
      const res = await get(headers)
      problem(t, res, 401, 'missing_credentials', label)
      t.type(res.headers['www-authenticate'], 'string', `${label}: WWW-Authenticate`)
      t.match(String(res.headers['www-authenticate']), /Bearer/, `${label}: names the Bearer scheme`)
      t.equal(res.headers['ratelimit'], undefined, `${label}: no quota is described without a key`)
    }
  })

  t.test('malformed keys are 403 invalid_api_key, in either header', async (t) => {
    const last = key.at(-1) ?? '0'
    const badChecksum = `${key.slice(0, -1)}${last === 'a' ? 'b' : 'a'}`
    const cases: Array<[string, string]> = [
      ['wrong prefix', `sk_${key.slice(3)}`],
      ['upper-case prefix', `PV_${key.slice(3)}`],
      ['one character short', key.slice(0, -1)],
      ['one character long', `${key}a`],
      ['bad checksum (last character changed)', badChecksum],
      ['not base62', `${key.slice(0, 10)}-${key.slice(11)}`],
      ['just the prefix', 'pv_'],
      ['garbage', 'hello world'],
    ]
    for (const [label, value] of cases) {
      problem(t, await get({ 'x-api-key': value }), 403, 'invalid_api_key', `X-API-Key ${label}`)
      if (!/\s/.test(value)) problem(t, await get({ authorization: `Bearer ${value}` }), 403, 'invalid_api_key', `Bearer ${label}`)
    }
    problem(t, await get({ authorization: `Bearer ${signToken('alice')}` }), 403, 'invalid_api_key', 'an identity token is not an API key')
  })

  t.test('an unknown well-formed key is 403 invalid_api_key', async (t) => {
    const unknown = generateKey()
    problem(t, await get({ 'x-api-key': unknown }), 403, 'invalid_api_key', 'X-API-Key')
    problem(t, await get({ authorization: `Bearer ${unknown}` }), 403, 'invalid_api_key', 'Bearer (negative cache)')
    problem(t, await get({ 'x-api-key': generateKey() }), 403, 'invalid_api_key', 'another unknown key')
  })

  t.test('a revoked key is 403 invalid_api_key', async (t) => {
    const revoked = await createTestKey(testApp, { name: 'to revoke' })
    t.equal((await get({ 'x-api-key': revoked.key })).statusCode, 200, 'works before (and is now cached)')
    await testApp.services.keys.revoke(revoked.id, undefined)
    problem(t, await get({ 'x-api-key': revoked.key }), 403, 'invalid_api_key', 'X-API-Key after revocation')
    problem(t, await get({ authorization: `Bearer ${revoked.key}` }), 403, 'invalid_api_key', 'Bearer after revocation')
    t.equal((await get({ 'x-api-key': key })).statusCode, 200, 'other keys are unaffected')
  })

  t.test('authentication comes before request validation', async (t) => {
    problem(t, await get({}, `${VERSE}?style=formal`), 401, 'missing_credentials', 'bad style, no key')
    problem(t, await get({ 'x-api-key': 'pv_nope' }, `${VERSE}?style=formal`), 403, 'invalid_api_key', 'bad style, malformed key')
    problem(t, await get({ 'x-api-key': generateKey() }, '/api/v1/verse/john-99-99?style=formal'), 403, 'invalid_api_key', 'bad style and slug, unknown key')
    problem(t, await get({ 'x-api-key': key }, `${VERSE}?style=formal`), 400, 'invalid_parameter', 'bad style, good key')
  })
})

t.test('domain restrictions', async (t) => {
  const testApp = await buildTestApp(t, { env: { QUOTA_FREE: '100000', ...redisEnv } })
  const { app } = testApp
  const exact = (await createTestKey(testApp, { name: 'exact', allowedDomains: ['example.com'] })).key
  const wildcard = (await createTestKey(testApp, { name: 'wildcard', allowedDomains: ['*.example.com'] })).key
  const open = (await createTestKey(testApp, { name: 'unrestricted' })).key
  const get = (headers: Record<string, string>, url = VERSE): Promise<LightMyRequestResponse> => call(t, app, { url, headers })
  const expect = async (t: Test, key: string, headers: Record<string, string>, allowed: boolean, label: string): Promise<void> => {
    const credentials: Array<Record<string, string>> = [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }]
    for (const credential of credentials) {
      const res = await get({ ...credential, ...headers })
      const how = `${label} [${Object.keys(credential)[0] ?? ''}]`
      if (allowed) t.equal(res.statusCode, 200, how)
      else problem(t, res, 403, 'domain_not_allowed', how)
    }
  }

  t.test('example.com: exactly that host', async (t) => {
    const allowed = [
      'https://example.com',
      'http://example.com',
      'https://example.com:8443',
      'http://example.com:80',
      'HTTPS://EXAMPLE.COM',
      'https://Example.Com:3000',
    ]
    for (const origin of allowed) await expect(t, exact, { origin }, true, `Origin ${origin}`)
    const refused = [
      'https://www.example.com',
      'https://api.example.com',
      'https://example.com.evil.org',
      'https://notexample.com',
      'https://example.co',
      'https://example.org',
      'https://evil.org',
      'https://example.com@evil.org',
      'https://evil.org/example.com',
      'https://evil.org?h=example.com',
      'https://example-com.evil.org',
      'null',
      'not a url',
      'example.com',
      '//example.com',
      'https://',
      '*',
    ]
    for (const origin of refused) await expect(t, exact, { origin }, false, `Origin ${origin}`)
  })

  t.test('*.example.com: any subdomain, not the bare domain', async (t) => {
    const allowed = ['https://api.example.com', 'https://a.b.example.com', 'https://WWW.EXAMPLE.COM:3000', 'http://x-1.example.com']
    for (const origin of allowed) await expect(t, wildcard, { origin }, true, `Origin ${origin}`)
    const refused = [
      'https://example.com',
      'https://EXAMPLE.COM',
      'https://notexample.com',
      'https://evilexample.com',
      'https://example.com.evil.org',
      'https://api.example.com.evil.org',
      'https://api.example.co',
      'https://api.example.com@evil.org',
      'null',
      'garbage',
    ]
    for (const origin of refused) await expect(t, wildcard, { origin }, false, `Origin ${origin}`)
  })

  t.test('Referer is used only when there is no Origin', async (t) => {
    await expect(t, exact, { referer: 'https://example.com/bible/john?chapter=3' }, true, 'Referer on the host')
    await expect(t, exact, { referer: 'https://EXAMPLE.com:8080/' }, true, 'Referer, upper case and port')
    await expect(t, wildcard, { referer: 'https://app.example.com/page' }, true, 'Referer on a subdomain')
    await expect(t, exact, { referer: 'https://evil.org/https://example.com' }, false, 'Referer elsewhere')
    await expect(t, wildcard, { referer: 'https://example.com/' }, false, 'Referer on the bare domain for a wildcard')
    await expect(t, exact, { referer: 'garbage' }, false, 'garbage Referer')
    await expect(t, exact, { origin: 'https://evil.org', referer: 'https://example.com/' }, false, 'Origin wins over a matching Referer')
    await expect(t, exact, { origin: 'https://example.com', referer: 'https://evil.org/' }, true, 'a matching Origin with a foreign Referer')
    await expect(t, exact, { origin: 'null', referer: 'https://example.com/' }, false, 'Origin: null is an Origin, and does not match')
  })

  t.test('a restricted key with neither header is refused', async (t) => {
    await expect(t, exact, {}, false, 'no Origin, no Referer')
    await expect(t, wildcard, {}, false, 'no Origin, no Referer (wildcard)')
  })

  t.test('several patterns: any one may match', async (t) => {
    const both = (await createTestKey(testApp, { name: 'both', allowedDomains: ['example.com', '*.example.com'] })).key
    await expect(t, both, { origin: 'https://example.com' }, true, 'bare')
    await expect(t, both, { origin: 'https://www.example.com' }, true, 'subdomain')
    await expect(t, both, { origin: 'https://example.com.evil.org' }, false, 'evil suffix')
  })

  t.test('unrestricted keys ignore Origin and Referer', async (t) => {
    const variants: Array<Record<string, string>> = [
      {},
      { origin: 'https://evil.org' },
      { origin: 'null' },
      { origin: 'garbage' },
      { referer: 'https://evil.org/' },
      { origin: 'https://evil.org', referer: 'nonsense' },
    ]
    for (const headers of variants) {
      await expect(t, open, headers, true, JSON.stringify(headers))
    }
  })

  t.test('the domain check comes before request validation', async (t) => {
    problem(
      t,
      await get({ 'x-api-key': exact, origin: 'https://evil.org' }, `${VERSE}?style=formal`),
      403,
      'domain_not_allowed',
      'bad style from the wrong origin',
    )
    problem(t, await get({ 'x-api-key': exact }, '/api/v1/verse/nowhere-1-1'), 403, 'domain_not_allowed', 'unknown verse without an origin')
    problem(
      t,
      await get({ 'x-api-key': exact, origin: 'https://example.com' }, `${VERSE}?style=formal`),
      400,
      'invalid_parameter',
      'bad style from the right origin',
    )
  })
})

t.test('CORS', async (t) => {
  const testApp = await buildTestApp(t, { env: { QUOTA_FREE: '100000', ...redisEnv } })
  const { app } = testApp
  const { key } = await createTestKey(testApp)
  const listOf = (value: string | string[] | number | undefined): string[] =>
    String(value ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== '')

  t.test('the preflight needs no key', async (t) => {
    const res = await call(t, app, {
      method: 'OPTIONS',
      url: VERSE,
      headers: {
        origin: 'https://somewhere.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key, authorization, if-none-match',
      },
    })
    t.equal(res.statusCode, 204)
    t.equal(res.body, '')
    t.ok(res.headers['access-control-allow-origin'], 'Access-Control-Allow-Origin')
    const allowed = listOf(res.headers['access-control-allow-headers'])
    for (const header of ['x-api-key', 'authorization', 'if-none-match']) t.ok(allowed.includes(header), `allows ${header}`)
    t.ok(listOf(res.headers['access-control-allow-methods']).includes('get'), 'allows GET')
    const bare = await call(t, app, { method: 'OPTIONS', url: '/api/v1/verse/no-such-verse-1-1' })
    t.equal(bare.statusCode, 204, 'any slug, and no CORS request headers needed')
  })

  t.test('cross-origin responses carry Access-Control-Allow-Origin and expose the rate-limit headers', async (t) => {
    const exposedRateLimit = ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'etag']
    const origin = 'https://somewhere.example'
    const responses: Array<[string, LightMyRequestResponse]> = [
      ['200', await call(t, app, { url: VERSE, headers: { 'x-api-key': key, origin } })],
      ['200 Bearer', await call(t, app, { url: VERSE, headers: { authorization: `Bearer ${key}`, origin } })],
      ['404', await call(t, app, { url: '/api/v1/verse/john-3-99', headers: { 'x-api-key': key, origin } })],
      ['400', await call(t, app, { url: `${VERSE}?style=formal`, headers: { 'x-api-key': key, origin } })],
    ]
    for (const [label, res] of responses) {
      t.ok(res.headers['access-control-allow-origin'], `${label}: Access-Control-Allow-Origin`)
      const exposed = listOf(res.headers['access-control-expose-headers'])
      for (const header of exposedRateLimit) t.ok(exposed.includes(header), `${label}: exposes ${header}`)
      t.type(res.headers['ratelimit'], 'string', `${label}: carries RateLimit`)
    }
    const errors: Array<[string, LightMyRequestResponse]> = [
      ['401', await call(t, app, { url: VERSE, headers: { origin } })],
      ['403', await call(t, app, { url: VERSE, headers: { 'x-api-key': generateKey(), origin } })],
    ]
    for (const [label, res] of errors) {
      t.ok(res.headers['access-control-allow-origin'], `${label}: browsers can read the error`)
      t.ok(listOf(res.headers['access-control-expose-headers']).includes('www-authenticate'), `${label}: exposes WWW-Authenticate`)
    }
    const sameOrigin = await call(t, app, { url: VERSE, headers: { 'x-api-key': key } })
    t.equal(sameOrigin.headers['access-control-allow-origin'], undefined, 'a request without Origin (not a browser cross-origin call) gets no CORS headers')
  })
})
