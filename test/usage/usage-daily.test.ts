/**
 * Daily figures of the account form of GET /api/v1/usage: from the same flush as the ledger,
 * every day of the month to today, journalled queries included, and the day a query is dated.
 */
import t from 'tap'
import type { components } from '../../generated/api-types.js'
import { dayIn } from '../../src/usage/usage.service.js'
import { buildTestApp, createTestKey, TestClock } from '../helpers/app.js'
import { availableKinds } from '../helpers/database.js'
import { call } from '../helpers/http.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

type AccountUsage = components['schemas']['AccountUsage']

t.test('dayIn dates a query inside its own month', async (t) => {
  t.equal(dayIn('2026-03', new Date('2026-03-17T23:59:59Z')), '2026-03-17')
  t.equal(dayIn('2026-02', new Date('2026-03-01T00:00:02Z')), '2026-02-28', 'flushed after midnight at the month end: the last day of its month')
  t.equal(dayIn('2024-02', new Date('2024-03-01T00:00:02Z')), '2024-02-29', 'leap year')
  t.equal(dayIn('2026-12', new Date('2027-01-01T00:00:00Z')), '2026-12-31')
  t.equal(dayIn('2026-04', new Date('2026-03-31T23:59:59Z')), '2026-04-01', 'a clock behind the period: its first day')
})

for (const { kind, skip } of availableKinds()) {
  t.test(`daily figures in the account form (${kind})`, { skip }, async (t) => {
    const clock = new TestClock(new Date('2026-03-02T10:00:00Z'))
    const testApp = await buildTestApp(t, { env: { AUTH_JWT_SECRET: TEST_JWT_SECRET }, clock, kind })
    const { app, services } = testApp
    const alice = { authorization: `Bearer ${signToken('alice')}` }
    const key = await createTestKey(testApp, { account: 'alice' })
    const other = await createTestKey(testApp, { account: 'bob' })
    const verse = (k: string) => call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': k } })
    await verse(key.key)
    await verse(key.key)
    await verse(other.key)
    await services.usage.flush()
    clock.set(new Date('2026-03-04T08:00:00Z'))
    await verse(key.key)
    // Not flushed: the journalled query counts today.
    const res = await call(t, app, { url: '/api/v1/usage', headers: alice })
    t.equal(res.statusCode, 200)
    const body = res.json<AccountUsage>()
    t.same(body.daily, [
      { date: '2026-03-01', queries: 0 },
      { date: '2026-03-02', queries: 2 },
      { date: '2026-03-03', queries: 0 },
      { date: '2026-03-04', queries: 1 },
    ])
    t.equal(
      body.daily.reduce((sum, d) => sum + d.queries, 0),
      body.total_queries,
      'the days add up to the month',
    )
    await services.usage.flush()
    const flushed = (await call(t, app, { url: '/api/v1/usage', headers: alice })).json<AccountUsage>()
    t.same(flushed.daily, body.daily, 'the same after the flush')
    const keys = await call(t, app, { url: '/api/v1/keys', headers: alice })
    t.equal(keys.json<{ data: Array<{ last_used_on: string | null }> }>().data[0]?.last_used_on, '2026-03-04')
  })
}
