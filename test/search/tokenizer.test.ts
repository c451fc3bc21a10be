/** Words of texts and queries: case, accents, apostrophes and offsets. */
import t from 'tap'
import { foldWord, formsOf, rawWords, tokenize } from '../../src/search/tokenizer.js'
import { parseQuery } from '../../src/search/query.js'
import { stem } from '../../src/search/stemmer.js'

t.test('folding ignores case, accents and ligatures', async (t) => {
  t.equal(foldWord('LORD'), 'lord')
  t.equal(foldWord('Cæsar'), 'caesar')
  t.equal(foldWord('ÆGYPT'), 'aegypt')
  t.equal(foldWord('naïve'), 'naive')
  t.equal(foldWord('Élie'), 'elie')
  t.equal(foldWord('Cre\u0301e'), 'cree', 'a combining accent')
})

t.test('tokens keep their offsets in the original text', async (t) => {
  const text = "The LORD’s word, (Cæsar's) won't fail: Beth-el."
  const tokens = tokenize(text)
  t.same(
    tokens.map((w) => text.slice(w.start, w.end)),
    ['The', 'LORD’s', 'word', "Cæsar's", "won't", 'fail', 'Beth', 'el'],
  )
  t.same(
    tokens.map((w) => w.surface),
    ['the', 'lords', 'word', 'caesars', 'wont', 'fail', 'beth', 'el'],
  )
  t.same(
    tokens.map((w) => w.base),
    ['the', 'lord', 'word', 'caesar', 'wont', 'fail', 'beth', 'el'],
  )
  t.same(
    rawWords(text),
    tokens.map((w) => text.slice(w.start, w.end)),
    'rawWords finds the same words',
  )
  t.same(tokenize('!!! -- ...'), [])
  t.same(formsOf("Jesus'"), { surface: 'jesus', base: 'jesus' })
})

t.test('queries: words, "phrases", duplicates, unclosed and typographic quotes', async (t) => {
  t.same(parseQuery('Love neighbour'), [
    { kind: 'word', stem: stem('love') },
    { kind: 'word', stem: stem('neighbour') },
  ])
  t.same(parseQuery('"God so loved" world'), [
    { kind: 'phrase', surfaces: ['god', 'so', 'loved'], stems: ['god', 'so', 'love'] },
    { kind: 'word', stem: 'world' },
  ])
  t.same(parseQuery('love loveth LOVE'), [{ kind: 'word', stem: 'love' }], 'one clause per stem')
  t.same(parseQuery('“Jesus wept”'), [{ kind: 'phrase', surfaces: ['jesus', 'wept'], stems: ['jesu', 'wept'] }])
  t.same(parseQuery('"Jesus wept'), parseQuery('"Jesus wept"'), 'an unclosed quote runs to the end')
  t.same(parseQuery('"" !!! ?'), [], 'nothing searchable')
})
