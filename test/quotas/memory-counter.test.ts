import t from 'tap'
import { MemoryQuotaCounter } from '../../src/quotas/memory-counter.js'
import { counterContract } from './counter.contract.js'

counterContract(t, 'MemoryQuotaCounter', async () => {
  const counter = new MemoryQuotaCounter()
  return { counter, cleanup: () => counter.close() }
})

t.test('MemoryQuotaCounter: a counter is gone once its period has ended', async (t) => {
  let now = Date.UTC(2025, 0, 31, 23, 59, 59, 999)
  const counter = new MemoryQuotaCounter({ now: () => now })
  const end = Date.UTC(2025, 1, 1)
  t.equal(await counter.initialise('k1', '2025-01', 4, end), 4)
  t.same(await counter.consume('k1', '2025-01', 10), { status: 'consumed', count: 5 })
  now = end
  t.equal(await counter.peek('k1', '2025-01'), undefined, 'expired at the period end, like a Redis PXAT')
  t.same(await counter.consume('k1', '2025-01', 10), { status: 'uninitialised' })
  t.equal(counter.size, 0)
})

t.test('MemoryQuotaCounter: expired entries of keys never used again are swept, so memory stays bounded', async (t) => {
  let now = Date.UTC(2025, 0, 15)
  const counter = new MemoryQuotaCounter({ now: () => now })
  const end = Date.UTC(2025, 1, 1)
  for (let i = 0; i < 1000; i++) await counter.initialise(`k${i}`, '2025-01', i, end)
  t.equal(counter.size, 1000)
  // February: only one key is used, yet January's thousand entries go.
  now = Date.UTC(2025, 1, 1, 0, 5)
  await counter.initialise('k0', '2025-02', 0, Date.UTC(2025, 2, 1))
  t.equal(counter.size, 1)
})
