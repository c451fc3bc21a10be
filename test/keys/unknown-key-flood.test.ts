/**
 * A flood of made-up keys does not become a flood of database queries: every key is held in
 * memory, a miss reaches the database only within MISS_LOOKUPS_PER_SECOND, and keys that
 * exist are answered from memory whatever the flood does.
 */
import t from 'tap'
import { generateKey } from '../../src/keys/key-format.js'
import { KeyVerifier, MISS_LOOKUPS_PER_SECOND } from '../../src/keys/key-verifier.js'
import { KeysRepository } from '../../src/keys/keys.repository.js'
import { KeysService } from '../../src/keys/keys.service.js'
import { loadConfig } from '../../src/config.js'
import { openTestDatabase } from '../helpers/database.js'

/** The real repository, counting the lookups by hash that reach the database. */
class CountingRepository extends KeysRepository {
  lookups = 0
  override async findByHash(keyHash: string): ReturnType<KeysRepository['findByHash']> {
    this.lookups++
    return super.findByHash(keyHash)
  }
}

t.test('made-up keys cost at most the miss budget in database lookups', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  const repository = new CountingRepository(database.db)
  let now = 1_000_000
  const logger = { error: () => undefined }
  const verifier = new KeyVerifier(repository, { pollIntervalMs: 60_000, now: () => now, logger })
  const keys = new KeysService(repository, verifier, loadConfig({}).quotas)
  const existing = await keys.create({ accountId: 'a', name: 'before start' })
  await verifier.load()

  t.same(await verifier.verify(existing.key), { ok: true, key: existing.record }, 'a key loaded at start')
  t.equal(repository.lookups, 0, 'is answered from memory')

  const made = Array.from({ length: 500 }, () => generateKey())
  const answers = await Promise.all(made.map((key) => verifier.verify(key)))
  t.ok(
    answers.every((a) => !a.ok && a.reason === 'unknown'),
    'every made-up key is unknown',
  )
  t.equal(repository.lookups, MISS_LOOKUPS_PER_SECOND, `500 made-up keys cost ${MISS_LOOKUPS_PER_SECOND} lookups, the budget`)

  const created = await keys.create({ accountId: 'a', name: 'during the flood' })
  const before = repository.lookups
  t.equal((await verifier.verify(created.key)).ok, true, 'a key created on this instance works at once')
  t.equal((await verifier.verify(existing.key)).ok, true, 'known keys are unaffected by the flood')
  t.equal(repository.lookups, before, 'without a database lookup')

  // A key created by another instance (straight into the database) while the budget is spent:
  const elsewhere = generateKey()
  const other = new KeysService(
    new KeysRepository(database.db),
    new KeyVerifier(new KeysRepository(database.db), { pollIntervalMs: 60_000, now: () => now, logger }),
    loadConfig({}).quotas,
    () => elsewhere,
  )
  await other.create({ accountId: 'b', name: 'other instance' })
  t.equal((await verifier.verify(elsewhere)).ok, false, 'refused while the budget is spent')
  now += 1_000
  t.equal((await verifier.verify(elsewhere)).ok, true, 'accepted once the budget refills (or at the next poll)')
})

t.test('a poll brings keys created elsewhere into memory', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  const repository = new CountingRepository(database.db)
  const logger = { error: () => undefined }
  const verifier = new KeyVerifier(repository, { pollIntervalMs: 60_000, now: () => Date.now(), logger })
  await verifier.load()
  const other = new KeysService(
    new KeysRepository(database.db),
    new KeyVerifier(new KeysRepository(database.db), { pollIntervalMs: 60_000, now: () => Date.now(), logger }),
    loadConfig({}).quotas,
  )
  const created = await other.create({ accountId: 'b', name: 'other instance' })
  await verifier.poll()
  t.equal(verifier.verifyCached(created.key)?.ok, true, 'known from memory after the poll')
  t.equal(repository.lookups, 0)
})

t.test('a burst of requests with one key missing from memory costs one lookup', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  const repository = new CountingRepository(database.db)
  const logger = { error: () => undefined }
  const verifier = new KeyVerifier(repository, { pollIntervalMs: 60_000, now: () => Date.now(), logger })
  const other = new KeysService(
    new KeysRepository(database.db),
    new KeyVerifier(new KeysRepository(database.db), { pollIntervalMs: 60_000, now: () => Date.now(), logger }),
    loadConfig({}).quotas,
  )
  const created = await other.create({ accountId: 'b', name: 'other instance' })
  const answers = await Promise.all(Array.from({ length: 50 }, () => verifier.verify(created.key)))
  t.ok(
    answers.every((a) => a.ok),
    'all 50 accepted',
  )
  t.equal(repository.lookups, 1, 'with one database lookup')
})
