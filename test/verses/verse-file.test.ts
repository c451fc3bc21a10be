/**
 * The verse file: written for a KJV seed hash and read back as written; a file that does not
 * check out (altered, cut short, another format) is not used; writing one removes the files of
 * other hashes; and the stores load the same verses from it as from the table.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { readVerseFile, verseRecord, writeVerseFile } from '../../src/verses/verse.file.js'
import { VersesRepository } from '../../src/verses/verses.repository.js'
import { SeedRepository } from '../../src/seed/seed.repository.js'
import { loadStores } from '../../src/startup.js'
import { openTestDatabase } from '../helpers/database.js'

const VERSES = [
  verseRecord(1001001, 'In the beginning God created the heaven and the earth.'),
  verseRecord(1001002, 'And the earth was without form, and void; … “é”'),
]

function folder(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'pv-verse-file-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('reads back what was written, for that hash only', async (t) => {
  const dir = folder(t)
  t.equal(readVerseFile(dir, 'abc'), undefined, 'none yet')
  writeVerseFile(dir, 'abc', VERSES)
  t.same(readVerseFile(dir, 'abc'), VERSES)
  t.equal(readVerseFile(dir, 'other'), undefined)
  t.same(readVerseFile(dir, 'abc')?.[0], { id: 1001001, book: 1, chapter: 1, verse: 1, text: VERSES[0]?.text })
})

t.test('a file that does not check out is not used', async (t) => {
  const dir = folder(t)
  writeVerseFile(dir, 'abc', VERSES)
  const path = join(dir, 'kjv-abc.verses')
  const bytes = readFileSync(path)
  writeFileSync(path, Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from('X')]))
  t.equal(readVerseFile(dir, 'abc'), undefined, 'an altered text')
  writeFileSync(path, bytes.subarray(0, bytes.length - 10))
  t.equal(readVerseFile(dir, 'abc'), undefined, 'cut short')
  writeFileSync(path, Buffer.from(bytes.toString('latin1').replace('PVVERSES 1', 'PVVERSES 9'), 'latin1'))
  t.equal(readVerseFile(dir, 'abc'), undefined, 'another format version')
  writeFileSync(path, '')
  t.equal(readVerseFile(dir, 'abc'), undefined, 'empty')
})

t.test('writing a file removes those of other hashes; a hash that cannot name a file writes none', async (t) => {
  const dir = folder(t)
  writeVerseFile(dir, 'old', VERSES)
  writeVerseFile(dir, 'new', VERSES)
  t.same(readdirSync(dir), ['kjv-new.verses'])
  writeVerseFile(dir, '../escape', VERSES)
  t.same(readdirSync(dir), ['kjv-new.verses'])
  t.equal(readVerseFile(dir, '../escape'), undefined)
  t.throws(() => writeVerseFile(dir, 'x', [verseRecord(1001001, 'a\u001eb')]), /reserves/)
})

t.test('the stores load the table’s verses, then the same verses from the file', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  const dir = folder(t)
  const hash = await new SeedRepository(database.db).loadedHash('kjv')
  t.ok(hash, 'the test database is seeded')
  const fromTable = await new VersesRepository(database.db).listAll()
  const first = await loadStores(database.db, { packDir: dir })
  t.teardown(() => first.content.close())
  t.ok(readdirSync(dir).includes(`kjv-${hash}.verses`), 'the file is written')
  t.same(readVerseFile(dir, hash ?? ''), fromTable)
  const second = await loadStores(database.db, { packDir: dir })
  t.teardown(() => second.content.close())
  t.equal(second.verses.size, fromTable.length)
  t.same([...second.verses.all()], [...first.verses.all()])
  t.equal(first.kjvSeedHash, hash, 'the stores name the KJV seed their verses came from (from the table)')
  t.equal(second.kjvSeedHash, hash, 'and from the file')
})
