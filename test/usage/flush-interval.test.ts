/**
 * The periodic usage flush: every second on PostgreSQL (other instances wait on its
 * heartbeats), every 5 s on the embedded database (its statements run on the event loop and
 * no other instance waits on it). Readers never depend on it: a query journalled and not yet
 * flushed is in every total at once.
 */
import t from 'tap'
import { flushIntervalFor } from '../../src/services.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { availableKinds } from '../helpers/database.js'

t.test('the interval by database kind', async (t) => {
  t.equal(flushIntervalFor('pglite'), 5_000)
  t.equal(flushIntervalFor('postgres'), 1_000)
})

for (const { kind, skip } of availableKinds()) {
  t.test(`started services flush at their kind's interval, and totals do not wait for it (${kind})`, { skip }, async (t) => {
    const testApp = await buildTestApp(t, { kind })
    const { services } = testApp
    t.equal(services.usage.flushIntervalMs, undefined, 'no periodic flush before start')
    await services.start()
    t.equal(services.usage.flushIntervalMs, kind === 'pglite' ? 5_000 : 1_000)
    const { key, id } = await createTestKey(testApp)
    const backlog = services.usage.stats().backlog
    const res = await testApp.app.inject({ url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key } })
    t.equal(res.statusCode, 200)
    t.equal(services.usage.stats().backlog, backlog + 1, 'journalled, not yet in the ledger')
    const period = new Date().toISOString().slice(0, 7)
    t.equal(await services.usage.keyTotal(id, period), 1, 'the total holds the unflushed query')
  })
}
