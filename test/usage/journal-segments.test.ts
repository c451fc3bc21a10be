/**
 * The journal's segments: a flush starts a new file once the current one is large (a rename,
 * not a rewrite), a segment goes once the ledger holds it, and a restart after a crash replays
 * every segment's unapplied entries exactly once, a torn last line ignored. A flush that fails
 * keeps its queries for the next one.
 */
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { KeysRepository } from '../../src/keys/keys.repository.js'
import { UsageJournal } from '../../src/usage/usage.journal.js'
import { UsageRepository } from '../../src/usage/usage.repository.js'
import { UsageService } from '../../src/usage/usage.service.js'
import { openTestDatabase } from '../helpers/database.js'

const KEY = '00000000-0000-4000-8000-0000000000b1'
const PERIOD = '2026-11'
const silent = { error: () => undefined, info: () => undefined }

/** The journal's files in `dir`, sorted. */
function journalFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith('usage.journal'))
    .sort()
}

/** Whether `path` is gone once the journal's (asynchronous) segment deletions have ended. */
async function gone(journal: UsageJournal, path: string): Promise<boolean> {
  await journal.deletionsSettled()
  return !existsSync(path)
}

t.test('segments: rotation, deletion once applied, replay of every segment after a crash', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  await new KeysRepository(database.db).insertWithinLimit(
    { id: KEY, accountId: 'a', name: 'k', keyHash: 'b'.repeat(64), prefix: 'pv_test', tier: 'free', allowedDomains: [] },
    25,
  )
  const dir = mkdtempSync(join(tmpdir(), 'pv-segments-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const repository = new UsageRepository(database.db)
  // Runs `during` inside the next apply: lines written while a flush waits on the database.
  let during: (() => Promise<void>) | undefined
  const slow = Object.create(repository) as UsageRepository
  slow.applyBatch = async (...args: Parameters<UsageRepository['applyBatch']>) => {
    const work = during
    during = undefined
    if (work !== undefined) await work()
    return repository.applyBatch(...args)
  }

  // Every flush finds the current file over the (tiny) limit and starts a new segment.
  const first = new UsageJournal(dir, { rotateAtBytes: 1 })
  const usage = new UsageService(slow, first, silent)
  t.equal(await usage.recover(), 0)
  for (let i = 0; i < 3; i++) await usage.record(KEY, PERIOD, 'verse', 'faithful')
  await usage.flush()
  t.same(journalFiles(dir), ['usage.journal', 'usage.journal.3'], 'the flushed file became segment 3; new lines go to a new file')
  for (let i = 0; i < 2; i++) await usage.record(KEY, PERIOD, 'verse', 'casual')
  await usage.flush()
  t.ok(await gone(first, join(dir, 'usage.journal.3')), 'segment 3 is deleted once the ledger holds sequence 3')
  t.same(journalFiles(dir), ['usage.journal', 'usage.journal.5'], 'and the file of 4 and 5 became segment 5')
  t.equal(await repository.keyTotal(KEY, PERIOD), 5)

  // 7 is written while the flush of 6 waits on the database: segment 7 holds a line the ledger does not.
  await usage.record(KEY, PERIOD, 'search', 'all')
  during = () => usage.record(KEY, PERIOD, 'verse', 'all')
  await usage.flush()
  t.ok(await gone(first, join(dir, 'usage.journal.5')))
  t.same(journalFiles(dir), ['usage.journal', 'usage.journal.7'])
  t.equal(await repository.appliedSeq(first.journalId), 6)
  // One more, then the process dies mid-write: no flush, a torn last line.
  await usage.record(KEY, PERIOD, 'verse', 'all')
  t.equal(await usage.keyTotal(KEY, PERIOD), 8, 'a report holds the ledger and the journalled queries')
  first.close()
  appendFileSync(join(dir, 'usage.journal'), `9\t${KEY}\t${PERIOD}\tver`)

  const second = new UsageJournal(dir, { rotateAtBytes: 1 })
  const restarted = new UsageService(repository, second, silent)
  t.equal(second.backlog(), 3, 'every segment is read at opening: 6 (applied) and 7 in segment 7, 8 in the last file')
  t.equal(await restarted.recover(), 2, 'only the entries the ledger did not hold are replayed')
  t.equal(await repository.keyTotal(KEY, PERIOD), 8, 'every journalled query is in the ledger once; the torn line is not')
  const breakdown = await restarted.breakdown([KEY], PERIOD)
  t.same(breakdown.byEndpoint, { verse: 7, search: 1 })
  t.same(breakdown.byStyle, { faithful: 3, casual: 2, all: 3 })
  await restarted.record(KEY, PERIOD, 'verse', 'faithful')
  t.equal(await restarted.keyTotal(KEY, PERIOD), 9)
  await restarted.flush()
  t.equal(await repository.appliedSeq(second.journalId), 9, 'new lines follow the replayed ones (the torn line never had a sequence)')
  t.ok(await gone(second, join(dir, 'usage.journal.7')), 'the segments the ledger holds are deleted')
  t.ok(await gone(second, join(dir, 'usage.journal.8')), 'the file the crash left (torn line and all) became a segment and went too')
  second.close()

  const third = new UsageJournal(dir, { rotateAtBytes: 1 })
  t.equal(await new UsageService(repository, third, silent).recover(), 0, 'a second restart replays nothing')
  t.equal(await repository.keyTotal(KEY, PERIOD), 9)
  third.close()
})

t.test('a flush that fails keeps its queries; the next applies them once, with the new ones', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  await new KeysRepository(database.db).insertWithinLimit(
    { id: KEY, accountId: 'a', name: 'k', keyHash: 'c'.repeat(64), prefix: 'pv_test', tier: 'free', allowedDomains: [] },
    25,
  )
  const dir = mkdtempSync(join(tmpdir(), 'pv-segments-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const repository = new UsageRepository(database.db)
  let fail = true
  const flaky = Object.create(repository) as UsageRepository
  flaky.applyBatch = async (...args: Parameters<UsageRepository['applyBatch']>) => {
    if (fail) throw new Error('database unavailable')
    return repository.applyBatch(...args)
  }
  const journal = new UsageJournal(dir, { rotateAtBytes: 1 })
  t.teardown(() => journal.close())
  const usage = new UsageService(flaky, journal, silent)
  for (let i = 0; i < 3; i++) await usage.record(KEY, PERIOD, 'verse', 'faithful')
  await t.rejects(usage.flush(), /database unavailable/)
  t.equal(usage.stats().backlog, 3, 'the backlog keeps the queries of the failed flush')
  await usage.record(KEY, PERIOD, 'verse', 'faithful')
  await usage.record(KEY, PERIOD, 'passage', 'all')
  t.equal(await usage.keyTotal(KEY, PERIOD), 5)
  fail = false
  await usage.flush()
  t.equal(usage.stats().backlog, 0)
  t.equal(await repository.keyTotal(KEY, PERIOD), 5, 'both batches applied, each once')
  t.same((await repository.rowsFor([KEY], PERIOD)).map((r) => [r.endpoint, r.style, r.queries]).sort(), [
    ['passage', 'all', 1],
    ['verse', 'faithful', 4],
  ])
  t.equal(await repository.appliedSeq(journal.journalId), 5)
})
