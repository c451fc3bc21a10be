/**
 * Content coverage (src/content/coverage.ts) and its text form: counts by testament, book,
 * style and field, a verse counted once per style, narratives per style.
 */
import t from 'tap'
import { contentCoverage, type CoverageLine } from '../../src/content/coverage.js'
import { formatCoverage } from '../../src/content/coverage.report.js'
import { BOOKS } from '../../src/verses/books.js'

// Four verses of Genesis (book 1), two of Matthew (40) and one of Jude (65).
const VERSE_BOOKS = [1, 1, 1, 1, 40, 40, 65]
const LINES: CoverageLine[] = [
  { book: 1, chapter: 1, verse: 1, style: 'faithful', fields: ['simplified_text', 'bottom_line', 'historical_context', 'practical_reflection'] },
  // A generated line for the same verse and style: the verse still counts once.
  { book: 1, chapter: 1, verse: 1, style: 'faithful', fields: ['simplified_text', 'bottom_line'] },
  { book: 1, chapter: 1, verse: 2, style: 'faithful', fields: ['simplified_text', 'bottom_line'] },
  { book: 1, chapter: 1, verse: 2, style: 'casual', fields: ['simplified_text', 'bottom_line'] },
  { book: 40, chapter: 1, verse: 1, style: 'casual', fields: ['simplified_text'] },
  // A book outside the canon is not counted anywhere.
  { book: 67, chapter: 1, verse: 1, style: 'casual', fields: ['simplified_text'] },
]

t.test('counts verses and fields by style, testament and book', async (t) => {
  const coverage = contentCoverage({
    verseBooks: VERSE_BOOKS,
    lines: LINES,
    narratives: ['a', 'b', 'c', 'd'],
    narrativeLines: [
      { narrative: 'a', style: 'faithful', summary: true, bottomLine: true },
      { narrative: 'b', style: 'faithful', summary: true, bottomLine: false },
      { narrative: 'a', style: 'casual', summary: true, bottomLine: true },
      { narrative: 'unknown', style: 'casual', summary: true, bottomLine: true },
    ],
  })
  t.equal(coverage.all.total, 7)
  t.same(coverage.all.faithful.verses, { count: 2, share: 2 / 7 })
  t.same(coverage.all.faithful.fields.historical_context, { count: 1, share: 1 / 7 })
  t.same(coverage.all.casual.verses, { count: 2, share: 2 / 7 })
  t.same(coverage.all.casual.fields.bottom_line, { count: 1, share: 1 / 7 })
  t.same(Object.keys(coverage.all.casual.fields), ['simplified_text', 'bottom_line'], 'casual has two fields')
  const [old, newer] = coverage.testaments
  t.same([old?.name, old?.total, old?.faithful.verses.count, old?.casual.verses.count], ['Old Testament', 4, 2, 1])
  t.same([newer?.name, newer?.total, newer?.faithful.verses.count, newer?.casual.verses.count], ['New Testament', 3, 0, 1])
  t.equal(coverage.books.length, BOOKS.length)
  t.same(coverage.books[0]?.faithful.fields.practical_reflection, { count: 1, share: 0.25 })
  t.same(coverage.books[64]?.casual.verses, { count: 0, share: 0 }, 'Jude: verses but no content')
  t.same(coverage.books[1]?.faithful.verses, { count: 0, share: 0 }, 'Exodus: no verses, no division by zero')
  t.same(coverage.narratives, {
    total: 4,
    faithful: { summary: { count: 2, share: 0.5 }, bottomLine: { count: 1, share: 0.25 } },
    casual: { summary: { count: 1, share: 0.25 }, bottomLine: { count: 1, share: 0.25 } },
  })
})

t.test('formatCoverage: one row per group, counts with percentages', async (t) => {
  const coverage = contentCoverage({ verseBooks: VERSE_BOOKS, lines: LINES, narratives: ['a'], narrativeLines: [] })
  const lines = formatCoverage('Content coverage, test', coverage)
  t.equal(lines[0], 'Content coverage, test')
  t.equal(lines.length, 3 + 1 + 2 + BOOKS.length + 1, 'title, legend, header, all, testaments, books, narratives')
  const genesis = lines.find((line) => line.trimStart().startsWith('Genesis')) ?? ''
  t.match(
    genesis,
    /Genesis\s+4\s+2 \(50\.00%\)\s+2 \(50\.00%\)\s+2 \(50\.00%\)\s+1 \(25\.00%\)\s+1 \(25\.00%\)\s+1 \(25\.00%\)\s+1 \(25\.00%\)\s+1 \(25\.00%\)$/,
  )
  t.match(lines.at(-1) ?? '', /narratives \(1\): faithful summary 0 \(0\.00%\)/)
})
