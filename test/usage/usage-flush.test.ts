/** A flush whose commit succeeded but whose acknowledgement was lost never counts twice. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { UsageJournal } from '../../src/usage/usage.journal.js'
import { UsageRepository } from '../../src/usage/usage.repository.js'
import { UsageService } from '../../src/usage/usage.service.js'
import { KeysRepository } from '../../src/keys/keys.repository.js'
import { openTestDatabase } from '../helpers/database.js'

t.test('a lost acknowledgement after COMMIT', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  const dir = mkdtempSync(join(tmpdir(), 'pv-flush-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const key = await new KeysRepository(database.db).insertWithinLimit(
    { id: '00000000-0000-4000-8000-000000000001', accountId: 'a', name: 'k', keyHash: 'h'.repeat(64), prefix: 'pv_test', tier: 'free', allowedDomains: [] },
    25,
  )
  t.ok(key)
  const repository = new UsageRepository(database.db)
  // The first apply commits, then reports a failure, as a connection dropped after COMMIT would.
  let lose = true
  const flaky = Object.create(repository) as UsageRepository
  flaky.applyBatch = async (...args: Parameters<UsageRepository['applyBatch']>) => {
    const result = await repository.applyBatch(...args)
    if (lose) {
      lose = false
      throw new Error('connection lost after COMMIT')
    }
    return result
  }
  const journal = new UsageJournal(dir)
  const usage = new UsageService(flaky, journal, { error: () => undefined, info: () => undefined })
  t.teardown(() => journal.close())
  for (let i = 0; i < 3; i++) await usage.record(key?.id ?? '', '2026-11', 'verse', 'faithful')
  await t.rejects(usage.flush(), /connection lost/)
  t.equal(await usage.keyTotal(key?.id ?? '', '2026-11'), 3, 'reported once, not ledger + pending')
  await usage.record(key?.id ?? '', '2026-11', 'verse', 'faithful')
  await usage.flush()
  t.equal(await repository.keyTotal(key?.id ?? '', '2026-11'), 4, 'the next flush applies only what is new')
  t.equal(journal.backlog(), 0)
})
