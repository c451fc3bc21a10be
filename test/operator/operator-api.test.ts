/**
 * /api/v1/operator/*: every account and key with usage, set a tier, revoke any key, service
 * totals; refused with 403 operator_only without the operator claim, 401 without a token.
 */
import t from 'tap'
import type { components } from '../../generated/api-types.js'
import type { Problem } from '../../src/errors.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

type OperatorAccounts = components['schemas']['OperatorAccounts']
type OperatorKey = components['schemas']['OperatorKey']
type ServiceUsage = components['schemas']['ServiceUsage']

t.test('operator API', async (t) => {
  const testApp = await buildTestApp(t, { env: { AUTH_JWT_SECRET: TEST_JWT_SECRET, OPERATOR_CLAIM: 'app_metadata.role', QUOTA_DEVELOPER: '1000' } })
  const { app } = testApp
  const operator = { authorization: `Bearer ${signToken('ops', { app_metadata: { role: 'operator' } })}` }
  const alice = { authorization: `Bearer ${signToken('alice')}` }
  const pretender = {
    authorization: `Bearer ${signToken('mallory', { role_name: 'operator', app_metadata: { role: 'Operator' }, user_metadata: { role: 'operator' } })}`,
  }
  const a = await createTestKey(testApp, { account: 'alice', name: 'alice <b>web</b>' })
  const b = await createTestKey(testApp, { account: 'bob', name: 'bob app' })
  for (let i = 0; i < 3; i++) await call(t, app, { url: '/api/v1/verse/john-3-16?style=casual', headers: { 'x-api-key': b.key } })
  await call(t, app, { url: '/api/v1/verse/gen-1-1', headers: { 'x-api-key': a.key } })
  const json = (headers: Record<string, string>, method: string, url: string, payload?: unknown) =>
    call(t, app, {
      method: method as 'GET',
      url,
      headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    })

  t.test('everyone but an operator is refused, before any input is looked at', async (t) => {
    const requests: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/operator/accounts'],
      ['GET', '/api/v1/operator/accounts?sort=bogus'],
      ['GET', '/api/v1/operator/usage'],
      ['PATCH', `/api/v1/operator/keys/${a.id}`, { tier: 'scale' }],
      ['PATCH', `/api/v1/operator/keys/${a.id}`, { tier: 'platinum' }],
      ['DELETE', `/api/v1/operator/keys/${a.id}`],
    ]
    for (const [method, url, body] of requests) {
      for (const [who, headers] of [
        ['a signed-in user', alice],
        ['a near-miss claim', pretender],
      ] as const) {
        const res = await json(headers, method, url, body)
        t.equal(res.statusCode, 403, `${method} ${url}: ${who}`)
        t.equal(res.json<Problem>().code, 'operator_only')
      }
      const anonymous = await json({}, method, url, body)
      t.equal(anonymous.statusCode, 401, `${method} ${url}: no token`)
    }
    const keys = await call(t, app, { url: '/api/v1/keys', headers: alice })
    t.equal(keys.json<{ data: Array<{ tier: string }> }>().data[0]?.tier, 'free', 'nothing changed')
  })

  t.test('accounts and keys with usage, sortable', async (t) => {
    const res = await json(operator, 'GET', '/api/v1/operator/accounts')
    t.equal(res.statusCode, 200)
    const body = res.json<OperatorAccounts>()
    t.same(
      body.data.map((row) => [row.account_id, row.total_queries, row.active_keys]),
      [
        ['bob', 3, 1],
        ['alice', 1, 1],
      ],
      'most used first',
    )
    t.equal(body.data[1]?.keys[0]?.name, 'alice <b>web</b>', 'names as stored')
    t.equal(body.data[0]?.keys[0]?.limit, 500)
    const byAccount = await json(operator, 'GET', '/api/v1/operator/accounts?sort=account')
    t.same(
      byAccount.json<OperatorAccounts>().data.map((row) => row.account_id),
      ['alice', 'bob'],
    )
    const bad = await json(operator, 'GET', '/api/v1/operator/accounts?sort=%3Cscript%3E')
    t.equal(bad.statusCode, 400)
    t.equal(bad.json<Problem>().code, 'invalid_parameter')
  })

  t.test('service totals by endpoint, style and day', async (t) => {
    const res = await json(operator, 'GET', '/api/v1/operator/usage')
    t.equal(res.statusCode, 200)
    const body = res.json<ServiceUsage>()
    t.equal(body.total_queries, 4)
    t.equal(body.accounts, 2)
    t.equal(body.active_keys, 2)
    t.equal(body.by_endpoint.verse, 4)
    t.equal(body.by_style.casual, 3)
    const today = new Date().toISOString().slice(0, 10)
    t.equal(body.daily.at(-1)?.date, today, 'the chart runs to today')
    t.equal(body.daily.at(-1)?.queries, 4)
    t.equal(body.daily[0]?.date, `${today.slice(0, 7)}-01`, 'from the first day of the month')
  })

  t.test('set a tier: the new allowance applies at once', async (t) => {
    const res = await json(operator, 'PATCH', `/api/v1/operator/keys/${a.id}`, { tier: 'developer' })
    t.equal(res.statusCode, 200)
    const key = res.json<OperatorKey>()
    t.equal(key.tier, 'developer')
    t.equal(key.limit, 1000)
    t.equal(key.account_id, 'alice')
    t.equal(key.total_queries, 1)
    const usage = await call(t, app, { url: '/api/v1/usage', headers: { 'x-api-key': a.key } })
    t.equal(usage.json<{ limit: number }>().limit, 1000)
    for (const body of [{ tier: 'platinum' }, { tier: null }, {}, { tier: 'scale', name: 'x' }, [], 'scale']) {
      const bad = await json(operator, 'PATCH', `/api/v1/operator/keys/${a.id}`, body)
      t.equal(bad.statusCode, 400, JSON.stringify(body))
      t.equal(bad.json<Problem>().code, 'invalid_parameter')
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '<script>']) {
      const missing = await json(operator, 'PATCH', `/api/v1/operator/keys/${encodeURIComponent(id)}`, { tier: 'scale' })
      t.equal(missing.statusCode, 404, id)
      t.equal(missing.json<Problem>().code, 'key_not_found')
    }
  })

  t.test("revoke any account's key", async (t) => {
    const res = await json(operator, 'DELETE', `/api/v1/operator/keys/${b.id}`)
    t.equal(res.statusCode, 204)
    const refused = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': b.key } })
    t.equal(refused.statusCode, 403)
    t.equal(refused.json<Problem>().code, 'invalid_api_key')
    const again = await json(operator, 'DELETE', `/api/v1/operator/keys/${b.id}`)
    t.equal(again.statusCode, 404)
    const accounts = (await json(operator, 'GET', '/api/v1/operator/accounts')).json<OperatorAccounts>()
    const bob = accounts.data.find((row) => row.account_id === 'bob')
    t.equal(bob?.active_keys, 0, 'a revoked key used this month still shows, as revoked')
    t.ok(bob?.keys[0]?.revoked_at)
  })

  t.test('array claims (Keycloak roles) and the operator claim unset', async (t) => {
    const keycloak = await buildTestApp(t, {
      env: { AUTH_JWT_SECRET: TEST_JWT_SECRET, OPERATOR_CLAIM: 'realm_access.roles', OPERATOR_CLAIM_VALUE: 'plainverse-operator' },
    })
    const roles = { authorization: `Bearer ${signToken('kc', { realm_access: { roles: ['user', 'plainverse-operator'] } })}` }
    t.equal((await call(t, keycloak.app, { url: '/api/v1/operator/usage', headers: roles })).statusCode, 200)
    const auth0 = await buildTestApp(t, { env: { AUTH_JWT_SECRET: TEST_JWT_SECRET, OPERATOR_CLAIM: 'https://plainverse.example/roles' } })
    const namespaced = { authorization: `Bearer ${signToken('a0', { 'https://plainverse.example/roles': ['operator'] })}` }
    t.equal((await call(t, auth0.app, { url: '/api/v1/operator/usage', headers: namespaced })).statusCode, 200, 'a namespaced claim (Auth0)')
    const unset = await buildTestApp(t, { env: { AUTH_JWT_SECRET: TEST_JWT_SECRET } })
    const res = await call(t, unset.app, { url: '/api/v1/operator/usage', headers: operator })
    t.equal(res.statusCode, 403, 'without OPERATOR_CLAIM nobody is an operator over HTTP')
  })
})
