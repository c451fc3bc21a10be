/** SectionStore: the index served on verses and books, and the checks that stop start-up on a broken table. */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { KJV_BOOKS } from '../../scripts/kjv-versification.js'
import { projectPath } from '../../src/infra/paths.js'
import { SectionStore } from '../../src/sections/section.store.js'
import { SECTIONS_FILE } from '../../src/seed/seed-files.js'
import { findBook, type BookInfo } from '../../src/verses/books.js'
import { verseId } from '../../src/verses/verse.store.js'

type Row = ConstructorParameters<typeof SectionStore>[0][number]

const table = JSON.parse(readFileSync(projectPath(SECTIONS_FILE), 'utf8')) as Row[]
const ruth = findBook('ruth') as BookInfo
const psalms = findBook('psalms') as BookInfo

/** The verse counts of only the books named, so a table of those books alone is complete. */
function countsOf(...books: BookInfo[]): (book: BookInfo) => readonly number[] {
  return (book) => (books.includes(book) ? (KJV_BOOKS[book.position - 1]?.verses ?? []) : [])
}

const ruthRows = table.filter((row) => row.book === 'ruth')

t.test('the shipped table loads against the full versification', async (t) => {
  const store = new SectionStore(table, countsOf(...KJV_BOOKS.map((b) => findBook(b.osis) as BookInfo)))
  t.equal(store.ofBook(ruth).length, 8)
  t.equal(store.ofVerse(verseId(ruth.position, 1, 1))?.slug, 'ruth-naomi-loses-her-husband-and-sons')
  t.equal(store.ofVerse(verseId(ruth.position, 4, 22))?.seq, 8, 'the last verse is in the last section')
  t.match(store.get('ruth-naomi-loses-her-husband-and-sons'), { reference: 'Ruth 1:1-5', passage: 'ruth-1-1-5', verseCount: 5 })
  t.match(store.ofBook(psalms)[22], { reference: 'Psalms 23', passage: 'psalms-23', verseCount: 6 }, 'a whole chapter is written as passages write it')
  t.match(
    store.ofBook(findBook('lamentations') as BookInfo)[0],
    { reference: 'Lamentations 1:1-2:22', passage: 'lamentations-1-1-2-22', verseCount: 44 },
    'a section across chapters',
  )
})

t.test('a broken table stops loading', async (t) => {
  const counts = countsOf(ruth)
  t.doesNotThrow(() => new SectionStore(ruthRows, counts), 'Ruth alone is complete')
  t.throws(
    () =>
      new SectionStore(
        ruthRows.filter((_, i) => i !== 3),
        counts,
      ),
    /not where the one before it ends/,
    'a gap',
  )
  t.throws(() => new SectionStore(ruthRows.slice(0, -1), counts), /do not reach its last verse/, 'a missing end')
  t.throws(
    () =>
      new SectionStore(
        ruthRows.map((r, i) => (i === 2 ? { ...r, verse_count: r.verse_count + 1 } : r)),
        counts,
      ),
    /the table says/,
    'a wrong verse count',
  )
  t.throws(
    () =>
      new SectionStore(
        ruthRows.map((r, i) => (i === 2 ? { ...r, slug: ruthRows[1]?.slug ?? '' } : r)),
        counts,
      ),
    /used twice/,
    'a repeated slug',
  )
  t.throws(
    () =>
      new SectionStore(
        ruthRows.map((r, i) => (i === 7 ? { ...r, end: { chapter: 4, verse: 30 } } : r)),
        counts,
      ),
    /runs past Ruth/,
    'a verse the book lacks',
  )
  t.throws(() => new SectionStore([{ ...(ruthRows[0] as Row), book: 'ruthie' }], counts), /unknown book/, 'an unknown book')
})
