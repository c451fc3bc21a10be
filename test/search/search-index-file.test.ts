/**
 * The saved search index: a round trip gives an index equal to the built one (every array and
 * map, and the same search results), and a file that is missing, truncated, garbled, of
 * another format version or built from other texts (another key) is never used but rebuilt
 * and replaced.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import t, { type Test } from 'tap'
import { writeContentPack } from '../../src/content/content.pack.js'
import { ContentStore, type StyleContent } from '../../src/content/content.store.js'
import { NarrativeStore } from '../../src/narratives/narrative.store.js'
import { FIELDS, type SearchIndex } from '../../src/search/search.index.js'
import {
  decodeSearchIndex,
  encodeSearchIndex,
  SEARCH_INDEX_FILE,
  SEARCH_INDEX_FORMAT_VERSION,
  SearchIndexFileError,
} from '../../src/search/search.index-file.js'
import { SearchService, type SearchRequest } from '../../src/search/search.service.js'
import { SectionStore } from '../../src/sections/section.store.js'
import { VerseStore, verseId, type VerseRecord } from '../../src/verses/verse.store.js'
import { VersesService } from '../../src/verses/verses.service.js'
import { SEED_VERSES } from '../helpers/kjv.js'

/** Genesis 1, Psalm 23, Matthew 22 (Cæsar) and John 3: a few books, words with accents and apostrophes. */
const CHAPTERS = new Set(['1.1', '19.23', '40.22', '43.3'])
const VERSES: VerseRecord[] = SEED_VERSES.filter((v) => CHAPTERS.has(`${v.b}.${v.c}`)).map((v) => ({
  id: verseId(v.b, v.c, v.v),
  book: v.b,
  chapter: v.c,
  verse: v.v,
  text: v.text,
}))

/** Simplified texts for some verses: non-ASCII punctuation, a word only they hold, a verse without one. */
function contentRows(): StyleContent[] {
  const row = (id: number, style: 'faithful' | 'casual', text: string | null): StyleContent => ({
    verseId: id,
    style,
    method: 'curated',
    model: null,
    promptVersion: 'test',
    simplifiedText: text,
    bottomLine: null,
    historicalContext: null,
    practicalReflection: null,
  })
  return [
    row(verseId(43, 3, 16), 'faithful', 'For God loved the world so much — he gave his only Son, so that whoever believes in him won’t perish.'),
    row(verseId(43, 3, 16), 'casual', 'God loved everyone so much he gave his one and only Son; trust him and you’ll live forever. 🙂'),
    row(verseId(19, 23, 1), 'faithful', 'The LORD is my shepherd; I have everything I need.'),
    row(verseId(40, 22, 21), 'casual', '“Give Caesar what’s Caesar’s,” Jesus said, “and God what’s God’s.” Zebulunite'),
    row(verseId(1, 1, 1), 'casual', null),
  ]
}

const verses = new VerseStore(VERSES)
/** The content as the server reads it: from a content pack (in a folder of this test's own). */
async function contentStore(): Promise<ContentStore> {
  const dir = mkdtempSync(join(tmpdir(), 'pv-search-content-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const pack = await writeContentPack(
    dir,
    'search-index-file-test',
    (async function* () {
      yield contentRows()
    })(),
  )
  const store = new ContentStore(pack)
  t.teardown(() => store.close())
  return store
}

const content = await contentStore()
const resources = new VersesService({
  verses,
  content,
  config: { publicBaseUrl: 'https://plainverse.test', attributionSource: 'KJV', attributionLicense: 'Public domain' },
  intros: new Map(),
  narratives: new NarrativeStore([], () => []),
  sections: new SectionStore([], () => []),
})

/** One line the service logged (pino's levels: 30 info, 40 warn). */
type LogLine = Record<string, unknown> & { readonly level: number; readonly msg: string }
const INFO = 30
const WARN = 40

/** A service over the verses above, saving in `dir` under `key` when both are given, with what it logs. */
function service(options: { dir?: string; key?: string } = {}): { search: SearchService; logs: LogLine[] } {
  const logs: LogLine[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') logs.push(JSON.parse(line) as LogLine)
      done()
    },
  })
  const search = new SearchService({
    verses,
    content,
    resources,
    logger: pino({ level: 'info' }, sink),
    ...(options.dir === undefined ? {} : { indexDir: options.dir }),
    ...(options.key === undefined ? {} : { indexKey: options.key }),
  })
  return { search, logs }
}

function scratchDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pv-search-index-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return join(dir, 'search')
}

/** Every array and map of an index, as plain values (typed arrays keep their type's name). */
function contentsOf(index: SearchIndex): unknown {
  const parts = index.parts()
  const typed = (array: ArrayLike<number>) => ({ type: array.constructor.name, values: Array.from(array) })
  return {
    verseIds: typed(parts.verseIds),
    books: [...parts.books],
    stemIds: [...parts.stemIds],
    baseStems: [...parts.baseStems],
    surfaceIds: [...parts.surfaceIds],
    fields: FIELDS.map((name) => {
      const f = parts.fields[name].parts()
      return {
        name,
        docCount: f.docCount,
        postingStart: typed(f.postingStart),
        postingDocs: typed(f.postingDocs),
        postingTfs: typed(f.postingTfs),
        norms: typed(f.norms),
        words: typed(f.words),
        wordStart: typed(f.wordStart),
      }
    }),
  }
}

const SEARCHES: readonly SearchRequest[] = [
  { q: 'love', style: 'faithful', limit: 50 },
  { q: '"God so loved the world"', style: 'all', limit: 10 },
  { q: 'shepherd', style: 'faithful', limit: 5 },
  { q: 'caesar', style: 'casual', limit: 10 },
  { q: "Caesar's", style: 'all', limit: 10 },
  { q: 'zebulunite', style: 'casual', limit: 10 },
  { q: 'believe', style: 'all', limit: 3, book: 'john' },
  { q: 'the', style: 'all', limit: 50, book: 'genesis' },
  { q: 'won’t perish', style: 'faithful', limit: 10 },
]

/** The results of every search above, following each cursor once. */
async function resultsOf(search: SearchService): Promise<unknown[]> {
  const results: unknown[] = []
  for (const request of SEARCHES) {
    const first = await search.search(request)
    results.push(first)
    if (first.next_cursor !== null) results.push(await search.search({ ...request, cursor: first.next_cursor }))
  }
  return results
}

t.test('without a folder and a key the index is built in memory and nothing is saved', async (t) => {
  const { search } = service()
  t.equal(await search.load(), false)
  t.equal(search.stats().state, 'cold')
  t.equal((await search.warm()).size, VERSES.length)
  await search.flush()
  t.equal(search.stats().state, 'ready')
})

t.test('no file: built, then saved; a later service loads an equal index that answers the same', async (t) => {
  const dir = scratchDir(t)
  const built = service({ dir, key: 'k1' })
  t.equal(await built.search.load(), false, 'nothing to load')
  t.match(built.logs, [{ level: INFO, msg: 'no saved search index; it is built once the server listens' }])
  const builtIndex = await built.search.warm()
  await built.search.flush()
  const file = join(dir, SEARCH_INDEX_FILE)
  t.ok(existsSync(file), 'saved')
  t.match(
    built.logs.find((l) => l.msg === 'search index saved'),
    { level: INFO, bytes: statSync(file).size },
  )
  t.same(readdirSync(dir), [SEARCH_INDEX_FILE], 'no temporary file is left')
  // A word only the simplified texts hold is indexed (the content is part of the index).
  t.equal((await built.search.search({ q: 'zebulunite', style: 'casual', limit: 1 })).total, 1)

  const loaded = service({ dir, key: 'k1' })
  t.equal(await loaded.search.load(), true, 'loaded')
  t.equal(loaded.search.stats().state, 'ready', 'ready without a build')
  t.match(loaded.logs, [{ level: INFO, msg: 'search index loaded', verses: VERSES.length, bytes: statSync(file).size }])
  const loadedIndex = await loaded.search.warm()
  t.not(loadedIndex, builtIndex, 'a different object')
  t.same(contentsOf(loadedIndex), contentsOf(builtIndex), 'every array and map is equal')
  t.notOk(
    loaded.logs.some((l) => l.msg === 'search index built'),
    'not built again',
  )
  t.same(await resultsOf(loaded.search), await resultsOf(built.search), 'the same hits, scores, snippets and cursors')
})

t.test('encoding and decoding in memory, also from a buffer that is not aligned', async (t) => {
  const index = await service().search.warm()
  const bytes = Buffer.concat(encodeSearchIndex(index, 'k'))
  t.same(contentsOf(decodeSearchIndex(bytes, 'k')), contentsOf(index))
  const unaligned = Buffer.concat([Buffer.alloc(3), bytes]).subarray(3)
  t.same(contentsOf(decodeSearchIndex(unaligned, 'k')), contentsOf(index))
  t.throws(() => decodeSearchIndex(bytes, 'k2'), SearchIndexFileError)
})

/** A file that does not check out is not used: the index is built again and the file replaced by a good one. */
async function rebuiltAfter(t: Test, damage: (file: string) => void, key: string, reason: RegExp): Promise<void> {
  const dir = scratchDir(t)
  const first = service({ dir, key: 'k1' })
  await first.search.warm()
  await first.search.flush()
  const file = join(dir, SEARCH_INDEX_FILE)
  damage(file)

  const next = service({ dir, key })
  t.equal(await next.search.load(), false, 'not loaded')
  const warning = next.logs.find((l) => l.level === WARN)
  t.equal(warning?.msg, 'saved search index not used; it is built again once the server listens')
  t.match(String(warning?.reason), reason)
  t.equal(next.search.stats().state, 'cold')
  await next.search.warm()
  await next.search.flush()
  t.ok(
    next.logs.some((l) => l.msg === 'search index built'),
    'built',
  )
  t.ok(
    next.logs.some((l) => l.msg === 'search index saved'),
    'saved again',
  )
  const after = service({ dir, key })
  t.equal(await after.search.load(), true, 'the replaced file loads')
  t.same(await resultsOf(after.search), await resultsOf(first.search))
}

t.test('a truncated file is rebuilt', (t) =>
  rebuiltAfter(
    t,
    (file) => {
      const bytes = readFileSync(file)
      writeFileSync(file, bytes.subarray(0, bytes.length - 100))
    },
    'k1',
    /truncated/,
  ),
)

t.test('a file cut inside its header is rebuilt', (t) =>
  rebuiltAfter(t, (file) => writeFileSync(file, readFileSync(file).subarray(0, 20)), 'k1', /truncated|not a search index/),
)

t.test('an empty file is rebuilt', (t) => rebuiltAfter(t, (file) => writeFileSync(file, ''), 'k1', /not a search index/))

t.test('a file built from other texts (another key) is rebuilt', (t) => rebuiltAfter(t, () => undefined, 'k2', /another key/))

t.test('a file of another format version is rebuilt', (t) =>
  rebuiltAfter(
    t,
    (file) => {
      const bytes = readFileSync(file)
      bytes.writeUInt32LE(SEARCH_INDEX_FORMAT_VERSION + 1, 8)
      writeFileSync(file, bytes)
    },
    'k1',
    /format version/,
  ),
)

t.test('a garbled file (one byte changed) is rebuilt', (t) =>
  rebuiltAfter(
    t,
    (file) => {
      const bytes = readFileSync(file)
      const at = Math.floor(bytes.length / 2)
      bytes[at] = (bytes[at] as number) ^ 0xff
      writeFileSync(file, bytes)
    },
    'k1',
    /checksum/,
  ),
)

t.test('temporary files of an interrupted save are removed by the next save', async (t) => {
  const dir = scratchDir(t)
  const { search } = service({ dir, key: 'k1' })
  await search.load()
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'search-index.123.abcdef.tmp'), 'half a file')
  writeFileSync(join(dir, 'keep.txt'), 'not ours')
  await search.warm()
  await search.flush()
  t.same(readdirSync(dir).sort(), ['keep.txt', SEARCH_INDEX_FILE])
})

t.test('a folder that cannot be written costs only the save', async (t) => {
  const dir = scratchDir(t)
  // A file where the folder should be: reading and saving fail.
  writeFileSync(dir, 'in the way')
  const { search, logs } = service({ dir, key: 'k1' })
  t.equal(await search.load(), false)
  t.equal((await search.search({ q: 'love', style: 'faithful', limit: 1 })).data.length, 1, 'search works')
  await search.flush()
  t.ok(
    logs.some((l) => l.level === WARN && l.msg === 'saving the search index failed; the next start builds it again'),
    'the failure is logged',
  )
})
