/**
 * Narrative content generation against a local OpenAI-compatible server started by the test
 * (valid answers stored with provenance, an invalid answer retried then failed, a resumed run
 * skipping what is done), and the narrative JSONL import/export round trip with a bad line.
 */
import t, { type Test } from 'tap'
import { sql } from 'kysely'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { LlmClient, type ChatMessage } from '../../src/content/pipeline/generation/llm-client.js'
import { formatReport } from '../../src/content/pipeline/generation/progress.js'
import { NarrativeContentRepository } from '../../src/narratives/narrative-content.repository.js'
import { NarrativeContentService, isNarrativeJsonl, type NarrativeContentLine } from '../../src/content/pipeline/narrative-content.service.js'
import {
  NARRATIVE_PROMPT_VERSIONS,
  generateNarrativeContent,
  planNarrativeGeneration,
  selectNarratives,
  type NarrativeGenerationDeps,
} from '../../src/content/pipeline/generation/narrative-generation.js'
import { projectPath } from '../../src/infra/paths.js'
import type { Stores } from '../../src/startup.js'
import { loadTestStores } from '../helpers/app.js'
import { openTestDatabase } from '../helpers/database.js'
import { NARRATIVE_CONTENT_FILE } from '../../src/seed/seed-files.js'

interface Fake {
  readonly url: string
  /** Requests per narrative title. */
  readonly perTitle: Map<string, number>
  readonly bodies: Array<{ messages: ChatMessage[]; response_format: { json_schema: { name: string } } }>
  close(): Promise<void>
}

/** A server that answers each request with `answer(title, nth)`, or an HTTP status. */
async function startFake(t: Test, answer: (title: string, nth: number) => unknown): Promise<Fake> {
  const perTitle = new Map<string, number>()
  const bodies: Fake['bodies'] = []
  const server = createServer((req, res) => {
    let data = ''
    req.setEncoding('utf8').on('data', (chunk: string) => (data += chunk))
    req.on('end', () => {
      const body = JSON.parse(data) as Fake['bodies'][number]
      bodies.push(body)
      const user = body.messages.find((m) => m.role === 'user')?.content ?? ''
      const title = /^Narrative: (.+)$/m.exec(user)?.[1] ?? '?'
      const nth = (perTitle.get(title) ?? 0) + 1
      perTitle.set(title, nth)
      const reply = answer(title, nth)
      if (typeof reply === 'number') {
        res.writeHead(reply, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'busy' } }))
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          model: 'test-model-2024-07-18',
          choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(reply) }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 700, completion_tokens: 90, total_tokens: 790 },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const fake: Fake = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    perTitle,
    bodies,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  t.teardown(() => fake.close())
  return fake
}

/**
 * A seeded database without the shipped narrative content: generation fills what the
 * repository does not cover, so the narratives these tests generate must not be covered yet.
 */
async function setup(t: Test, options: { shipped: boolean } = { shipped: false }): Promise<NarrativeGenerationDeps & { reload: () => Promise<Stores> }> {
  const handle = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => handle.close())
  if (!options.shipped) await sql`delete from narrative_content`.execute(handle.db)
  const stores = await loadTestStores(t, handle)
  const repository = new NarrativeContentRepository(handle.db)
  return {
    narratives: stores.narratives,
    verses: stores.verses,
    repository,
    content: new NarrativeContentService(repository, stores.narratives),
    reload: () => loadTestStores(t, handle),
  }
}

function client(url: string): LlmClient {
  // No real waits between transport retries.
  return new LlmClient({ baseUrl: url, apiKey: undefined, model: 'test-model', sleep: async () => undefined })
}

const VALID = (title: string): Record<string, string> => ({
  summary: `This passage tells the story called ${title}. The people in it respond to Jesus in their own way.`,
  bottom_line: `The account of ${title} shows who Jesus is.`,
})
/** One sentence, and archaic forms in faithful text: rejected every time. */
const INVALID = { summary: 'Thou seest Jesus, and he saith unto them that ye shall follow.', bottom_line: 'Jesus hath spoken.' }
/** What the model is told about {@link INVALID} when asked again. */
const FEEDBACK = [
  'That answer was rejected:',
  '- summary (sentence_count): has 1 sentence; 2 to 4 are allowed',
  '- summary (archaic_form): uses archaic forms "thou", "seest", "saith", "unto", "ye"; write modern English',
  '- bottom_line (archaic_form): uses archaic form "hath"; write modern English',
  'Write the whole JSON object again, fixing these problems and following every rule.',
].join('\n')

t.test('generation stores valid answers with provenance, retries and fails invalid ones, and resumes', async (t) => {
  const deps = await setup(t)
  const mark = selectNarratives(deps.narratives, 'mark').slice(0, 3)
  const [ok1, bad, ok2] = mark
  if (ok1 === undefined || bad === undefined || ok2 === undefined) throw new Error('Mark has at least 3 narratives')

  const plan = await planNarrativeGeneration(deps, { style: 'faithful', gospel: 'mark', limit: 3 })
  t.equal(plan.target, 'narratives')
  t.equal(plan.toGenerate, 3)
  t.match(
    plan.first?.messages[1]?.content ?? '',
    new RegExp(`Narrative: ${ok1.title}\\nPassage: ${ok1.reference.replace(/[()]/g, '\\$&')}`),
    'the prompt gives the title and reference',
  )
  t.match(plan.first?.messages[1]?.content ?? '', /^1:1 The beginning of the gospel of Jesus Christ/m, 'and the full KJV text, verse by verse')

  const fake = await startFake(t, (title, nth) => {
    if (title === bad.title) return INVALID
    // A 503 first for one narrative: retried by the client's backoff, not counted as a failure.
    if (title === ok2.title && nth === 1) return 503
    return VALID(title)
  })
  const first = await generateNarrativeContent(deps, {
    style: 'faithful',
    gospel: 'mark',
    limit: 3,
    client: client(fake.url),
    model: 'test-model',
    concurrency: 2,
  })
  t.equal(first.target, 'narratives')
  t.equal(first.promptVersion, NARRATIVE_PROMPT_VERSIONS.faithful)
  t.equal(first.done, 2)
  t.equal(first.failed, 1)
  t.equal(first.transportRetries, 1)
  t.equal(first.answerRetries, 2, 'the invalid narrative was asked for three times in all')
  t.equal(fake.perTitle.get(bad.title), 3)
  t.match(first.failures, [
    { reason: 'invalid content: bottom_line archaic_form, summary archaic_form, summary sentence_count', count: 1, examples: [{ slug: bad.slug }] },
  ])
  t.equal(fake.bodies[0]?.response_format.json_schema.name, 'plainverse_narrative_faithful')
  t.match(formatReport(first).join('\n'), /selected: +\d+ narratives[\s\S]*generated: +2 of 3/)
  // The retry feeds the problems back to the model.
  // The retry feeds the problems back to the model: both retries of the invalid narrative, each
  // naming every problem, the archaic forms among them.
  const feedback = fake.bodies.map((b) => b.messages.at(-1)?.content ?? '').filter((c) => c.startsWith('That answer was rejected:'))
  t.same(feedback, [FEEDBACK, FEEDBACK], 'two retries, each with the rejected fields and rules')

  const rows = (await deps.repository.listAll()).filter((r) => r.method === 'generated')
  t.same(rows.map((r) => r.slug).sort(), [ok1.slug, ok2.slug].sort())
  for (const row of rows) {
    t.equal(row.model, 'test-model-2024-07-18', 'the model that answered is recorded')
    t.equal(row.promptVersion, 'narrative-faithful-v2')
    t.equal(row.style, 'faithful')
    t.equal(row.summary, VALID(deps.narratives.get(row.slug)?.title ?? '').summary)
  }

  // A second run skips the done narratives and asks again only for the failed one.
  const second = await startFake(t, (title) => VALID(title))
  const resumed = await generateNarrativeContent(deps, { style: 'faithful', gospel: 'mark', limit: 1, client: client(second.url), model: 'test-model' })
  t.equal(resumed.skipped, 2)
  t.equal(resumed.done, 1)
  t.same([...second.perTitle.keys()], [bad.title])
  t.equal((await deps.repository.coveredSlugs('faithful', 'narrative-faithful-v2')).size, 3)

  // Served content: curated wins where both exist, generated fills the rest.
  const generatedOk1 = (await deps.repository.listAll()).find((r) => r.slug === ok1.slug && r.method === 'generated')
  if (generatedOk1 === undefined) throw new Error('ok1 was generated')
  await deps.repository.upsertMany([
    { ...generatedOk1, method: 'curated', model: null, promptVersion: 'curated-2', summary: `${generatedOk1.summary} Curated.` },
  ])
  const stores = await deps.reload()
  t.equal(stores.narrativeContent.get(`${ok1.slug}:faithful`)?.method, 'curated', 'curated wins over generated')
  t.equal(stores.narrativeContent.get(`${ok2.slug}:faithful`)?.method, 'generated', 'generated fills the rest')
})

t.test('narratives with shipped content are left alone', async (t) => {
  const deps = await setup(t)
  const [first, second] = selectNarratives(deps.narratives, 'mark')
  if (first === undefined || second === undefined) throw new Error('Mark has narratives')
  const row = (slug: string, method: 'curated' | 'generated', promptVersion: string) => ({
    slug,
    style: 'faithful' as const,
    method,
    model: method === 'curated' ? null : 'anthropic/claude',
    promptVersion,
    summary: 'x',
    bottomLine: 'x',
    contentHash: 'x',
  })
  await deps.repository.upsertMany([row(first.slug, 'generated', 'editorial-1'), row(second.slug, 'curated', 'curated-2')])
  const plan = await planNarrativeGeneration(deps, { style: 'faithful', gospel: 'mark' })
  t.equal(plan.skipped, 2, 'the team-written and the curated narrative are skipped')
  t.not(plan.first?.slug, first.slug)
})

t.test('a bad --gospel is a selection error', async (t) => {
  const deps = await setup(t)
  t.throws(() => selectNarratives(deps.narratives, 'acts'), /--gospel must be/)
})

t.test('import and export round trip, all or nothing', async (t) => {
  const deps = await setup(t, { shipped: true })
  // Two narratives whose shipped content is curated, so that the imported generated lines
  // sit beside it rather than replacing the team's generated lines (same key).
  const shippedLines = readFileSync(projectPath(NARRATIVE_CONTENT_FILE), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as NarrativeContentLine)
  const curatedSlugs = new Set(shippedLines.filter((l) => l.provenance.method === 'curated').map((l) => l.narrative))
  const [a, b] = selectNarratives(deps.narratives, 'john').filter((n) => curatedSlugs.has(n.slug))
  if (a === undefined || b === undefined) throw new Error('John has curated narratives')
  const line = (slug: string, style: 'faithful' | 'casual'): NarrativeContentLine => ({
    narrative: slug,
    style,
    summary: 'Jesus speaks with the people there. They listen and some of them believe.',
    bottom_line: 'Jesus meets people where they are.',
    provenance: { method: 'generated', model: 'gpt-4o-mini-2024-07-18', prompt_version: `narrative-${style}-v1` },
  })
  const good = [line(a.slug, 'faithful'), line(b.slug, 'casual')].map((l) => JSON.stringify(l))
  t.ok(isNarrativeJsonl(good.join('\n')))
  t.notOk(isNarrativeJsonl('{"slug":"john-11-35","style":"faithful"}'))

  // One bad line (one sentence, no such narrative, missing model) rejects the whole file.
  const badLines = [
    JSON.stringify({ ...line(a.slug, 'casual'), summary: 'Only one sentence here.' }),
    JSON.stringify(line('no-such-narrative', 'faithful')),
    JSON.stringify({ ...line(b.slug, 'faithful'), provenance: { method: 'generated', model: null, prompt_version: 'x' } }),
  ]
  const rejected = await deps.content.import([...good, ...badLines].join('\n'), { dryRun: false })
  t.equal(rejected.written, false)
  t.match(rejected.rejected, [
    { line: 3, reason: /summary sentence_count: has 1 sentence; 2 to 4 are allowed/ },
    { line: 4, reason: /names no narrative/ },
    { line: 5, reason: /provenance.model is required/ },
  ])
  const imports = async (): Promise<number> =>
    (await deps.repository.listAll()).filter((r) => r.method === 'generated' && !r.promptVersion.startsWith('editorial-')).length
  t.equal(await imports(), 0, 'nothing was written')

  const dup = await deps.content.import([good[0], good[0]].join('\n'), { dryRun: false })
  t.match(dup.rejected, [{ line: 2, reason: /duplicate of line 1/ }])

  const dry = await deps.content.import(good.join('\n'), { dryRun: true })
  t.same({ accepted: dry.accepted, written: dry.written, rejected: dry.rejected }, { accepted: 2, written: false, rejected: [] })

  const imported = await deps.content.import(`${good.join('\n')}\n`, { dryRun: false })
  t.equal(imported.written, true)
  const exported = await deps.content.export(undefined)
  const provenanceOf = (l: string) => (JSON.parse(l) as NarrativeContentLine).provenance
  const generated = exported.filter((l) => provenanceOf(l).method === 'generated' && !provenanceOf(l).prompt_version.startsWith('editorial-'))
  t.same(
    generated.map((l) => JSON.parse(l) as NarrativeContentLine),
    [JSON.parse(good[0] ?? ''), JSON.parse(good[1] ?? '')],
    'export gives back the imported lines, in canonical order',
  )
  t.equal(exported.length, shippedLines.length + 2, 'with every shipped line as well')

  // Re-importing the export changes nothing (idempotent), and the export is stable.
  const before = await deps.repository.listAll()
  const again = await deps.content.import(exported.join('\n'), { dryRun: false })
  t.equal(again.rejected.length, 0)
  t.same(await deps.repository.listAll(), before)
  t.same(
    await deps.content.export('casual'),
    exported.filter((l) => (JSON.parse(l) as NarrativeContentLine).style === 'casual'),
  )
})
