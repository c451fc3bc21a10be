/** Snippets: highlighting, escaping and the ~240-character window. */
import t from 'tap'
import { escapeHtml, highlightSpans, snippet, SNIPPET_LENGTH, type Highlighter } from '../../src/search/snippets.js'
import { stem } from '../../src/search/stemmer.js'
import { tokenize } from '../../src/search/tokenizer.js'

/** Highlights by stem, as the service does. */
function highlighter(words: readonly string[], phrases: ReadonlyArray<readonly string[]> = []): Highlighter {
  const stems = new Set(words.map(stem))
  return { matchesWord: (token) => stems.has(stem(token.base)), phrases }
}

function render(text: string, h: Highlighter): string {
  return snippet(text, highlightSpans(tokenize(text), h))
}

t.test('short texts are whole, with every match marked', async (t) => {
  t.equal(render('Jesus wept.', highlighter(['wept'])), 'Jesus <mark>wept</mark>.')
  t.equal(
    render('He that loveth not knoweth not God; for God is love.', highlighter(['love'])),
    'He that <mark>loveth</mark> not knoweth not God; for God is <mark>love</mark>.',
  )
})

t.test('a phrase is one mark; its words elsewhere are marked only as words of the query', async (t) => {
  const text = 'For God so loved the world, that God gave'
  t.equal(render(text, highlighter([], [['god', 'so', 'loved']])), 'For <mark>God so loved</mark> the world, that God gave')
  t.equal(render(text, highlighter(['god'], [['god', 'so', 'loved']])), 'For <mark>God so loved</mark> the world, that <mark>God</mark> gave')
})

t.test("the text's own markup characters are escaped", async (t) => {
  t.equal(escapeHtml('a < b && c > d'), 'a &lt; b &amp;&amp; c &gt; d')
  t.equal(render('<b>Tom & Jerry</b> run', highlighter(['jerry'])), '&lt;b&gt;Tom &amp; <mark>Jerry</mark>&lt;/b&gt; run')
})

t.test('long texts are cut to about 240 characters around the matches, at word boundaries', async (t) => {
  const words = Array.from({ length: 120 }, (_, i) => `word${i}`)
  words[80] = 'needle'
  const text = words.join(' ')
  const out = render(text, highlighter(['needle']))
  t.ok(out.startsWith('…') && out.endsWith('…'), 'ellipses on both sides')
  t.match(out, /<mark>needle<\/mark>/)
  const plain = out.replace(/<\/?mark>/g, '').slice(1, -1)
  t.ok(text.includes(plain), 'a contiguous stretch of the text')
  t.ok(plain.length <= SNIPPET_LENGTH + 10 && plain.length >= SNIPPET_LENGTH - 20, `about ${SNIPPET_LENGTH} characters (${plain.length})`)
  t.ok(/^word\d+ /.test(plain) && / word\d+$/.test(plain), 'no word is cut in two')

  const plainText = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ')
  const start = render(`needle ${plainText}`, highlighter(['needle']))
  t.ok(start.startsWith('<mark>needle</mark>') && start.endsWith('…'), 'a match at the start: only a trailing ellipsis')
  const end = render(`${plainText} needle`, highlighter(['needle']))
  t.ok(end.startsWith('…') && end.endsWith('<mark>needle</mark>'), 'a match at the end: only a leading ellipsis')

  const spread = words.map((w, i) => (i % 40 === 0 ? 'needle' : w)).join(' ')
  const window = render(spread, highlighter(['needle']))
  t.equal(window.match(/<mark>/g)?.length, 1, 'matches too far apart: the window holds what fits')
})

t.test('the window goes where the most matches are', async (t) => {
  const words = Array.from({ length: 150 }, (_, i) => `w${i}`)
  words[10] = 'needle'
  for (const i of [100, 105, 110]) words[i] = 'needle'
  const out = render(words.join(' '), highlighter(['needle']))
  t.equal(out.match(/<mark>/g)?.length, 3)
  t.notMatch(out, /\bw10\b/, 'the lone early match is left out')
})
