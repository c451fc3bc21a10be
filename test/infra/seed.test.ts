/** Migrations and seeding on every backend: idempotent, complete, and the store loads them. */
import t from 'tap'
import { sql } from 'kysely'
import { migrations } from '../../db/migrations/index.js'
import { readdirSync, readFileSync } from 'node:fs'
import { projectPath } from '../../src/infra/paths.js'
import { prepareDatabase } from '../../src/startup.js'
import { loadTestStores } from '../helpers/app.js'
import { NarrativeContentRepository } from '../../src/narratives/narrative-content.repository.js'
import { NarrativeContentService } from '../../src/content/pipeline/narrative-content.service.js'
import { availableKinds, openTestDatabase, removeWrittenContent } from '../helpers/database.js'
import { VERSE_CONTENT_DIR } from '../../src/seed/seed-files.js'

/** The shipped narrative lines of each method, counted from the file itself. */
const narrativeLines = { curated: 0, generated: 0 }
for (const line of readFileSync(projectPath('db', 'content', 'narratives.jsonl'), 'utf8').split('\n')) {
  if (line.trim() !== '') narrativeLines[(JSON.parse(line) as { provenance: { method: 'curated' | 'generated' } }).provenance.method]++
}

/** The shipped lines of each method, counted from the files themselves. */
const shippedLines = { curated: 0, generated: 0 }
for (const name of readdirSync(projectPath(VERSE_CONTENT_DIR)).filter((n) => n.endsWith('.jsonl'))) {
  for (const line of readFileSync(projectPath(VERSE_CONTENT_DIR, name), 'utf8').split('\n')) {
    if (line.trim() === '') continue
    shippedLines[(JSON.parse(line) as { provenance: { method: 'curated' | 'generated' } }).provenance.method]++
  }
}

for (const { kind, skip } of availableKinds()) {
  t.test(`migrate and seed on ${kind}`, { skip }, async (t) => {
    const database = await openTestDatabase(kind, { seeded: false })
    t.teardown(() => database.close())

    const first = await prepareDatabase(database.db)
    t.same(first.migrations, Object.keys(migrations), 'every migration runs once, in order')
    t.same(first.seed.kjv, { status: 'loaded', verses: 31102 })
    t.ok(shippedLines.curated + shippedLines.generated >= 2076, 'the shipped content holds at least the 1,038 verses in both styles it started with')
    t.same(first.seed.content, { status: 'loaded', ...shippedLines, modernized: 31102 }, 'every shipped line, and a modernized faithful text for every verse')
    t.same(first.seed.narrativeContent, { status: 'loaded', ...narrativeLines }, 'every line of db/content/narratives.jsonl')

    const snapshot = async (): Promise<string> => {
      const { rows } = await sql<{ digest: string; n: number; content: string }>`
        select md5(string_agg(id::text || text || paragraph::text || italics::text || words_of_christ::text || coalesce(title, ''), '|' order by id)) as digest,
               count(*)::int as n,
               (select md5(string_agg(verse_id::text || style || method || content_hash || created_at::text, '|' order by verse_id, style, method)) from verse_content) as content
        from verses`.execute(database.db)
      return `${rows[0]?.n}:${rows[0]?.digest}:${rows[0]?.content}`
    }
    const before = await snapshot()

    const second = await prepareDatabase(database.db)
    t.same(second.migrations, [], 'no migration runs twice')
    t.same(second.seed.kjv, { status: 'unchanged', verses: 31102 }, 'seeding twice changes nothing')
    t.equal(second.seed.content.status, 'unchanged')
    t.same(second.seed.narrativeContent, { status: 'unchanged', curated: 0, generated: 0 })
    t.equal(await snapshot(), before)

    // A damaged row is repaired when the seed is applied again (e.g. after the seed file changes).
    await sql`update verses set text = 'tampered' where id = 43003016`.execute(database.db)
    await sql`delete from seed_state`.execute(database.db)
    const third = await prepareDatabase(database.db)
    t.equal(third.seed.kjv.status, 'loaded')
    t.equal(await snapshot(), before, 'reseeding restores the committed text')

    // Every book ships written content: a verse without it (here Obadiah 1:4, whose content an
    // operator removed) is made so, to check that the modernizer's text is what remains.
    t.ok((await removeWrittenContent(database.db, [31001004])) >= 2, 'Obadiah 1:4 had written content in both styles, now removed')
    const stores = await loadTestStores(t, database)
    t.equal(stores.verses.size, 31102)
    t.equal(stores.content.get(43003016, 'faithful')?.method, 'curated', 'curated wins over modernized')
    t.equal(stores.content.get(31001004, 'faithful')?.method, 'modernized', 'Obadiah 1:4: no written content, the modernizer')
    t.equal(stores.content.get(31001004, 'casual'), undefined)
    t.equal(stores.content.get(31001005, 'faithful')?.method, 'generated', 'Obadiah 1:5 keeps its written content')
    t.equal(stores.intros.size, 66)
    t.equal(stores.narrativeContent.size, narrativeLines.curated + narrativeLines.generated, 'narrative content is served from the database')
    t.equal(stores.narrativeContent.get('matthew-josephs-dream-and-the-birth-of-jesus:faithful')?.method, 'curated')
    t.equal(stores.verses.get(43, 11, 35)?.text, 'Jesus wept.')
    t.equal(stores.verses.get(64, 1, 15), undefined, '3 John 1:15 does not exist')
  })
}

t.test('a re-seed never replaces what an operator imported', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  const shipped = readFileSync(projectPath('db', 'content', 'narratives.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { narrative: string; style: string; provenance: { method: string } })
  const team = shipped.find((l) => l.provenance.method === 'generated')
  if (team === undefined) throw new Error('the shipped narratives hold a team-generated line to test with')
  const stores = await loadTestStores(t, database)
  const service = new NarrativeContentService(new NarrativeContentRepository(database.db), stores.narratives)
  const mine = {
    narrative: team.narrative,
    style: team.style,
    summary: 'An operator wrote this summary. It replaces the shipped one here.',
    bottom_line: 'The operator chose this bottom line.',
    provenance: { method: 'generated', model: 'their-model', prompt_version: 'narrative-faithful-v2' },
  }
  const imported = await service.import(JSON.stringify(mine), { dryRun: false })
  t.same(imported.rejected, [])
  // A new release changes the shipped files: the seed runs again.
  await sql`delete from seed_state where name = 'narrative_content'`.execute(database.db)
  const again = await prepareDatabase(database.db)
  t.equal(again.seed.narrativeContent.status, 'loaded')
  const rows = (await new NarrativeContentRepository(database.db).listAll()).filter((r) => r.slug === team.narrative && r.style === team.style)
  t.same(
    rows.map((r) => [r.method, r.model, r.promptVersion, r.summary]),
    [['generated', 'their-model', 'narrative-faithful-v2', mine.summary]],
    "the operator's row is kept",
  )
})
