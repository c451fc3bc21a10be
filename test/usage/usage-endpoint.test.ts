/**
 * GET /api/v1/usage: a key's usage (X-API-Key or Bearer pv_...), an account's usage (identity
 * token), isolation between accounts, credentials errors, and never counting itself.
 */
import t, { type Test } from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import { forgetCounters, REDIS_URL } from '../helpers/redis.js'
import type { components } from '../../generated/api-types.js'
import type { Problem } from '../../src/errors.js'
import { generateKey } from '../../src/keys/key-format.js'
import { monthPeriod } from '../../src/usage/period.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

type KeyUsage = components['schemas']['KeyUsage']
type AccountUsage = components['schemas']['AccountUsage']

const redisEnv: Record<string, string> = REDIS_URL === undefined ? {} : { REDIS_URL }
const USAGE = '/api/v1/usage'

t.test('usage', async (t) => {
  const testApp = await buildTestApp(t, { env: { AUTH_JWT_SECRET: TEST_JWT_SECRET, QUOTA_FREE: '10', QUOTA_DEVELOPER: '100', ...redisEnv } })
  const { app } = testApp
  const period = monthPeriod(new Date())
  const a1 = await createTestKey(testApp, { account: 'alice', name: 'alice web' })
  const a2 = await createTestKey(testApp, { account: 'alice', name: 'alice batch', tier: 'developer' })
  const b1 = await createTestKey(testApp, { account: 'bob', name: 'bob app' })
  const restricted = await createTestKey(testApp, { account: 'alice', name: 'alice restricted', allowedDomains: ['example.com'] })
  t.teardown(() => forgetCounters([a1.id, a2.id, b1.id, restricted.id]))
  const alice = { authorization: `Bearer ${signToken('alice')}` }
  const bob = { authorization: `Bearer ${signToken('bob')}` }
  const usage = (headers: Record<string, string>): Promise<LightMyRequestResponse> => call(t, app, { url: USAGE, headers })
  const verse = async (key: string, url = '/api/v1/verse/john-3-16'): Promise<number> => (await call(t, app, { url, headers: { 'x-api-key': key } })).statusCode
  const keyForm = (usedQueries: number, limit: number, tier: KeyUsage['tier']): KeyUsage => ({
    total_queries: usedQueries,
    limit,
    tier,
    remaining: limit - usedQueries,
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
  })

  t.test('a key that has not been used', async (t) => {
    const res = await usage({ 'x-api-key': a1.key })
    t.equal(res.statusCode, 200)
    t.same(res.json<KeyUsage>(), keyForm(0, 10, 'free'))
    const carol = await usage({ authorization: `Bearer ${signToken('carol')}` })
    t.equal(carol.statusCode, 200, 'an account without keys')
    const body = carol.json<AccountUsage>()
    t.equal(body.total_queries, 0)
    t.same(body.keys, [])
    t.same(body.by_style, { faithful: 0, casual: 0, all: 0 })
    t.same(body.by_endpoint, {}, 'no endpoint was used')
  })

  // alice: a1 faithful x2, casual, all; a2 all. bob: b1 faithful x3. Plus errors that never count.
  t.test('record some usage', async (t) => {
    for (const url of ['/api/v1/verse/john-3-16', '/api/v1/verse/genesis-1-1', '/api/v1/verse/john-3-16?style=casual', '/api/v1/verse/john-3-16?style=all']) {
      t.equal(await verse(a1.key, url), 200, url)
    }
    t.equal(await verse(a2.key, '/api/v1/verse/psalms-23-1?style=all'), 200)
    for (let i = 0; i < 3; i++) t.equal(await verse(b1.key), 200)
    t.equal(await verse(a1.key, '/api/v1/verse/john-3-99'), 404)
    t.equal(await verse(a1.key, '/api/v1/verse/john-3-16?style=formal'), 400)
  })

  const checkAll = async (t: Test, when: string): Promise<void> => {
    t.same((await usage({ 'x-api-key': a1.key })).json<KeyUsage>(), keyForm(4, 10, 'free'), `${when}: a1 by X-API-Key`)
    t.same((await usage({ authorization: `Bearer ${a1.key}` })).json<KeyUsage>(), keyForm(4, 10, 'free'), `${when}: a1 by Bearer pv_`)
    t.same((await usage({ 'x-api-key': a2.key })).json<KeyUsage>(), keyForm(1, 100, 'developer'), `${when}: a2`)
    t.same((await usage({ 'x-api-key': b1.key })).json<KeyUsage>(), keyForm(3, 10, 'free'), `${when}: b1`)

    const aliceRes = await usage(alice)
    t.equal(aliceRes.statusCode, 200)
    const mine = aliceRes.json<AccountUsage>()
    t.equal(mine.period_start, period.start.toISOString(), `${when}: period_start`)
    t.equal(mine.period_end, period.end.toISOString(), `${when}: period_end`)
    t.equal(mine.total_queries, 5, `${when}: alice's total`)
    t.same(mine.by_endpoint, { verse: 5 }, `${when}: by endpoint`)
    t.same(mine.by_style, { faithful: 2, casual: 1, all: 2 }, `${when}: by style`)
    t.same(
      mine.keys,
      [
        { id: a1.id, name: 'alice web', prefix: a1.key.slice(0, 7), tier: 'free', limit: 10, total_queries: 4 },
        { id: a2.id, name: 'alice batch', prefix: a2.key.slice(0, 7), tier: 'developer', limit: 100, total_queries: 1 },
        { id: restricted.id, name: 'alice restricted', prefix: restricted.key.slice(0, 7), tier: 'free', limit: 10, total_queries: 0 },
      ],
      `${when}: alice's keys, oldest first`,
    )
    t.notMatch(aliceRes.body, b1.id, `${when}: nothing of bob's`)
    t.notMatch(aliceRes.body, a1.key, `${when}: never a full key`)

    const theirs = (await usage(bob)).json<AccountUsage>()
    t.equal(theirs.total_queries, 3, `${when}: bob's total`)
    t.same(theirs.by_style, { faithful: 3, casual: 0, all: 0 })
    t.same(
      theirs.keys.map((k) => k.id),
      [b1.id],
      `${when}: bob sees only his key`,
    )
  }

  t.test('both forms, before the ledger is flushed', (t) => checkAll(t, 'journal'))
  t.test('both forms, after the ledger is flushed (nothing counted twice)', async (t) => {
    await testApp.services.usage.flush()
    await checkAll(t, 'ledger')
  })

  t.test('/usage never counts', async (t) => {
    for (let i = 0; i < 5; i++) {
      t.equal((await usage({ 'x-api-key': a1.key })).statusCode, 200)
      t.equal((await usage(alice)).statusCode, 200)
    }
    const res = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': a1.key } })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['x-ratelimit-remaining'], '5', 'ten /usage calls later, only the fifth lookup counted')
    t.equal((await usage({ 'x-api-key': a1.key })).json<KeyUsage>().total_queries, 5)
  })

  t.test('a domain-restricted key follows its restriction here too', async (t) => {
    const refused = await usage({ 'x-api-key': restricted.key, origin: 'https://evil.org' })
    t.equal(refused.statusCode, 403)
    t.equal(refused.json<Problem>().code, 'domain_not_allowed')
    const allowed = await usage({ 'x-api-key': restricted.key, origin: 'https://example.com' })
    t.equal(allowed.statusCode, 200)
    t.same(allowed.json<KeyUsage>(), keyForm(0, 10, 'free'))
  })

  t.test('credential errors', async (t) => {
    const none = await usage({})
    t.equal(none.statusCode, 401)
    t.equal(none.json<Problem>().code, 'missing_credentials')
    t.type(none.headers['www-authenticate'], 'string', 'WWW-Authenticate')
    const badKeys: Array<[string, Record<string, string>]> = [
      ['malformed', { 'x-api-key': 'pv_short' }],
      ['bad checksum', { 'x-api-key': `${a1.key.slice(0, -1)}${a1.key.endsWith('a') ? 'b' : 'a'}` }],
      ['unknown', { 'x-api-key': generateKey() }],
      ['unknown as Bearer', { authorization: `Bearer ${generateKey()}` }],
    ]
    for (const [label, headers] of badKeys) {
      const res = await usage(headers)
      t.equal(res.statusCode, 403, label)
      t.equal(res.json<Problem>().code, 'invalid_api_key', label)
    }
    const forged = await usage({ authorization: `Bearer ${signToken('alice', {}, 'another-secret-of-at-least-32-characters!')}` })
    t.equal(forged.statusCode, 401, 'a token with the wrong signature')
    t.equal(forged.json<Problem>().code, 'invalid_token')
    const anon = await usage({ authorization: `Bearer ${signToken('alice', { role: 'anon' })}` })
    t.equal(anon.statusCode, 401, "Supabase's anon key is not a signed-in user")
  })

  t.test('a revoked key', async (t) => {
    const doomed = await createTestKey(testApp, { account: 'alice', name: 'doomed' })
    t.teardown(() => forgetCounters([doomed.id]))
    t.equal((await usage({ 'x-api-key': doomed.key })).statusCode, 200)
    await testApp.services.keys.revoke(doomed.id, 'alice')
    const res = await usage({ 'x-api-key': doomed.key })
    t.equal(res.statusCode, 403)
    t.equal(res.json<Problem>().code, 'invalid_api_key')
  })

  t.test("a revoked key's queries this month stay in the account's usage", async (t) => {
    const spent = await createTestKey(testApp, { account: 'alice', name: 'spent' })
    t.teardown(() => forgetCounters([spent.id]))
    t.equal(await verse(spent.key), 200)
    const before = (await usage(alice)).json<AccountUsage>()
    await testApp.services.keys.revoke(spent.id, 'alice')
    const after = (await usage(alice)).json<AccountUsage>()
    t.equal(after.total_queries, before.total_queries, 'revoking does not undo usage')
    t.same(after.by_style, before.by_style)
    t.equal(after.keys.find((k) => k.id === spent.id)?.total_queries, 1, 'the revoked key is still listed with its queries')
  })
})

t.test('without an identity provider, the key form still works', async (t) => {
  const testApp = await buildTestApp(t, { env: { ...redisEnv } })
  const key = await createTestKey(testApp)
  t.teardown(() => forgetCounters([key.id]))
  const res = await call(t, testApp.app, { url: USAGE, headers: { 'x-api-key': key.key } })
  t.equal(res.statusCode, 200)
  t.equal(res.json<KeyUsage>().limit, 500, 'the default free allowance')
  const token = await call(t, testApp.app, { url: USAGE, headers: { authorization: `Bearer ${signToken('alice')}` } })
  t.equal(token.statusCode, 503)
  t.equal(token.json<Problem>().code, 'sign_in_not_configured')
})
