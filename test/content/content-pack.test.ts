/**
 * The content pack: what goes in comes out (every field, nulls, empty strings, non-ASCII), the
 * precedence rule holds through it, a changed content revision gets a new pack, and a pack that
 * does not check out (cut short, garbled, another revision's) is rebuilt rather than read.
 */
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import t, { type Test } from 'tap'
import { ContentPack, contentPackName, writeContentPack } from '../../src/content/content.pack.js'
import { ContentRepository } from '../../src/content/content.repository.js'
import { outranks, ContentStore, type StyleContent } from '../../src/content/content.store.js'
import { loadStores } from '../../src/startup.js'
import { openTestDatabase, removeWrittenContent } from '../helpers/database.js'

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pv-pack-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function row(verseId: number, style: StyleContent['style'], method: StyleContent['method'], fields: Partial<StyleContent> = {}): StyleContent {
  return {
    verseId,
    style,
    method,
    model: method === 'generated' ? 'some-model' : null,
    promptVersion: `${method}-1`,
    simplifiedText: `${method} text of ${verseId} (${style})`,
    bottomLine: null,
    historicalContext: null,
    practicalReflection: null,
    ...fields,
  }
}

async function* slicesOf(...slices: StyleContent[][]): AsyncGenerator<StyleContent[]> {
  for (const slice of slices) yield slice
}

/** A pack of a few hundred rows across two slices, with every kind of field value. */
const SAMPLE: StyleContent[][] = [
  [
    row(1001001, 'faithful', 'curated', {
      model: null,
      promptVersion: '',
      simplifiedText: 'In the beginning — “God” made ‘everything’ 🌍✨',
      bottomLine: '',
      historicalContext: 'Ancient Near East: Ἐν ἀρχῇ, בְּרֵאשִׁית',
      practicalReflection: null,
    }),
    row(1001001, 'casual', 'generated', { simplifiedText: '', bottomLine: null, historicalContext: '', practicalReflection: 'Think 🤔 about it.' }),
    row(1001002, 'faithful', 'modernized'),
    // Precedence inside a slice: curated over generated over modernized, in any order.
    row(1001003, 'faithful', 'modernized'),
    row(1001003, 'faithful', 'curated'),
    row(1001003, 'faithful', 'generated'),
    row(1001004, 'casual', 'modernized'),
    row(1001004, 'casual', 'generated'),
    // A record larger than the reader's first buffer.
    row(1001005, 'faithful', 'curated', { historicalContext: 'long — '.repeat(2_000) }),
  ],
  // Enough rows of ~1 KB for the in-order walk to take several chunks.
  Array.from({ length: 3_000 }, (_, i) => row(2001001 + i, i % 2 === 0 ? 'faithful' : 'casual', 'generated', { bottomLine: `${i} ${'é'.repeat(500)}` })),
]

/** The rows a pack must serve: the one that outranks the others for each verse and style. */
function effective(slices: StyleContent[][]): Map<string, StyleContent> {
  const won = new Map<string, StyleContent>()
  for (const r of slices.flat()) {
    const key = `${r.verseId}:${r.style}`
    const current = won.get(key)
    if (current === undefined || outranks(r.method, current.method)) won.set(key, r)
  }
  return won
}

/** The packs in a folder (loadStores also keeps the verse file there). */
function packsIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.pack'))
}

t.test('a pack serves every field as written, with the precedence rule', async (t) => {
  const dir = tempDir(t)
  const pack = await writeContentPack(dir, 'token-a', slicesOf(...SAMPLE))
  t.teardown(() => pack.close())
  const store = new ContentStore(pack)
  const expected = effective(SAMPLE)
  t.equal(store.size, expected.size)
  const rows = [...expected.values()]
  t.same(
    rows.map((r) => store.get(r.verseId, r.style)),
    rows,
    'every row that wins, every field as written',
  )
  t.equal(store.get(1001003, 'faithful')?.method, 'curated', 'curated over generated and modernized')
  t.equal(store.get(1001004, 'casual')?.method, 'generated', 'generated over modernized')
  const first = store.get(1001001, 'faithful')
  t.equal(first?.model, null, 'a null stays null')
  t.equal(first?.bottomLine, '', 'an empty string stays empty')
  t.equal(first?.promptVersion, '')
  t.equal(store.get(1001002, 'casual'), undefined, 'a style with no content')
  t.equal(store.get(9001001, 'faithful'), undefined, 'a verse with no content')

  const walked = [...store.entries()]
  const ordered = [...expected.values()].sort((a, b) => a.verseId - b.verseId || (a.style === b.style ? 0 : a.style === 'faithful' ? -1 : 1))
  t.same(walked, ordered, 'entries(): every entry, in verse order, faithful first')
  t.same(readdirSync(dir), [contentPackName('token-a')], 'no temporary file is left')

  store.close()
  t.throws(() => store.get(1001001, 'faithful'), /closed/, 'a closed store reads nothing')
})

t.test('writing a pack removes the packs of other revisions', async (t) => {
  const dir = tempDir(t)
  ;(await writeContentPack(dir, 'old', slicesOf(...SAMPLE))).close()
  const pack = await writeContentPack(dir, 'new', slicesOf([row(1001001, 'faithful', 'curated')]))
  t.teardown(() => pack.close())
  t.same(readdirSync(dir), [contentPackName('new')])
  t.equal(ContentPack.open(dir, 'old'), undefined)
})

t.test('a pack that does not check out is never read', async (t) => {
  const dir = tempDir(t)
  ;(await writeContentPack(dir, 'good', slicesOf(...SAMPLE))).close()
  const path = join(dir, contentPackName('good'))
  const bytes = readFileSync(path)
  const opened = ContentPack.open(dir, 'good')
  t.ok(opened, 'the pack as written opens')
  opened?.close()

  truncateSync(path, bytes.length - 3)
  t.equal(ContentPack.open(dir, 'good'), undefined, 'cut short')
  truncateSync(path, 10)
  t.equal(ContentPack.open(dir, 'good'), undefined, 'cut inside its header')

  const garbledIndex = Buffer.from(bytes)
  garbledIndex[bytes.length - 20] = (garbledIndex[bytes.length - 20] ?? 0) ^ 0xff
  writeFileSync(path, garbledIndex)
  t.equal(ContentPack.open(dir, 'good'), undefined, 'a garbled index')

  const garbledHeader = Buffer.from(bytes)
  garbledHeader[12] = (garbledHeader[12] ?? 0) ^ 0x01
  writeFileSync(path, garbledHeader)
  t.equal(ContentPack.open(dir, 'good'), undefined, 'a garbled record count')

  writeFileSync(path, bytes)
  renameSync(path, join(dir, contentPackName('other')))
  t.equal(ContentPack.open(dir, 'other'), undefined, "another revision's pack under this revision's name")
  t.throws(() => contentPackName('../escape'), /cannot name a pack file/)
})

t.test('the pack follows the database: a new revision, a new pack; a damaged pack is rebuilt', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  const dir = tempDir(t)
  const repository = new ContentRepository(database.db)
  const token = await repository.revision()
  t.match(token, /^[0-9a-f-]{36}$/, 'the seeded database has a random revision')

  const first = await loadStores(database.db, { packDir: dir })
  t.same(packsIn(dir), [contentPackName(token)])
  t.equal(first.content.revision, token, 'the store names the revision it serves (the saved search index is keyed by it)')
  // The whole content through the pack, against the table read directly.
  const expected = effective([await repository.listAll()])
  t.equal(first.content.size, expected.size)
  let same = 0
  for (const r of expected.values()) if (JSON.stringify(first.content.get(r.verseId, r.style)) === JSON.stringify(r)) same++
  t.equal(same, expected.size, 'every verse and style serves the row that wins')
  t.equal(first.content.get(31001004, 'casual')?.method, 'generated', 'Obadiah 1:4 has written content')
  first.content.close()

  t.ok((await removeWrittenContent(database.db, [31001004])) >= 2)
  const changed = await repository.revision()
  t.not(changed, token, 'a change to the content changes the revision')
  const second = await loadStores(database.db, { packDir: dir })
  t.teardown(() => second.content.close())
  t.same(packsIn(dir), [contentPackName(changed)], "the new revision's pack replaced the old one")
  t.equal(second.content.revision, changed)
  t.equal(second.content.get(31001004, 'faithful')?.method, 'modernized', 'the new pack serves the new content')
  t.equal(second.content.get(31001004, 'casual'), undefined)

  await database.db.deleteFrom('verse_content').where('verse_id', '=', -1).execute()
  const untouched = await repository.revision()
  t.not(untouched, changed, 'any statement on verse content changes it, even one that changes no row')
  await sql`truncate verse_content`.execute(database.db)
  t.not(await repository.revision(), untouched, 'a truncate changes it too')
  await t.rejects(database.db.insertInto('content_revision').values({ token: 'second' }).execute(), 'the revision table holds one row')
  await t.rejects(database.db.insertInto('content_revision').values({ id: false, token: 'second' }).execute(), 'and only one')
})

t.test('a damaged pack in the folder is rebuilt by loadStores', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  const dir = tempDir(t)
  const token = await new ContentRepository(database.db).revision()
  const first = await loadStores(database.db, { packDir: dir })
  const john316 = first.content.get(43003016, 'faithful')
  first.content.close()
  const path = join(dir, contentPackName(token))
  truncateSync(path, readFileSync(path).length - 1)
  const second = await loadStores(database.db, { packDir: dir })
  t.teardown(() => second.content.close())
  t.same(second.content.get(43003016, 'faithful'), john316, 'rebuilt, and serving the same content')
  const reopened = ContentPack.open(dir, token)
  t.ok(reopened, 'the file checks out again')
  reopened?.close()
})
