/** The index and the matcher on a tiny corpus: clause rules, BM25 order, ranges, pages. */
import t from 'tap'
import { findMatches, pageOf } from '../../src/search/matcher.js'
import { parseQuery } from '../../src/search/query.js'
import { buildSearchIndex, type IndexedVerse, type SearchField } from '../../src/search/search.index.js'

const verse = (id: number, book: number, kjv: string, faithful: string | null = null, casual: string | null = null): IndexedVerse => ({
  id,
  book,
  texts: { kjv, faithful, casual },
})
const corpus = [
  verse(1, 1, 'In the beginning God created the heaven and the earth.', 'In the beginning God created the heavens and the earth.'),
  verse(2, 1, 'And God said, Let there be light: and there was light.', 'God said, Let there be light.', 'God spoke and light appeared.'),
  verse(3, 1, 'The light shineth in darkness.', 'The light shines in the darkness.'),
  verse(4, 2, 'God is light, and in him is no darkness at all, none at all, not any at all, never.', null, 'There is no dark side to God.'),
  verse(5, 2, 'Walk in the light.', 'Walk in the light as he is in the light.'),
]

t.test('matching and ranking', async (t) => {
  const index = await buildSearchIndex(corpus, async () => undefined)
  const fields = (names: readonly SearchField[]) => names.map((n) => index.field(n))
  const ids = (q: string, names: readonly SearchField[] = ['kjv', 'faithful'], range = index.range()): number[] => {
    const matches = findMatches(index, parseQuery(q), fields(names), range)
    return pageOf(matches, undefined, 50).hits.map((i) => index.verseIdAt(matches.docs[i] ?? -1))
  }
  t.same(ids('light').slice().sort(), [2, 3, 4, 5])
  t.equal(ids('light')[0], 5, 'most occurrences in the shortest texts first')
  t.same(ids('shine'), [3], 'stems: shine finds shineth and shines')
  t.same(ids('light darkness').sort(), [3, 4], 'every word')
  t.same(ids('"heavens and the earth"'), [1], 'a phrase in the faithful text')
  t.same(ids('"heaven and the earth"', ['faithful']), [], 'a phrase is matched as written')
  t.same(ids('spoke appeared', ['kjv', 'casual']), [2], 'words from the casual text')
  t.same(ids('spoke', ['kjv', 'faithful']), [], 'texts not searched do not match')
  t.same(ids('"let there be light" appeared', ['kjv', 'faithful', 'casual']), [2], 'a phrase in one text, a word in another')
  t.same(ids('"light darkness"'), [], 'phrase words must be next to each other')
  t.same(ids('dark god', ['kjv', 'casual']), [4], 'words may come from different texts of the verse')
  t.same(ids('"god is light no dark"', ['kjv', 'casual']), [], 'but a phrase must be in one text')
  t.same(ids('light', ['kjv', 'faithful'], index.range(2)), [5, 4], 'a book is a range of documents')
  t.same(ids('light', ['kjv'], index.range(9)), [], 'a book without verses')
  t.same(ids('unknownword light'), [], 'a word in no text: nothing matches')
})

t.test('pages continue after the last hit, ties in canonical order', async (t) => {
  const same = Array.from({ length: 9 }, (_, i) => verse(i + 1, 1, 'alpha beta'))
  const index = await buildSearchIndex(same, async () => undefined)
  const matches = findMatches(index, parseQuery('alpha'), [index.field('kjv')], index.range())
  const seen: number[] = []
  let after: { score: number; doc: number } | undefined
  for (;;) {
    const page = pageOf(matches, after, 4)
    seen.push(...page.hits.map((i) => matches.docs[i] ?? -1))
    const last = page.hits.at(-1)
    if (!page.more || last === undefined) break
    after = { score: matches.scores[last] ?? 0, doc: matches.docs[last] ?? 0 }
  }
  t.same(seen, [0, 1, 2, 3, 4, 5, 6, 7, 8])
})
