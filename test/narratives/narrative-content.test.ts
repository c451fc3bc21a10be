/** The committed narrative content loads, passes its rules, and covers the best-known narratives with their parallels. */
import t from 'tap'
import { projectPath } from '../../src/infra/paths.js'
import { readFileSync } from 'node:fs'
import { narrativeContentIssues } from '../../src/content/pipeline/narrative-validation.js'
import { NarrativeContentRepository } from '../../src/narratives/narrative-content.repository.js'
import { NarrativeContentService } from '../../src/content/pipeline/narrative-content.service.js'
import { readNarratives } from '../../src/narratives/narrative.store.js'
import { readKjvSeed } from '../../src/seed/kjv-seed.js'
import { findBook } from '../../src/verses/books.js'
import { VerseStore } from '../../src/verses/verse.store.js'
import { NARRATIVES_FILE, NARRATIVE_CONTENT_FILE } from '../../src/seed/seed-files.js'

const verses = new VerseStore(readKjvSeed(projectPath('db', 'seed', 'kjv.jsonl.gz')).verses)
const store = readNarratives(projectPath(NARRATIVES_FILE), (gospel) =>
  verses.chapterVerseCounts(
    findBook(gospel) ??
      (() => {
        throw new Error(gospel)
      })(),
  ),
)

t.test('narrative content', async (t) => {
  // The seed's own parser and rules; parsing needs no database (the repository only writes).
  const service = new NarrativeContentService(new NarrativeContentRepository(undefined as never), store)
  const { rows, rejected } = service.parse(readFileSync(projectPath(NARRATIVE_CONTENT_FILE), 'utf8'))
  t.same(rejected, [], 'every line passes validation')
  const content = new Set(rows.map((r) => `${r.slug}:${r.style}`))
  const slugs = new Set(rows.map((r) => r.slug))
  // Every line of the file, read on its own: nothing the parser keeps or drops is taken on trust.
  const lines = readFileSync(projectPath(NARRATIVE_CONTENT_FILE), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { narrative: string; style: string })
  t.equal(rows.length, lines.length, 'one row per line')
  t.same([...slugs].sort(), [...new Set(lines.map((l) => l.narrative))].sort(), 'the narratives the file names')
  t.same([...slugs].sort(), store.all.map((n) => n.slug).sort(), `all ${store.all.length} narratives have content`)
  for (const slug of slugs) {
    t.ok(content.has(`${slug}:faithful`) && content.has(`${slug}:casual`), `${slug}: both styles`)
  }
  for (const [, , title] of [
    [40, 13, 'sower'],
    [43, 6, 'five thousand'],
  ] as const) {
    const covered = store.all.filter((n) => n.title.toLowerCase().includes(title))
    t.ok(covered.length > 0 && covered.every((n) => slugs.has(n.slug)), `every account of "${title}" has content`)
  }
})

t.test('the rules reject what they should', async (t) => {
  const rules = (issues: ReturnType<typeof narrativeContentIssues>): string[] => issues.map((i) => `${i.field}:${i.rule}`)
  t.same(narrativeContentIssues('faithful', 'Jesus feeds a crowd. Everyone eats.', 'There is enough.'), [])
  t.same(rules(narrativeContentIssues('faithful', 'One sentence only.', 'Fine.')), ['summary:sentence_count'])
  t.match(narrativeContentIssues('faithful', 'One sentence only.', 'Fine.'), [{ message: /has 1 sentence; 2 to 4 are allowed/ }])
  t.same(rules(narrativeContentIssues('faithful', 'Thou art fed. Ye eat.', 'Fine.')), ['summary:archaic_form'])
  t.same(rules(narrativeContentIssues('casual', 'Jesus speaks. Behold, the brethren listen.', 'Fine.')), ['summary:archaic_form'], 'both styles, the full list')
  t.same(rules(narrativeContentIssues('casual', 'Jesus speaks. People listen.', 'One. Two.')), ['bottom_line:bottom_line_sentences'])
  t.same(rules(narrativeContentIssues('casual', 'Jesus speaks. People listen.', `Word ${'word '.repeat(30)}end.`)), ['bottom_line:bottom_line_words'])
  t.same(rules(narrativeContentIssues('casual', 'Jesus <b>speaks</b>. People listen.', 'X.')), ['summary:markup'])
  t.same(rules(narrativeContentIssues('formal', 'Jesus speaks. People listen.', 'X.')), ['style:unknown_style'])
  t.same(rules(narrativeContentIssues('casual', '', null)), ['summary:required', 'bottom_line:required'])
  // The editorial gates, as for verse content.
  t.same(rules(narrativeContentIssues('casual', 'Jesus says, "Come. People listen.', 'X.')), ['summary:quotes_balanced'])
  t.same(rules(narrativeContentIssues('casual', 'jesus speaks. People listen.', 'X.')), ['summary:first_letter'])
  t.same(rules(narrativeContentIssues('casual', 'Jesus speaks. People listen', 'X.')), ['summary:final_punctuation'])
  t.same(rules(narrativeContentIssues('casual', 'Jesus speaks. People honour him.', 'X.')), ['summary:american_spelling'])
})
