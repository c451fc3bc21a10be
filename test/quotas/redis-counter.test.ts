import { randomBytes } from 'node:crypto'
import t from 'tap'
import type { Redis } from 'ioredis'
import { monthPeriod } from '../../src/quotas/counter.js'
import { createRedis, RedisQuotaCounter } from '../../src/quotas/redis-counter.js'
import { counterContract } from './counter.contract.js'

const url = process.env.REDIS_URL
const skip = url === undefined || url === '' ? 'Redis suites skipped: REDIS_URL is not set (e.g. REDIS_URL=redis://127.0.0.1:6379)' : false

/** Deletes every key under `prefix`; SCAN rather than KEYS so a shared Redis is not blocked. */
async function deleteNamespace(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    if (keys.length > 0) await redis.unlink(...keys)
    cursor = next
  } while (cursor !== '0')
}

/** Milliseconds `promise` took to settle, and whether it rejected. */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now()
  try {
    await promise
    return { ms: performance.now() - started, error: undefined }
  } catch (error) {
    return { ms: performance.now() - started, error }
  }
}

t.test('RedisQuotaCounter', { skip }, async (t) => {
  const redisUrl = url ?? ''
  // Every run gets its own namespace so that parallel runs and other users of this Redis are
  // never touched; the whole namespace goes at the end.
  const namespace = `pvtest:${randomBytes(6).toString('hex')}:`
  const admin = createRedis(redisUrl)
  t.teardown(async () => {
    await deleteNamespace(admin, namespace)
    await admin.quit()
  })
  let fixtures = 0
  const make = async (): Promise<{ counter: RedisQuotaCounter; cleanup: () => Promise<void> }> => {
    const prefix = `${namespace}${++fixtures}:`
    const counter = new RedisQuotaCounter(createRedis(redisUrl), { prefix })
    return {
      counter,
      cleanup: async () => {
        await deleteNamespace(admin, prefix)
        await counter.close()
      },
    }
  }

  counterContract(t, 'RedisQuotaCounter', make)

  t.test('keys are `${prefix}quota:${keyId}:${period}` and expire at the end of the period', async (t) => {
    const { counter, cleanup } = await make()
    t.teardown(cleanup)
    const period = monthPeriod(new Date())
    const key = counter.key('key_abc', period.id)
    t.match(key, new RegExp(`^${namespace}\\d+:quota:key_abc:\\d{4}-\\d{2}$`))
    await counter.initialise('key_abc', period.id, 0, period.end.getTime())
    // The time to live is relative to the application's clock, so Redis's own clock may put the
    // absolute expiry a few milliseconds off the period end.
    const expiry = Number(await admin.call('PEXPIRETIME', key))
    t.ok(Math.abs(expiry - period.end.getTime()) < 1_000, `expires at the period end (${expiry} vs ${period.end.getTime()})`)
    await counter.consume('key_abc', period.id, 10)
    await counter.refund('key_abc', period.id)
    t.equal(Number(await admin.call('PEXPIRETIME', key)), expiry, 'consume and refund keep the expiry')
    const ttl = await admin.pttl(key)
    t.ok(ttl > 0 && ttl <= period.secondsToReset(new Date()) * 1000, `TTL ${ttl} ms ends at the reset`)
  })

  t.test('a key lost by Redis (restart, eviction) is reported uninitialised again, not restarted at 0', async (t) => {
    const { counter, cleanup } = await make()
    t.teardown(cleanup)
    await counter.initialise('k1', '2025-01', 40, Date.now() + 60_000)
    t.same(await counter.consume('k1', '2025-01', 50), { status: 'consumed', count: 41 })
    await admin.del(counter.key('k1', '2025-01'))
    t.same(await counter.consume('k1', '2025-01', 50), { status: 'uninitialised' })
    t.equal(await admin.exists(counter.key('k1', '2025-01')), 0, 'consume did not create the key')
    t.equal(await counter.initialise('k1', '2025-01', 41, Date.now() + 60_000), 41, 'rebuilt from the ledger')
    t.same(await counter.consume('k1', '2025-01', 50), { status: 'consumed', count: 42 })
  })

  t.test('exact across instances: two clients share the count', async (t) => {
    const a = await make()
    t.teardown(a.cleanup)
    const b = new RedisQuotaCounter(createRedis(redisUrl), { prefix: `${namespace}${fixtures}:` })
    t.teardown(() => b.close())
    await a.counter.initialise('k1', '2025-01', 963, Date.now() + 60_000)
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a.counter : b).consume('k1', '2025-01', 1000)))
    t.equal(results.filter((r) => r.status === 'consumed').length, 37)
    t.equal(await b.peek('k1', '2025-01'), 1000)
  })

  t.test('a corrupt counter value rejects instead of being papered over', async (t) => {
    const { counter, cleanup } = await make()
    t.teardown(cleanup)
    await admin.set(counter.key('k1', '2025-01'), 'not a number')
    await t.rejects(counter.consume('k1', '2025-01', 10))
    await t.rejects(counter.peek('k1', '2025-01'))
    await t.rejects(counter.refund('k1', '2025-01'))
  })

  t.test('a Redis that is down makes consume and ping reject within a few seconds', async (t) => {
    const errors: Error[] = []
    const counter = new RedisQuotaCounter(createRedis('redis://127.0.0.1:1', (e) => errors.push(e)))
    t.teardown(() => counter.close())
    const consume = await timed(counter.consume('k1', '2025-01', 10))
    t.ok(consume.error instanceof Error, `consume rejected: ${String(consume.error)}`)
    t.ok(consume.ms < 5000, `consume settled in ${Math.round(consume.ms)} ms`)
    const ping = await timed(counter.ping())
    t.ok(ping.error instanceof Error, `ping rejected: ${String(ping.error)}`)
    t.ok(ping.ms < 5000, `ping settled in ${Math.round(ping.ms)} ms`)
    t.ok(errors.length > 0, 'connection errors went to onError')
  })

  t.test('a closed client makes consume reject at once', async (t) => {
    const { counter, cleanup } = await make()
    t.teardown(cleanup)
    await counter.close()
    const consume = await timed(counter.consume('k1', '2025-01', 10))
    t.ok(consume.error instanceof Error, `consume rejected: ${String(consume.error)}`)
    t.ok(consume.ms < 1000, `in ${Math.round(consume.ms)} ms`)
  })
})

t.test('RedisQuotaCounter without a server: EVALSHA falls back to EVAL when Redis lost its script cache', async (t) => {
  const calls: string[] = []
  // Just the two methods the scripts use; a real server cannot be made to forget scripts
  // without SCRIPT FLUSH, which would affect everyone else using it.
  const fake = {
    async evalsha(): Promise<unknown> {
      calls.push('evalsha')
      throw new Error('NOSCRIPT No matching script. Please use EVAL.')
    },
    async eval(lua: string): Promise<unknown> {
      calls.push('eval')
      t.match(lua, /INCR/)
      return [1, 8]
    },
  }
  const counter = new RedisQuotaCounter(fake as unknown as Redis)
  t.same(await counter.consume('k1', '2025-01', 10), { status: 'consumed', count: 8 })
  t.same(calls, ['evalsha', 'eval'])
  fake.evalsha = async () => {
    throw new Error('ERR something else')
  }
  await t.rejects(counter.consume('k1', '2025-01', 10), /something else/, 'other errors are not retried or swallowed')
})
