/** Canonical passage slugs and references, and the free-text parser, without the HTTP layer. */
import t from 'tap'
import { mergeRanges, parsePassageSlug, passageOsis, passageReference, rangeSlug } from '../../src/passages/passage-slug.js'
import { ReferenceParser, type IdRange } from '../../src/passages/reference-parser.js'
import { findBook } from '../../src/verses/books.js'
import { verseId } from '../../src/verses/verse.store.js'

const id = (book: string, chapter: number, verse: number): number => verseId(findBook(book)?.position ?? 0, chapter, verse)
// Enough of the versification for these cases: Psalm 23 has 6 verses, John 3 has 36.
const CHAPTERS: ReadonlyMap<string, number> = new Map([
  ['psalms-23', 6],
  ['john-3', 36],
  ['john-4', 54],
])
const lastVerse = (book: { slug: string }, chapter: number): number => CHAPTERS.get(`${book.slug}-${chapter}`) ?? 0
const whole = (r: IdRange): boolean =>
  (r.start === id('ps', 23, 1) && r.end === id('ps', 23, 6)) || (r.start === id('john', 4, 1) && r.end === id('john', 4, 54))
const next = (v: number): number => (v === id('john', 3, 36) ? id('john', 4, 1) : v + 1)

t.test('range slugs: one verse, verses, a chapter, across chapters, several', async (t) => {
  t.same(parsePassageSlug('john-3-16', lastVerse), [{ start: id('john', 3, 16), end: id('john', 3, 16) }])
  t.same(parsePassageSlug('john-3-16-18', lastVerse), [{ start: id('john', 3, 16), end: id('john', 3, 18) }])
  t.same(parsePassageSlug('psalms-23', lastVerse), [{ start: id('ps', 23, 1), end: id('ps', 23, 6) }])
  t.same(parsePassageSlug('genesis-1-1-2-3', lastVerse), [{ start: id('gen', 1, 1), end: id('gen', 2, 3) }])
  t.same(parsePassageSlug('1-corinthians-13-4-7', lastVerse), [{ start: id('1cor', 13, 4), end: id('1cor', 13, 7) }], 'a numbered book keeps its number')
  t.same(parsePassageSlug('Jn-3-16-18', lastVerse), parsePassageSlug('john-3-16-18', lastVerse), 'aliases and any case')
  t.same(parsePassageSlug('romans-8-28,romans-8-31-39', lastVerse), [
    { start: id('rom', 8, 28), end: id('rom', 8, 28) },
    { start: id('rom', 8, 31), end: id('rom', 8, 39) },
  ])
  for (const bad of ['', 'john', 'john-3-16-1-2-3', 'nobook-3-16', 'john-0-1', 'john-3-0', 'Jn 3:16', 'john-3-16,', '-3-16', 'john-3-1234']) {
    t.equal(parsePassageSlug(bad, lastVerse), undefined, JSON.stringify(bad))
  }
})

t.test('merging sorts and joins overlapping and touching ranges', async (t) => {
  const a = { start: id('john', 3, 16), end: id('john', 3, 18) }
  const b = { start: id('john', 3, 17), end: id('john', 3, 20) }
  const c = { start: id('john', 3, 36), end: id('john', 3, 36) }
  const d = { start: id('john', 4, 1), end: id('john', 4, 2) }
  t.same(mergeRanges([b, a], next), [{ start: a.start, end: b.end }])
  t.same(mergeRanges([d, c], next), [{ start: c.start, end: d.end }], 'the last verse of a chapter touches the first of the next')
  t.same(mergeRanges([c, a], next), [a, c], 'apart ranges stay apart, in canonical order')
})

t.test('references and slugs are written as people write them', async (t) => {
  const r = (book: string, c1: number, v1: number, c2 = c1, v2 = v1): IdRange => ({ start: id(book, c1, v1), end: id(book, c2, v2) })
  t.equal(passageReference([r('john', 3, 16)], whole), 'John 3:16')
  t.equal(passageReference([r('john', 3, 16, 3, 18)], whole), 'John 3:16-18')
  t.equal(passageReference([r('ps', 23, 1, 23, 6)], whole), 'Psalms 23')
  t.equal(passageReference([r('gen', 1, 1, 2, 3)], whole), 'Genesis 1:1-2:3')
  t.equal(passageReference([r('rom', 8, 28), r('rom', 8, 31, 8, 39)], whole), 'Romans 8:28, 31-39')
  t.equal(passageReference([r('rom', 8, 28), r('rom', 9, 1)], whole), 'Romans 8:28; 9:1')
  t.equal(passageReference([r('john', 3, 16), r('rom', 5, 8)], whole), 'John 3:16; Romans 5:8')
  t.equal(passageReference([r('john', 3, 16), r('john', 4, 1, 4, 54)], whole), 'John 3:16; 4', 'a whole chapter after a verse of the same book')
  t.equal(rangeSlug(r('ps', 23, 1, 23, 6), whole), 'psalms-23')
  t.equal(rangeSlug(r('song', 2, 1, 2, 3), whole), 'song-of-solomon-2-1-3')
  t.equal(rangeSlug(r('gen', 1, 1, 2, 3), whole), 'genesis-1-1-2-3')
  t.equal(passageOsis([r('rom', 8, 28), r('rom', 8, 31, 8, 39)]), 'Rom.8.28,Rom.8.31-Rom.8.39')
})

t.test('the free-text parser reads what people type', async (t) => {
  const parser = new ReferenceParser()
  const cases: Array<[string, IdRange[]]> = [
    ['Jn 3:16', [{ start: id('john', 3, 16), end: id('john', 3, 16) }]],
    ['1 Cor 13:4-7', [{ start: id('1cor', 13, 4), end: id('1cor', 13, 7) }]],
    ['Psalm 23', [{ start: id('ps', 23, 1), end: id('ps', 23, 6) }]],
    ['Gen 1:1-2:3', [{ start: id('gen', 1, 1), end: id('gen', 2, 3) }]],
    [
      'Romans 8:28, 31-39',
      [
        { start: id('rom', 8, 28), end: id('rom', 8, 28) },
        { start: id('rom', 8, 31), end: id('rom', 8, 39) },
      ],
    ],
  ]
  for (const [text, ranges] of cases) {
    const found = parser.find(text)
    t.equal(found.length, 1, text)
    t.equal(found[0]?.text, text, `${text}: the whole text named it`)
    t.same(found[0]?.ranges, ranges, text)
  }
  const two = parser.find('Read Jn 3:16 and then Rom 5:8 tonight.')
  t.same(
    two.map((f) => f.text),
    ['Jn 3:16', 'Rom 5:8'],
    'references inside a sentence, in order',
  )
  t.same(parser.find('hello world'), [], 'no reference')
  t.same(parser.find('John 3:99'), [], 'a verse the KJV does not have is left out')
})
