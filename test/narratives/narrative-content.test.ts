/** The committed narrative content loads, passes its rules, and covers the best-known narratives with their parallels. */
import t from 'tap'
import { projectPath } from '../../src/infra/paths.js'
import { readFileSync } from 'node:fs'
import { narrativeContentIssues, NARRATIVE_CONTENT_FILE } from '../../src/narratives/narrative-content.js'
import { NarrativeContentRepository } from '../../src/narratives/narrative-content.repository.js'
import { NarrativeContentService } from '../../src/narratives/narrative-content.service.js'
import { NARRATIVES_FILE, readNarratives } from '../../src/narratives/narrative.store.js'
import { readKjvSeed } from '../../src/seed/kjv-seed.js'
import { findBook } from '../../src/verses/books.js'
import { VerseStore } from '../../src/verses/verse.store.js'

const verses = new VerseStore(readKjvSeed(projectPath('db', 'seed', 'kjv.jsonl.gz')).verses)
const store = readNarratives(projectPath(NARRATIVES_FILE), (gospel) => verses.chapterVerseCounts(findBook(gospel) ?? (() => { throw new Error(gospel) })()))

t.test('narrative content', async (t) => {
  // The seed's own parser and rules; parsing needs no database (the repository only writes).
  const service = new NarrativeContentService(new NarrativeContentRepository(undefined as never), store)
  const { rows, rejected } = service.parse(readFileSync(projectPath(NARRATIVE_CONTENT_FILE), 'utf8'))
  t.same(rejected, [], 'every line passes validation')
  const content = new Set(rows.map((r) => `${r.slug}:${r.style}`))
  const slugs = new Set(rows.map((r) => r.slug))
  t.ok(slugs.size >= 100, `${slugs.size} narratives have content (at least 100)`)
  for (const slug of slugs) {
    t.ok(content.has(`${slug}:faithful`) && content.has(`${slug}:casual`), `${slug}: both styles`)
  }
  for (const [, , title] of [[40, 13, 'sower'], [43, 6, 'five thousand']] as const) {
    const covered = store.all.filter((n) => n.title.toLowerCase().includes(title))
    t.ok(covered.length > 0 && covered.every((n) => slugs.has(n.slug)), `every account of "${title}" has content`)
  }
})

t.test('the rules reject what they should', async (t) => {
  t.same(narrativeContentIssues('faithful', 'Jesus feeds a crowd. Everyone eats.', 'There is enough.'), [])
  t.match(narrativeContentIssues('faithful', 'One sentence only.', 'Fine.'), [/2 to 4 sentences/])
  t.match(narrativeContentIssues('faithful', 'Thou art fed. Ye eat.', 'Fine.'), [/archaic/])
  t.match(narrativeContentIssues('casual', 'Jesus speaks. People listen.', 'One. Two.'), [/one sentence/])
  t.match(narrativeContentIssues('casual', 'Jesus speaks. People listen.', `${'word '.repeat(31)}end.`), [/30 words/])
  t.match(narrativeContentIssues('casual', 'Jesus <b>speaks</b>. People listen.', 'x.'), [/markup/])
  t.match(narrativeContentIssues('formal', 'Jesus speaks. People listen.', 'x.'), [/style/])
  t.match(narrativeContentIssues('casual', '', null), [/summary is required/, /bottom_line is required/])
})
