/**
 * The behaviour every QuotaCounter must have, run once per implementation so that the
 * in-process and Redis counters cannot drift apart. Not a test file itself (no `.test.ts`):
 * each implementation's test file calls `counterContract`.
 */
import type { Test } from 'tap'
import type { ConsumeResult, QuotaCounter } from '../../src/quotas/counter.js'

/** A fresh counter in its own namespace, and how to remove what it stored. */
export interface CounterFixture {
  readonly counter: QuotaCounter
  readonly cleanup: () => Promise<void>
}

/** An hour ahead: far enough that nothing expires during a test. */
function later(): number {
  return Date.now() + 3_600_000
}

/**
 * Registers the shared contract as subtests of `t`.
 *
 * @param t - The parent test.
 * @param name - The implementation's name, shown in the subtest titles.
 * @param make - Creates a fresh counter; its `cleanup` runs when the subtest ends.
 */
export function counterContract(t: Test, name: string, make: () => Promise<CounterFixture>): void {
  /** Runs `body` with a fresh counter, cleaning up however the body ends. */
  const check = (title: string, body: (t: Test, counter: QuotaCounter) => Promise<void>): void => {
    t.test(`${name}: ${title}`, async (t) => {
      const { counter, cleanup } = await make()
      t.teardown(cleanup)
      await body(t, counter)
    })
  }

  check('a counter starts uninitialised, and consume and refund do not create it', async (t, c) => {
    t.same(await c.consume('k1', '2025-01', 10), { status: 'uninitialised' })
    t.equal(await c.peek('k1', '2025-01'), undefined)
    await c.refund('k1', '2025-01')
    t.equal(await c.peek('k1', '2025-01'), undefined, 'refund does not start a counter at 0')
    t.same(await c.consume('k1', '2025-01', 0), { status: 'uninitialised' }, 'even with a limit of 0')
  })

  check('reconcile of a consume that never ran changes nothing', async (t, c) => {
    await c.initialise('k1', '2025-01', 4, later())
    t.equal(await c.reconcile('k1', '2025-01', 'never-sent'), false)
    t.equal(await c.peek('k1', '2025-01'), 4)
  })

  check('initialise, then consume up to the limit', async (t, c) => {
    t.equal(await c.initialise('k1', '2025-01', 0, later()), 0)
    t.equal(await c.peek('k1', '2025-01'), 0)
    t.same(await c.consume('k1', '2025-01', 3), { status: 'consumed', count: 1 })
    t.same(await c.consume('k1', '2025-01', 3), { status: 'consumed', count: 2 })
    t.same(await c.consume('k1', '2025-01', 3), { status: 'consumed', count: 3 })
    t.same(await c.consume('k1', '2025-01', 3), { status: 'exhausted', count: 3 })
    t.equal(await c.peek('k1', '2025-01'), 3)
    t.same(await c.consume('k1', '2025-01', 4), { status: 'consumed', count: 4 }, 'a raised limit allows more')
  })

  check('exhausted does not increment', async (t, c) => {
    await c.initialise('k1', '2025-01', 7, later())
    for (let i = 0; i < 5; i++) t.same(await c.consume('k1', '2025-01', 7), { status: 'exhausted', count: 7 })
    t.equal(await c.peek('k1', '2025-01'), 7)
    // A ledger total above a (since lowered) limit stays as it is.
    t.same(await c.consume('k1', '2025-01', 5), { status: 'exhausted', count: 7 })
    t.same(await c.consume('k1', '2025-01', 0), { status: 'exhausted', count: 7 })
    t.equal(await c.peek('k1', '2025-01'), 7)
  })

  check('initialise does not overwrite an existing value', async (t, c) => {
    t.equal(await c.initialise('k1', '2025-01', 10, later()), 10)
    t.equal(await c.initialise('k1', '2025-01', 0, later()), 10, 'returns the value already there')
    await c.consume('k1', '2025-01', 100)
    t.equal(await c.initialise('k1', '2025-01', 3, later()), 11, 'nor a count already consumed from')
    t.equal(await c.peek('k1', '2025-01'), 11)
  })

  check('concurrent initialisations agree on one value', async (t, c) => {
    const values = Array.from({ length: 50 }, (_, i) => i + 100)
    const results = await Promise.all(values.map((v) => c.initialise('k1', '2025-01', v, later())))
    const winner = await c.peek('k1', '2025-01')
    t.ok(winner !== undefined && values.includes(winner))
    t.ok(
      results.every((r) => r === winner),
      'every caller sees the value that won',
    )
  })

  check('refund removes one unit and never goes below 0', async (t, c) => {
    await c.initialise('k1', '2025-01', 0, later())
    await c.consume('k1', '2025-01', 5)
    await c.consume('k1', '2025-01', 5)
    await c.refund('k1', '2025-01')
    t.equal(await c.peek('k1', '2025-01'), 1)
    await c.refund('k1', '2025-01')
    await c.refund('k1', '2025-01')
    await c.refund('k1', '2025-01')
    t.equal(await c.peek('k1', '2025-01'), 0)
    t.same(await c.consume('k1', '2025-01', 1), { status: 'consumed', count: 1 })
    await c.initialise('k2', '2025-01', 5, later())
    await Promise.all(Array.from({ length: 20 }, () => c.refund('k2', '2025-01')))
    t.equal(await c.peek('k2', '2025-01'), 0, 'concurrent refunds stop at 0')
  })

  check('keys and periods are independent', async (t, c) => {
    await c.initialise('k1', '2025-01', 5, later())
    t.same(await c.consume('k1', '2025-02', 10), { status: 'uninitialised' }, 'another period')
    t.same(await c.consume('k2', '2025-01', 10), { status: 'uninitialised' }, 'another key')
    await c.initialise('k1', '2025-02', 0, later())
    await c.initialise('k2', '2025-01', 9, later())
    t.same(await c.consume('k1', '2025-01', 10), { status: 'consumed', count: 6 })
    t.same(await c.consume('k1', '2025-02', 10), { status: 'consumed', count: 1 })
    t.same(await c.consume('k2', '2025-01', 10), { status: 'consumed', count: 10 })
    await c.refund('k2', '2025-01')
    t.equal(await c.peek('k1', '2025-01'), 6)
    t.equal(await c.peek('k1', '2025-02'), 1)
    t.equal(await c.peek('k2', '2025-01'), 9)
    // Key ids are opaque: one that looks like a key plus a period is still its own counter.
    t.same(await c.consume('k1:2025-01', '2025-02', 10), { status: 'uninitialised' })
  })

  check('exact under concurrency: with R left, exactly R of N concurrent consumes succeed', async (t, c) => {
    const limit = 1000
    const left = 37
    const attempts = 200
    await c.initialise('k1', '2025-01', limit - left, later())
    const results: ConsumeResult[] = await Promise.all(Array.from({ length: attempts }, () => c.consume('k1', '2025-01', limit)))
    const consumed = results.filter((r) => r.status === 'consumed')
    const exhausted = results.filter((r) => r.status === 'exhausted')
    t.equal(consumed.length, left, 'exactly R consumed')
    t.equal(exhausted.length, attempts - left, 'the rest exhausted')
    const counts = consumed.map((r) => r.count).sort((a, b) => a - b)
    t.same(
      counts,
      Array.from({ length: left }, (_, i) => limit - left + i + 1),
      'each success saw a distinct count',
    )
    t.ok(
      exhausted.every((r) => r.count === limit),
      'exhausted reports the limit',
    )
    t.equal(await c.peek('k1', '2025-01'), limit, 'final count is the limit')
  })

  check('peek reads without changing the count', async (t, c) => {
    t.equal(await c.peek('k1', '2025-01'), undefined)
    await c.initialise('k1', '2025-01', 4, later())
    t.equal(await c.peek('k1', '2025-01'), 4)
    t.equal(await c.peek('k1', '2025-01'), 4)
    t.same(await c.consume('k1', '2025-01', 10), { status: 'consumed', count: 5 })
  })

  check('initialise for a period already over stores nothing', async (t, c) => {
    t.equal(await c.initialise('k1', '2024-12', 3, Date.now() - 1000), 3)
    t.equal(await c.peek('k1', '2024-12'), undefined)
    t.same(await c.consume('k1', '2024-12', 10), { status: 'uninitialised' })
  })

  check('bad arguments reject with a RangeError and change nothing', async (t, c) => {
    await t.rejects(c.consume('', '2025-01', 1), RangeError)
    await t.rejects(c.consume('k1', '2025:01', 1), RangeError)
    await t.rejects(c.consume('k1', '2025-01', -1), RangeError)
    await t.rejects(c.consume('k1', '2025-01', 1.5), RangeError)
    await t.rejects(c.initialise('k1', '2025-01', -1, later()), RangeError)
    await t.rejects(c.initialise('k1', '2025-01', Number.NaN, later()), RangeError)
    await t.rejects(c.initialise('k1', '2025-01', 0, 0), RangeError)
    await t.rejects(c.initialise('k1', '2025-01', 0, Number.POSITIVE_INFINITY), RangeError)
    t.equal(await c.peek('k1', '2025-01'), undefined)
  })

  check('stats: up and without errors while open, down once closed', async (t, c) => {
    await c.initialise('k1', '2025-01', 0, later())
    await c.consume('k1', '2025-01', 1)
    await c.consume('k1', '2025-01', 1)
    t.match(c.stats(), { up: true, errors: 0 }, 'an exhausted quota is no backend error')
    t.match(c.stats().backend, /^(?:memory|redis)$/)
    await c.close()
    t.equal(c.stats().up, false)
  })

  check('hit counts per id and window, exactly under concurrency, and a new window starts again at 1', async (t, c) => {
    t.equal(await c.hit('key:a', 1000), 1)
    t.equal(await c.hit('key:a', 1000), 2)
    t.equal(await c.hit('ip:127.0.0.1', 1000), 1, 'another id has its own count')
    const counts = await Promise.all(Array.from({ length: 40 }, () => c.hit('key:b', 1000)))
    t.same(
      [...counts].sort((a, b) => a - b),
      Array.from({ length: 40 }, (_, i) => i + 1),
      'forty concurrent hits get forty distinct counts',
    )
    t.equal(await c.hit('key:a', 1001), 1, 'the next window starts at 1')
    t.equal(await c.hit('key:b', 1001), 1)
  })

  check('ping resolves while open and rejects once closed; so do the other calls', async (t, c) => {
    await t.resolves(c.ping())
    await c.close()
    await t.rejects(c.ping())
    await t.rejects(c.consume('k1', '2025-01', 1))
    await t.rejects(c.peek('k1', '2025-01'))
    await t.rejects(async () => c.hit('key:a', 1000))
  })
}
