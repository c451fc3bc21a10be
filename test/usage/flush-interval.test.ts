/**
 * The periodic usage flush: every 5 s on the embedded database with counters in this process
 * (its statements run on the event loop, and nothing waits on its flushes), every second
 * otherwise (instances sharing Redis counters wait on each other's flushes to rebuild a lost
 * counter). Readers never depend on it: a query journalled and not yet flushed is in every
 * total at once.
 */
import t from 'tap'
import { flushIntervalFor } from '../../src/services.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { availableKinds } from '../helpers/database.js'
import { forgetCounters, REDIS_URL } from '../helpers/redis.js'

t.test('the interval by database kind and counter', async (t) => {
  t.equal(flushIntervalFor('pglite', { shared: false }), 5_000)
  t.equal(flushIntervalFor('pglite', { shared: true }), 1_000)
  t.equal(flushIntervalFor('postgres', { shared: false }), 1_000)
  t.equal(flushIntervalFor('postgres', { shared: true }), 1_000)
})

const counters: Array<{ counter: string; env: Record<string, string>; skip: string | false }> = [
  { counter: 'in-process counters', env: {}, skip: false },
  { counter: 'Redis counters', env: REDIS_URL === undefined ? {} : { REDIS_URL }, skip: REDIS_URL === undefined ? 'REDIS_URL is not set' : false },
]

for (const { kind, skip } of availableKinds()) {
  for (const { counter, env, skip: noRedis } of counters) {
    t.test(`started services flush at their interval, and totals do not wait for a flush (${kind}, ${counter})`, { skip: skip || noRedis }, async (t) => {
      const testApp = await buildTestApp(t, { kind, env })
      const { services } = testApp
      t.equal(services.usage.flushIntervalMs, undefined, 'no periodic flush before start')
      await services.start()
      t.equal(services.counter.shared, counter === 'Redis counters')
      t.equal(services.usage.flushIntervalMs, kind === 'pglite' && counter === 'in-process counters' ? 5_000 : 1_000)
      const { key, id } = await createTestKey(testApp)
      t.teardown(() => forgetCounters([id]))
      const res = await testApp.app.inject({ url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key } })
      t.equal(res.statusCode, 200)
      // Flushed by now or not (the timer may have fired), the total is the same.
      const period = new Date().toISOString().slice(0, 7)
      t.equal(await services.usage.keyTotal(id, period), 1, 'the query is in the total at once')
    })
  }
}
