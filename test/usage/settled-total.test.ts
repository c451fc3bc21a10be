/**
 * settledTotal, what a lost shared counter is rebuilt from: it includes what every live
 * instance has journalled (waiting for their flushes), not what stopped instances did not
 * flush, and gives up with UsageNotSettledError when a live instance stays silent.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { KeysRepository } from '../../src/keys/keys.repository.js'
import { UsageJournal } from '../../src/usage/usage.journal.js'
import { UsageRepository } from '../../src/usage/usage.repository.js'
import { UsageNotSettledError, UsageService } from '../../src/usage/usage.service.js'
import type { DatabaseHandle } from '../../src/infra/database.js'
import { availableKinds, openTestDatabase } from '../helpers/database.js'

const quiet = { error: () => undefined, info: () => undefined }
const KEY = '00000000-0000-4000-8000-0000000000aa'
const PERIOD = '2026-11'

/** One instance's usage service on the shared database, with its own journal folder. */
function instance(t: Test, database: DatabaseHandle): { usage: UsageService; journal: UsageJournal } {
  const dir = mkdtempSync(join(tmpdir(), 'pv-settle-'))
  const journal = new UsageJournal(dir)
  const usage = new UsageService(new UsageRepository(database.db), journal, quiet)
  t.teardown(() => {
    journal.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { usage, journal }
}

for (const { kind, skip } of availableKinds()) {
  t.test(`settledTotal (${kind})`, { skip }, async (t) => {
    const database = await openTestDatabase(kind, { seeded: true })
    t.teardown(() => database.close())
    await new KeysRepository(database.db).insertWithinLimit(
      { id: KEY, accountId: 'a', name: 'k', keyHash: 'e'.repeat(64), prefix: 'pv_test', tier: 'free', allowedDomains: [] },
      25,
    )

    const a = instance(t, database)
    const b = instance(t, database)
    // B serves: it flushes every 100 ms and heartbeats.
    await b.usage.start(100)
    t.teardown(() => b.usage.stop())
    for (let i = 0; i < 4; i++) await a.usage.record(KEY, PERIOD, 'verse', 'faithful')
    for (let i = 0; i < 7; i++) await b.usage.record(KEY, PERIOD, 'verse', 'faithful')
    await t.test('includes what a live instance journalled but had not flushed', async (t) => {
      t.equal(await a.usage.settledTotal(KEY, PERIOD, { timeoutMs: 60_000, pollMs: 20 }), 11)
    })

    await t.test('a stopped instance is not waited for', async (t) => {
      await b.usage.stop()
      t.equal(await a.usage.settledTotal(KEY, PERIOD, { timeoutMs: 60_000, pollMs: 20 }), 11)
    })

    await t.test('a live instance that stays silent: UsageNotSettledError', async (t) => {
      const c = instance(t, database)
      // C announces itself when it starts; its next flush is a minute away.
      await c.usage.start(60_000)
      t.teardown(() => c.usage.stop())
      await t.rejects(a.usage.settledTotal(KEY, PERIOD, { timeoutMs: 300, pollMs: 20 }), UsageNotSettledError)
    })
  })
}
