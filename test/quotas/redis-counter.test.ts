import { randomBytes } from 'node:crypto'
import t from 'tap'
import type { Redis } from 'ioredis'
import { monthPeriod } from '../../src/usage/period.js'
import { setTimeout as sleep } from 'node:timers/promises'
import { CounterUnavailableError } from '../../src/quotas/counter.js'
import { createRedis, RedisQuotaCounter } from '../../src/quotas/redis-counter.js'
import { privateRedisUnavailable, startPrivateRedis } from '../helpers/redis-instance.js'
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
    // Within the same second's allowance as the expiry above: the TTL was computed before the
    // command reached Redis, and a stall in between (a loaded machine) moves the end by as much.
    const ttl = await admin.pttl(key)
    const toReset = period.end.getTime() - Date.now()
    t.ok(ttl > 0 && Math.abs(ttl - toReset) <= 1_000, `TTL ${ttl} ms ends at the reset (${toReset} ms away)`)
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

  t.test('a Redis that is down: every call rejects as unavailable, known not to have counted', async (t) => {
    const errors: Error[] = []
    const counter = new RedisQuotaCounter(createRedis('redis://127.0.0.1:1', (e) => errors.push(e)))
    t.teardown(() => counter.close())
    const consume = await counter.consume('k1', '2025-01', 10).then(
      () => undefined,
      (error: unknown) => error,
    )
    t.type(consume, CounterUnavailableError, `consume rejected: ${String(consume)}`)
    t.equal((consume as CounterUnavailableError).outcomeUnknown, false, 'never sent, so it did not count')
    await t.rejects(counter.ping(), CounterUnavailableError)
    t.ok(errors.length > 0, 'connection errors went to onError')
    t.same(counter.stats(), { backend: 'redis', up: false, errors: 1 }, 'down; the refused consume is an error, the readiness ping is not')
  })

  t.test('a closed counter rejects every call', async (t) => {
    const { counter, cleanup } = await make()
    t.teardown(cleanup)
    await counter.close()
    await t.rejects(counter.consume('k1', '2025-01', 10), /closed/)
    await t.rejects(counter.peek('k1', '2025-01'), /closed/)
  })

  t.test('reconcile refunds a consume that counted, once, and leaves others alone', async (t) => {
    const { counter, cleanup } = await make()
    t.teardown(cleanup)
    await counter.initialise('k1', '2025-01', 5, Date.now() + 60_000)
    t.same(await counter.consume('k1', '2025-01', 10, 'op-a'), { status: 'consumed', count: 6 })
    t.same(await counter.consume('k1', '2025-01', 10, 'op-b'), { status: 'consumed', count: 7 })
    t.equal(await counter.reconcile('k1', '2025-01', 'op-a'), true, 'op-a had counted')
    t.equal(await counter.peek('k1', '2025-01'), 6)
    t.equal(await counter.reconcile('k1', '2025-01', 'op-a'), false, 'a second reconcile of op-a changes nothing')
    t.equal(await counter.reconcile('k1', '2025-01', 'op-never'), false, 'an operation that never ran')
    t.equal(await counter.peek('k1', '2025-01'), 6)
  })
})

t.test('RedisQuotaCounter on a Redis of its own: restarts, lost scripts, lost replies', { skip: privateRedisUnavailable() ?? false }, async (t) => {
  const redis = await startPrivateRedis(t)
  const counter = new RedisQuotaCounter(createRedis(redis.url, () => undefined))
  t.teardown(() => counter.close())
  const later = Date.now() + 600_000

  await t.test('EVALSHA falls back to EVAL when Redis lost its script cache', async (t) => {
    await counter.initialise('k1', '2025-01', 0, later)
    t.same(await counter.consume('k1', '2025-01', 10), { status: 'consumed', count: 1 })
    await redis.command('SCRIPT', 'FLUSH')
    t.same(await counter.consume('k1', '2025-01', 10), { status: 'consumed', count: 2 }, 'the script is sent again')
  })

  await t.test('Redis stopped: unavailable at once; restarted: counting again, from an empty counter', async (t) => {
    await redis.stop()
    const down = await counter.consume('k1', '2025-01', 10).then(
      () => undefined,
      (error: unknown) => error,
    )
    t.type(down, CounterUnavailableError)
    t.equal((down as CounterUnavailableError).outcomeUnknown, false)
    await redis.start()
    let after: unknown
    for (let i = 0; i < 200; i++) {
      after = await counter.consume('k1', '2025-01', 10).catch((error: unknown) => error)
      if (!(after instanceof CounterUnavailableError)) break
      await sleep(50)
    }
    t.same(after, { status: 'uninitialised' }, 'the client reconnected by itself; the restarted Redis lost the count')
  })

  await t.test('a consume whose reply never came is reported as unknown, and reconciled', async (t) => {
    await counter.initialise('k2', '2025-01', 0, later)
    // Redis holds the command while paused; the client gives up waiting before it runs.
    await redis.command('CLIENT', 'PAUSE', 7000, 'ALL')
    const lost = await counter.consume('k2', '2025-01', 10, 'op-lost').then(
      () => undefined,
      (error: unknown) => error,
    )
    t.type(lost, CounterUnavailableError)
    t.equal((lost as CounterUnavailableError).outcomeUnknown, true, 'it may have counted')
    let reconciled: unknown
    for (let i = 0; i < 200; i++) {
      reconciled = await counter.reconcile('k2', '2025-01', 'op-lost').catch((error: unknown) => error)
      if (typeof reconciled === 'boolean') break
      await sleep(100)
    }
    t.equal(reconciled, true, 'it ran once Redis resumed, and was refunded')
    t.equal(await counter.peek('k2', '2025-01'), 0, 'so the key is not charged for it')
  })
})
