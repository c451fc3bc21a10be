/**
 * Identity-provider tokens: every token here is signed (or forged) by the test itself, and the
 * JWKS documents come from local HTTP servers that count their hits, so "fetched at most once"
 * and "never fetched" are measured rather than assumed.
 */
import { createHmac, createPublicKey, generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Fastify, { type FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import type { AuthConfig } from '../../src/config.js'
import { AppError, installErrorHandling } from '../../src/errors.js'
import { registerIdentity } from '../../src/identity/identity.plugin.js'
import { IdentityVerifier, type IdentityVerifierDeps } from '../../src/identity/identity.service.js'
import { DEFAULT_FETCH_TIMEOUT_MS, DEFAULT_REFETCH_INTERVAL_MS } from '../../src/identity/jwks.js'
import { KEY_POLL_INTERVAL_MS } from '../../src/services.js'
import { buildTestApp, TestClock } from '../helpers/app.js'

const SECRET = 'test-legacy-jwt-secret-0123456789abcdefg'
const ISSUER = 'https://project.supabase.co/auth/v1'
const INTERVAL = 10_000

// ---------------------------------------------------------------- keys and tokens

interface KeyPair {
  readonly privateKey: KeyObject
  readonly publicKey: KeyObject
}

const rsaA: KeyPair = generateKeyPairSync('rsa', { modulusLength: 2048 })
const rsaB: KeyPair = generateKeyPairSync('rsa', { modulusLength: 2048 })
const ecA: KeyPair = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const attacker: KeyPair = generateKeyPairSync('rsa', { modulusLength: 2048 })

type Json = Record<string, unknown>

function jwk(pair: KeyPair, kid: string, extra: Json = {}): Json {
  return { ...pair.publicKey.export({ format: 'jwk' }), kid, use: 'sig', ...extra }
}

function part(value: Json | unknown[] | string): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')
}

/** A token with exactly this header, payload and signature segment (for forgeries). */
function raw(header: Json | unknown[] | string, payload: Json | unknown[] | string, signature = ''): string {
  return `${part(header)}.${part(payload)}.${signature}`
}

/** Signs header.payload with the algorithm the header names; the key decides what it really is. */
function signed(header: Json, payload: Json, key: KeyObject | string): string {
  const input = `${part(header)}.${part(payload)}`
  let signature: Buffer
  if (typeof key === 'string') signature = createHmac('sha256', key).update(input).digest()
  else if (key.asymmetricKeyType === 'ec') signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
  else signature = sign('sha256', Buffer.from(input), key)
  return `${input}.${signature.toString('base64url')}`
}

/** A mutable clock the verifier reads; starts at the real time. */
interface Clock {
  now: number
}

/** Claims of a normal signed-in user; `undefined` in overrides removes a claim. */
function claims(clock: Clock, overrides: Json = {}): Json {
  const seconds = Math.floor(clock.now / 1000)
  const all: Json = {
    iss: ISSUER,
    sub: 'user-1',
    aud: 'authenticated',
    email: 'ada@example.com',
    role: 'authenticated',
    iat: seconds,
    exp: seconds + 3600,
    ...overrides,
  }
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined))
}

const rs = (clock: Clock, kid = 'rsa-1', overrides: Json = {}, key: KeyObject = rsaA.privateKey): string =>
  signed({ alg: 'RS256', typ: 'JWT', kid }, claims(clock, overrides), key)
const es = (clock: Clock, kid = 'ec-1', overrides: Json = {}): string => signed({ alg: 'ES256', typ: 'JWT', kid }, claims(clock, overrides), ecA.privateKey)
const hs = (clock: Clock, overrides: Json = {}, secret = SECRET): string => signed({ alg: 'HS256', typ: 'JWT' }, claims(clock, overrides), secret)

// ---------------------------------------------------------------- servers

interface TestServer {
  readonly base: string
  /** Paths requested so far, in order. */
  readonly hits: string[]
}

async function startServer(t: Test, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(req.url ?? '')
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    // The hanging server holds its sockets open, and fetch keeps idle ones alive.
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits }
}

/** A provider serving `document.keys` at /jwks.json; change the keys to rotate. */
async function startProvider(t: Test, keys: unknown[]): Promise<TestServer & { url: string; document: { keys: unknown[] } }> {
  const document = { keys }
  const server = await startServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document))
  })
  return { ...server, url: `${server.base}/jwks.json`, document }
}

// ---------------------------------------------------------------- the app under test

interface Outcome {
  readonly status: number
  readonly code: string | undefined
  readonly detail: string
  readonly body: Json
}

interface Harness {
  readonly app: FastifyInstance
  readonly verifier: IdentityVerifier
  readonly clock: Clock
  /** GET /whoami with `Authorization: Bearer <token>`, or with this exact header. */
  whoami(token: string | undefined, authorization?: string): Promise<Outcome>
}

async function harness(t: Test, auth: Partial<AuthConfig>, deps: Partial<IdentityVerifierDeps> = {}): Promise<Harness> {
  const config: AuthConfig = {
    jwksUrl: undefined,
    jwtSecret: undefined,
    issuer: undefined,
    audience: 'authenticated',
    operatorClaim: undefined,
    operatorClaimValue: 'operator',
    ...auth,
  }
  const clock: Clock = { now: Date.now() }
  const verifier = new IdentityVerifier(config, { now: () => clock.now, fetchTimeoutMs: 1_000, refetchIntervalMs: INTERVAL, ...deps })
  const app = Fastify({ logger: false })
  installErrorHandling(app, 'http://localhost', [])
  await registerIdentity(app, verifier, config)
  app.get('/whoami', async (request) => await request.identity())
  await app.ready()
  t.teardown(() => app.close())
  return {
    app,
    verifier,
    clock,
    async whoami(token, authorization) {
      const header = authorization ?? (token === undefined ? undefined : `Bearer ${token}`)
      // Not a contract response: /whoami is this harness's own route, exposing request.identity() alone.
      const response = await app.inject({ method: 'GET', url: '/whoami', headers: header === undefined ? {} : { authorization: header } })
      const body = response.json<Json>()
      return { status: response.statusCode, code: typeof body.code === 'string' ? body.code : undefined, detail: String(body.detail ?? ''), body }
    },
  }
}

/** Asserts the identity a token yields, through HTTP and through the verifier directly. */
async function accepts(
  t: Test,
  h: Harness,
  token: string,
  expected: Json = { accountId: 'user-1', email: 'ada@example.com', operator: false },
  direct = true,
): Promise<void> {
  const outcome = await h.whoami(token)
  t.equal(outcome.status, 200, `accepted (${outcome.detail})`)
  t.same(outcome.body, expected)
  if (direct) t.same({ ...(await h.verifier.verify(token)) }, { email: undefined, ...expected }, 'verify() agrees')
}

/**
 * Asserts a token is refused with `code` and a detail matching `detail`, never echoing the
 * token; with `direct`, verify() must refuse it with the same code and words.
 */
async function rejects(t: Test, h: Harness, token: string, detail: RegExp, options: { code?: string; direct?: boolean } = {}): Promise<Outcome> {
  const code = options.code ?? 'invalid_token'
  const outcome = await h.whoami(token)
  t.equal(outcome.status, code === 'sign_in_not_configured' || code === 'identity_provider_unavailable' ? 503 : 401, `status for ${detail}`)
  t.equal(outcome.code, code)
  t.match(outcome.detail, detail)
  for (const segment of token.split('.')) {
    if (segment.length >= 8) t.notOk(outcome.detail.includes(segment), 'the detail does not echo the token')
  }
  if (options.direct ?? true) {
    const error: unknown = await h.verifier.verify(token).then(
      () => undefined,
      (e: unknown) => e,
    )
    t.ok(error instanceof AppError, 'verify() throws an AppError')
    if (error instanceof AppError) {
      t.equal(error.code, code, 'verify() agrees on the code')
      t.equal(error.detail, outcome.detail, 'verify() agrees on the detail')
    }
  }
  return outcome
}

// ---------------------------------------------------------------- tests

t.test('without AUTH_JWKS_URL or AUTH_JWT_SECRET, sign-in is not configured (503)', async (t) => {
  const h = await harness(t, {})
  t.equal(h.verifier.configured, false)
  for (const token of [undefined, hs(h.clock)]) {
    const outcome = await h.whoami(token)
    t.equal(outcome.status, 503)
    t.equal(outcome.code, 'sign_in_not_configured')
    t.match(outcome.detail, /AUTH_JWKS_URL/)
    t.match(outcome.detail, /https:\/\/<project>\.supabase\.co\/auth\/v1\/\.well-known\/jwks\.json/)
    t.match(outcome.detail, /AUTH_JWT_SECRET/)
  }
  await rejects(t, h, hs(h.clock), /not configured/, { code: 'sign_in_not_configured' })
})

t.test('no bearer token at all is missing_credentials; a broken header is invalid_token', async (t) => {
  const h = await harness(t, { jwtSecret: SECRET })
  t.equal(h.verifier.configured, true)
  for (const header of [undefined, 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer    ', 'Token abc', 'Bearerabc']) {
    const outcome = await h.whoami(undefined, header)
    t.equal(outcome.status, 401, `header ${String(header)}`)
    t.equal(outcome.code, 'missing_credentials')
    t.match(outcome.detail, /Authorization: Bearer/)
  }
  const twoWords = await h.whoami(undefined, `Bearer ${hs(h.clock)} extra`)
  t.equal(twoWords.code, 'invalid_token')
  t.match(twoWords.detail, /exactly one token/)
  // The scheme is case-insensitive (RFC 9110), and surrounding blanks do not matter.
  t.equal((await h.whoami(undefined, `bearer   ${hs(h.clock)}  `)).status, 200)
})

t.test('accepts RS256 and ES256 from the JWKS and HS256 with the secret, when both are configured', async (t) => {
  const provider = await startProvider(t, [jwk(rsaA, 'rsa-1', { alg: 'RS256' }), jwk(ecA, 'ec-1')])
  const h = await harness(t, { jwksUrl: provider.url, jwtSecret: SECRET, issuer: ISSUER })
  await accepts(t, h, rs(h.clock))
  await accepts(t, h, es(h.clock))
  await accepts(t, h, hs(h.clock))
  t.equal(provider.hits.length, 1, 'the key set was fetched once and cached')
  // role absent (a plain OIDC provider) is fine; so is a token without an email.
  await accepts(t, h, rs(h.clock, 'rsa-1', { role: undefined }))
  await accepts(t, h, hs(h.clock, { email: undefined, sub: 'user-2' }), { accountId: 'user-2', operator: false })
  // An HS256 token is checked only against the secret, whatever key it claims.
  await accepts(t, h, signed({ alg: 'HS256', kid: 'rsa-1' }, claims(h.clock), SECRET))
})

t.test('HS256 only: the secret verifies; RS256 is refused without a fetch', async (t) => {
  const h = await harness(t, { jwtSecret: SECRET })
  await accepts(t, h, hs(h.clock, { iss: undefined }))
  await rejects(t, h, hs(h.clock, {}, 'another-secret-that-is-forty-characters!'), /signature does not match/)
  await rejects(t, h, rs(h.clock), /no AUTH_JWKS_URL is configured/)
  await rejects(t, h, es(h.clock), /no AUTH_JWKS_URL is configured/)
})

t.test('algorithm confusion: HS256 "signed" with the public key is refused', async (t) => {
  const provider = await startProvider(t, [jwk(rsaA, 'rsa-1')])
  const spki = rsaA.publicKey.export({ type: 'spki', format: 'pem' }).toString()
  const pkcs1 = rsaA.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString()
  const jwkText = JSON.stringify(provider.document.keys[0])
  const forgeries = (clock: Clock): string[] =>
    [spki, pkcs1, jwkText, JSON.stringify(provider.document)].map((secret) => signed({ alg: 'HS256', typ: 'JWT', kid: 'rsa-1' }, claims(clock), secret))

  const jwksOnly = await harness(t, { jwksUrl: provider.url })
  for (const token of forgeries(jwksOnly.clock)) await rejects(t, jwksOnly, token, /signed with HS256.*public keys \(RS256\/ES256\) only/)
  t.equal(provider.hits.length, 0, 'an HS256 token never even loads the key set')

  const both = await harness(t, { jwksUrl: provider.url, jwtSecret: SECRET })
  for (const token of forgeries(both.clock)) await rejects(t, both, token, /signature does not match/)
  // The mirror image: an RS256 header over an HMAC made with the secret.
  const input = `${part({ alg: 'RS256', kid: 'rsa-1' })}.${part(claims(both.clock))}`
  await rejects(t, both, `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`, /signature does not match/)
})

t.test('malformed tokens and unaccepted algorithms', async (t) => {
  const provider = await startProvider(t, [jwk(rsaA, 'rsa-1'), jwk(ecA, 'ec-1')])
  const h = await harness(t, { jwksUrl: provider.url, jwtSecret: SECRET })
  const payload = claims(h.clock)
  for (const token of [
    'not-a-jwt',
    'only.two',
    'abc.def.ghi',
    '..',
    raw([1, 2], payload, 'sig'),
    raw({ alg: 'HS256' }, 'not json', 'sig'),
    raw({ alg: 'HS256' }, [1], 'sig'),
    raw('{"alg":', payload, 'x'),
    'a$b.c.d',
  ]) {
    await rejects(t, h, token, /malformed/)
  }
  // alg none, however it is spelled, with or without a signature.
  for (const alg of ['none', 'None', 'NONE']) {
    await rejects(t, h, raw({ alg, typ: 'JWT' }, payload), /unsigned \(alg "none"\)/)
    await rejects(t, h, raw({ alg, kid: 'rsa-1' }, payload, 'c2lnbmF0dXJl'), /unsigned/)
  }
  await rejects(t, h, raw({ typ: 'JWT' }, payload, 'c2ln'), /algorithm is not accepted; this server accepts RS256, ES256, HS256/)
  // Real signatures with algorithms that are not pinned.
  const input = (alg: string, kid?: string): string => `${part({ alg, ...(kid === undefined ? {} : { kid }) })}.${part(payload)}`
  const hs512 = input('HS512')
  await rejects(t, h, `${hs512}.${createHmac('sha512', SECRET).update(hs512).digest('base64url')}`, /algorithm is not accepted/)
  const rs512 = input('RS512', 'rsa-1')
  await rejects(t, h, `${rs512}.${sign('sha512', Buffer.from(rs512), rsaA.privateKey).toString('base64url')}`, /algorithm is not accepted/)
  const ps256 = input('PS256', 'rsa-1')
  await rejects(
    t,
    h,
    `${ps256}.${sign('sha256', Buffer.from(ps256), { key: rsaA.privateKey, padding: 6, saltLength: 32 }).toString('base64url')}`,
    /algorithm is not accepted/,
  )
  // A good header and payload with a signature that is not base64url, or is cut short.
  const good = rs(h.clock)
  await rejects(t, h, `${good}+/=`, /signature does not match/)
  await rejects(t, h, good.slice(0, -10), /signature does not match/)
  await rejects(t, h, es(h.clock).slice(0, -10), /signature does not match/)
  // An unsupported critical header extension.
  await rejects(t, h, signed({ alg: 'HS256', crit: ['exp-ext'], 'exp-ext': 1 }, payload, SECRET), /critical header extension/)
})

t.test('issuer and audience', async (t) => {
  const provider = await startProvider(t, [jwk(rsaA, 'rsa-1')])
  const h = await harness(t, { jwksUrl: provider.url, jwtSecret: SECRET, issuer: ISSUER })
  await rejects(t, h, rs(h.clock, 'rsa-1', { iss: 'https://evil.supabase.co/auth/v1' }), /issued by someone else: its iss claim is not "https:\/\/project/)
  await rejects(t, h, hs(h.clock, { iss: undefined }), /no issuer \(iss claim\)/)
  await rejects(t, h, rs(h.clock, 'rsa-1', { aud: 'anon' }), /another audience: its aud claim is not "authenticated"/)
  await rejects(t, h, hs(h.clock, { aud: ['other', 'api'] }), /another audience/)
  await rejects(t, h, hs(h.clock, { aud: undefined }), /no audience \(aud claim\)/)
  await rejects(t, h, hs(h.clock, { aud: 42 }), /aud/)
  await accepts(t, h, rs(h.clock, 'rsa-1', { aud: ['other', 'authenticated'] }))

  const custom = await harness(t, { jwtSecret: SECRET, audience: 'plainverse' })
  await accepts(t, custom, hs(custom.clock, { aud: 'plainverse', iss: 'anyone' }))
  await rejects(t, custom, hs(custom.clock), /its aud claim is not "plainverse"/)
})

t.test('exp and nbf against the injected clock, with 30 s of tolerance', async (t) => {
  const provider = await startProvider(t, [jwk(ecA, 'ec-1')])
  const h = await harness(t, { jwksUrl: provider.url, jwtSecret: SECRET })
  const now = Math.floor(h.clock.now / 1000)
  await rejects(t, h, hs(h.clock, { exp: now - 40 }), /has expired/)
  await rejects(t, h, es(h.clock, 'ec-1', { exp: now - 40 }), /has expired/)
  await accepts(t, h, hs(h.clock, { exp: now - 20 }))
  await rejects(t, h, hs(h.clock, { nbf: now + 40 }), /not valid yet/)
  await accepts(t, h, hs(h.clock, { nbf: now + 20 }))
  await rejects(t, h, hs(h.clock, { exp: undefined }), /no expiry \(exp claim\)/)
  await rejects(t, h, hs(h.clock, { exp: `${now + 60}` }), /exp claim\) is not a number/)
  await rejects(t, h, hs(h.clock, { nbf: 'soon' }), /nbf claim\) is not a number/)

  // The same token, before and after the clock passes its expiry: no sleeping needed.
  const token = es(h.clock, 'ec-1', { exp: now + 60 })
  await accepts(t, h, token)
  h.clock.now += 89_000
  await accepts(t, h, token)
  h.clock.now += 2_000
  await rejects(t, h, token, /has expired/)
})

t.test('sub must be a non-empty string', async (t) => {
  const h = await harness(t, { jwtSecret: SECRET })
  await rejects(t, h, hs(h.clock, { sub: undefined }), /no subject \(sub claim\)/)
  for (const sub of ['', '   ', 42, null, ['user-1'], { id: 'user-1' }]) {
    await rejects(t, h, hs(h.clock, { sub }), /subject \(sub claim\) is missing, empty or not a string/)
  }
  await rejects(t, h, hs(h.clock, { sub: 'u'.repeat(256) }), /longer than 255/)
})

t.test('role: anon and service_role are refused; authenticated or absent are accepted', async (t) => {
  const h = await harness(t, { jwtSecret: SECRET })
  const seconds = Math.floor(h.clock.now / 1000)
  // Supabase's public anon key, as published in every client app: signed with the legacy secret.
  const anonKey = signed({ alg: 'HS256', typ: 'JWT' }, { iss: 'supabase', ref: 'project', role: 'anon', iat: seconds, exp: seconds + 10 * 365 * 86400 }, SECRET)
  const outcome = await rejects(t, h, anonKey, /./)
  t.equal(outcome.code, 'invalid_token', 'the anon key never yields an identity')
  await rejects(t, h, hs(h.clock, { role: 'anon' }), /role "anon".*public anon key/)
  await rejects(t, h, hs(h.clock, { role: 'service_role' }), /role "service_role".*server key/)
  for (const role of ['admin', '', null, ['authenticated']]) await rejects(t, h, hs(h.clock, { role }), /role claim is not "authenticated"/)
  await accepts(t, h, hs(h.clock, { role: 'authenticated' }))
  await accepts(t, h, hs(h.clock, { role: undefined }))
})

t.test('a JWKS key is chosen by kid, and only keys fit for the algorithm are usable', async (t) => {
  const small = generateKeyPairSync('rsa', { modulusLength: 1024 })
  const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' })
  const ed = generateKeyPairSync('ed25519')
  const provider = await startProvider(t, [
    jwk(rsaA, 'rsa-1'),
    jwk(ecA, 'ec-1'),
    jwk(rsaB, 'enc-1', { use: 'enc' }),
    jwk(rsaB, 'ops-1', { key_ops: ['encrypt'] }),
    jwk(rsaB, 'rs512-1', { alg: 'RS512' }),
    jwk(rsaB, 'priv-1', { d: 'AQAB' }),
    jwk(small, 'small-1'),
    jwk(p384, 'p384-1'),
    jwk(ed, 'ed-1'),
    { kty: 'oct', kid: 'oct-1', k: Buffer.from(SECRET).toString('base64url') },
    jwk(rsaB, ''),
    'not a key',
  ])
  const h = await harness(t, { jwksUrl: provider.url, issuer: ISSUER })
  await accepts(t, h, rs(h.clock))
  await rejects(t, h, rs(h.clock, 'nope'), /No key in the identity provider's key set has the token's kid/)
  await rejects(t, h, signed({ alg: 'RS256', typ: 'JWT' }, claims(h.clock), rsaA.privateKey), /no key id \(kid\)/)
  await rejects(t, h, signed({ alg: 'RS256', kid: 7 }, claims(h.clock), rsaA.privateKey), /no key id \(kid\)/)
  // The kid of an EC key with an RS256 token, and the reverse.
  await rejects(t, h, rs(h.clock, 'ec-1'), /is for ES256, but the token says RS256/)
  await rejects(t, h, signed({ alg: 'ES256', kid: 'rsa-1' }, claims(h.clock), ecA.privateKey), /is for RS256, but the token says ES256/)
  const cases: Array<[string, KeyObject, RegExp]> = [
    ['enc-1', rsaB.privateKey, /not a signing key/],
    ['ops-1', rsaB.privateKey, /key_ops/],
    ['rs512-1', rsaB.privateKey, /another algorithm than RS256/],
    ['priv-1', rsaB.privateKey, /private key material/],
    ['small-1', small.privateKey, /shorter than 2048 bits/],
  ]
  for (const [kid, key, reason] of cases) await rejects(t, h, rs(h.clock, kid, {}, key), reason)
  await rejects(t, h, signed({ alg: 'ES256', kid: 'p384-1' }, claims(h.clock), p384.privateKey), /another curve than P-256/)
  await rejects(t, h, rs(h.clock, 'oct-1', {}, rsaB.privateKey), /neither RSA nor EC/)
  await rejects(t, h, rs(h.clock, 'ed-1', {}, rsaB.privateKey), /neither RSA nor EC/)
  t.equal(provider.hits.length, 1, 'unusable kids are known, so they do not trigger refetches')
})

t.test('key rotation: an unknown kid refetches, at most once per interval, coalesced', async (t) => {
  const provider = await startProvider(t, [jwk(rsaA, 'key-a')])
  const h = await harness(t, { jwksUrl: provider.url })
  const direct = false

  // A cold cache: twenty concurrent requests share one fetch.
  const cold = await Promise.all(Array.from({ length: 20 }, () => h.whoami(rs(h.clock, 'key-a'))))
  t.same(
    cold.map((o) => o.status),
    Array(20).fill(200),
  )
  t.equal(provider.hits.length, 1)

  // The provider publishes a new key; the first token signed with it refetches and succeeds.
  provider.document.keys.push(jwk(rsaB, 'key-b'))
  h.clock.now += INTERVAL + 1_000
  await accepts(t, h, rs(h.clock, 'key-b', {}, rsaB.privateKey), undefined, direct)
  t.equal(provider.hits.length, 2, 'one refetch for the new kid')
  await accepts(t, h, rs(h.clock, 'key-b', {}, rsaB.privateKey), undefined, direct)
  await accepts(t, h, rs(h.clock, 'key-a'), undefined, direct)
  t.equal(provider.hits.length, 2, 'known kids are served from the cache')

  // A flood of made-up kids: one fetch per interval, however many and however concurrent.
  h.clock.now += INTERVAL + 1_000
  const flood = await Promise.all(Array.from({ length: 50 }, (_, i) => h.whoami(rs(h.clock, `made-up-${i}`))))
  t.ok(
    flood.every((o) => o.status === 401 && o.code === 'invalid_token'),
    'all refused',
  )
  t.equal(provider.hits.length, 3, 'fifty concurrent unknown kids cost one fetch')
  for (let i = 0; i < 30; i++) await h.whoami(rs(h.clock, `serial-${i}`))
  h.clock.now += INTERVAL - 2_000
  await h.whoami(rs(h.clock, 'still-too-soon'))
  t.equal(provider.hits.length, 3, 'no fetch before the interval has passed')
  h.clock.now += 2_000
  await h.whoami(rs(h.clock, 'after-the-interval'))
  t.equal(provider.hits.length, 4, 'the next interval allows one more')

  // A new key published just after a fetch is picked up once the interval has passed.
  const rsaC = generateKeyPairSync('rsa', { modulusLength: 2048 })
  provider.document.keys.push(jwk(rsaC, 'key-c'))
  await rejects(t, h, rs(h.clock, 'key-c', {}, rsaC.privateKey), /has the token's kid/, { direct })
  h.clock.now += INTERVAL
  await accepts(t, h, rs(h.clock, 'key-c', {}, rsaC.privateKey), undefined, direct)
  t.equal(provider.hits.length, 5)
})

t.test('a key the provider removes stops working once the cache is older than its max age', async (t) => {
  const provider = await startProvider(t, [jwk(rsaA, 'key-a'), jwk(rsaB, 'key-b')])
  const h = await harness(t, { jwksUrl: provider.url })
  await accepts(t, h, rs(h.clock, 'key-a'), undefined, false)
  provider.document.keys.shift()
  h.clock.now += 5 * 60_000
  await accepts(t, h, rs(h.clock, 'key-a'), undefined, false)
  t.equal(provider.hits.length, 1, 'within the max age the cached key is used')
  h.clock.now += 6 * 60_000
  await rejects(t, h, rs(h.clock, 'key-a'), /has the token's kid/, { direct: false })
  t.equal(provider.hits.length, 2)
  await accepts(t, h, rs(h.clock, 'key-b', {}, rsaB.privateKey), undefined, false)
})

t.test('a JWKS fetch that times out refuses the token, and is retried only after the interval', async (t) => {
  const hanging = await startServer(t, () => {
    // Never answers.
  })
  const h = await harness(t, { jwksUrl: `${hanging.base}/jwks.json` }, { fetchTimeoutMs: 300 })
  const unavailable = { direct: false, code: 'identity_provider_unavailable' }
  // The message names the timeout that ended the fetch: the verifier gave up, it was not answered.
  await rejects(t, h, rs(h.clock), /signing keys could not be loaded \(fetching the key set timed out after 300 ms\)/, unavailable)
  t.equal(hanging.hits.length, 1)
  await rejects(t, h, rs(h.clock), /timed out/, unavailable)
  t.equal(hanging.hits.length, 1, 'no second fetch within the interval')
  h.clock.now += INTERVAL
  await rejects(t, h, rs(h.clock), /timed out/, unavailable)
  t.equal(hanging.hits.length, 2)
})

t.test('a JWKS endpoint answering garbage refuses the token', async (t) => {
  const badKey = { kty: 'RSA', kid: 'rsa-1', n: 'not base64url!', e: 'AQAB', use: 'sig' }
  const responses: Record<string, [number, string]> = {
    '/html': [200, '<!doctype html><title>Login</title>'],
    '/empty': [200, ''],
    '/no-keys': [200, '{"issuer":"x"}'],
    '/keys-object': [200, JSON.stringify({ keys: { 'rsa-1': jwk(rsaA, 'rsa-1') } })],
    '/array': [200, JSON.stringify([jwk(rsaA, 'rsa-1')])],
    '/bad-key': [200, JSON.stringify({ keys: [badKey] })],
    '/bad-exponent': [200, JSON.stringify({ keys: [{ ...jwk(rsaA, 'rsa-1'), e: 'AA' }] })],
    '/tiny-key': [200, JSON.stringify({ keys: [{ ...jwk(rsaA, 'rsa-1'), n: 'AAAA' }] })],
    '/bad-ec': [200, JSON.stringify({ keys: [{ ...jwk(ecA, 'rsa-1'), x: 'AAAA' }] })],
    '/too-many': [200, JSON.stringify({ keys: Array.from({ length: 101 }, (_, i) => jwk(rsaA, `k${i}`)) })],
    '/huge': [200, `{"keys":[],"pad":"${'x'.repeat(1_100_000)}"}`],
    '/error': [500, JSON.stringify({ keys: [jwk(rsaA, 'rsa-1')] })],
    '/redirect-loop': [302, ''],
  }
  const server = await startServer(t, (req, res) => {
    const [status, body] = responses[req.url ?? ''] ?? [404, 'not found']
    res.writeHead(status, status === 302 ? { location: req.url ?? '/' } : { 'content-type': 'application/json' }).end(body)
  })
  const expected: Record<string, RegExp> = {
    '/html': /could not be loaded \(the key set is not JSON\)/,
    '/empty': /not JSON/,
    '/no-keys': /no "keys" array/,
    '/keys-object': /no "keys" array/,
    '/array': /no "keys" array/,
    '/bad-key': /cannot be used: its RSA modulus or exponent is invalid/,
    '/bad-exponent': /cannot be used: its RSA modulus or exponent is invalid/,
    '/tiny-key': /cannot be used: its RSA modulus is shorter than 2048 bits/,
    '/bad-ec': /cannot be used: its EC coordinates are invalid/,
    '/too-many': /more than 100 keys/,
    '/huge': /larger than 1048576 bytes/,
    '/error': /answered HTTP 500/,
    '/redirect-loop': /could not be fetched/,
  }
  for (const [path, detail] of Object.entries(expected)) {
    const h = await harness(t, { jwksUrl: `${server.base}${path}` })
    // A set that cannot be loaded at all is the provider's failure (503); a loaded set with a bad key refuses the token (401).
    await rejects(t, h, rs(h.clock), detail, { code: detail.source.includes('cannot be used') ? 'invalid_token' : 'identity_provider_unavailable' })
  }
  const unreachable = await harness(t, { jwksUrl: 'http://127.0.0.1:1/jwks.json' })
  await rejects(t, unreachable, rs(unreachable.clock), /could not be fetched \(network error\)/, { code: 'identity_provider_unavailable' })
})

t.test('a failed refresh keeps the last good keys', async (t) => {
  let broken = false
  const server = await startServer(t, (_req, res) => {
    res.writeHead(200).end(broken ? 'oops' : JSON.stringify({ keys: [jwk(rsaA, 'key-a')] }))
  })
  const h = await harness(t, { jwksUrl: `${server.base}/jwks.json` })
  await accepts(t, h, rs(h.clock, 'key-a'), undefined, false)
  broken = true
  h.clock.now += 11 * 60_000
  await accepts(t, h, rs(h.clock, 'key-a'), undefined, false)
  t.equal(server.hits.length, 2, 'the refresh was attempted')
  await rejects(t, h, rs(h.clock, 'key-new'), /has the token's kid \(and refreshing the key set failed: the key set is not JSON\)/, { direct: false })
})

t.test('jku, x5u and jwk headers are never fetched or trusted', async (t) => {
  const provider = await startProvider(t, [jwk(rsaA, 'rsa-1')])
  const evil = await startServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk(attacker, 'evil-1'), jwk(attacker, 'rsa-1')] }))
  })
  const h = await harness(t, { jwksUrl: provider.url })
  const pointers = {
    jku: `${evil.base}/jwks.json`,
    x5u: `${evil.base}/cert.pem`,
    jwk: jwk(attacker, 'evil-1'),
  }
  await rejects(t, h, signed({ alg: 'RS256', kid: 'evil-1', ...pointers }, claims(h.clock), attacker.privateKey), /has the token's kid/)
  await rejects(t, h, signed({ alg: 'RS256', kid: 'rsa-1', ...pointers }, claims(h.clock), attacker.privateKey), /signature does not match/)
  await rejects(t, h, signed({ alg: 'RS256', jku: pointers.jku, jwk: pointers.jwk }, claims(h.clock), attacker.privateKey), /no key id/)
  // A genuine token that also carries the headers is verified with the configured keys only.
  await accepts(t, h, signed({ alg: 'RS256', kid: 'rsa-1', ...pointers }, claims(h.clock), rsaA.privateKey))
  t.equal(evil.hits.length, 0, 'the attacker server was never contacted')
  t.ok(provider.hits.length >= 1)
})

t.test('the public key as JWK matches what the provider would serve', async (t) => {
  // Guards the test's own helper: a JWK built here round-trips to the same public key.
  const round = createPublicKey({ key: jwk(rsaA, 'x') as JsonWebKey, format: 'jwk' })
  t.ok(round.equals(rsaA.publicKey))
  t.equal(SECRET.length, 40)
})

t.test('the shipped defaults, wired as the app wires them: a 3 s JWKS fetch timeout, one fetch per 10 s', async (t) => {
  t.equal(DEFAULT_FETCH_TIMEOUT_MS, 3_000, 'the README promises 3 s')
  t.equal(DEFAULT_REFETCH_INTERVAL_MS, 10_000, 'and one fetch per 10 s')
  const hanging = await startServer(t, () => {
    // Never answers: only the shipped timeout can end the fetch.
  })
  const clock = new TestClock(new Date())
  const testApp = await buildTestApp(t, { clock, env: { AUTH_JWKS_URL: `${hanging.base}/jwks.json` } })
  const identity = testApp.services.identity
  const token = (): string => rs({ now: clock.now().getTime() })
  const unavailable = { code: 'identity_provider_unavailable', detail: /fetching the key set timed out after 3000 ms/ }
  await t.rejects(identity.verify(token()), unavailable, 'a slow JWKS server is abandoned after 3 s')
  t.equal(hanging.hits.length, 1)
  clock.set(new Date(clock.now().getTime() + 9_999))
  await t.rejects(identity.verify(token()), unavailable)
  t.equal(hanging.hits.length, 1, 'no second fetch within 10 s')
  clock.set(new Date(clock.now().getTime() + 1))
  await t.rejects(identity.verify(token()), unavailable)
  t.equal(hanging.hits.length, 2, 'one more once 10 s have passed')
})

t.test('the shipped key poll: every instance looks for revoked or changed keys every 2 s', async (t) => {
  const testApp = await buildTestApp(t)
  t.equal(testApp.services.keyVerifier.pollIntervalMs, 2_000, 'the interval the services give the key verifier')
  t.equal(KEY_POLL_INTERVAL_MS, 2_000)
})
