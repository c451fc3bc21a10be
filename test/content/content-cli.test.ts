/**
 * `plainverse content ...` run as a separate process, as an operator would: export/import
 * round trip, rejected lines, dry runs, idempotence, the report (modernizer and coverage), generation
 * against a local OpenAI-compatible server, Ctrl-C, and the refusal to share the embedded
 * database with a running server.
 */
import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { adminPaths } from '../../src/admin/admin.server.js'
import { acquireDataDirLock } from '../../src/infra/data-dir-lock.js'
import type { ContentLine } from '../../src/content/pipeline/content.service.js'
import { isShipped } from '../../src/content/content.store.js'
import { projectPath } from '../../src/infra/paths.js'
import { runCli, type CliResult } from '../helpers/cli.js'
import { gateReadyRendering } from '../helpers/renderings.js'
import { removeDataDir, seededDataDir } from '../helpers/server.js'
import { removeWrittenContent } from '../helpers/database.js'
import { openDatabase } from '../../src/infra/database.js'
import { verseId } from '../../src/verses/verse.store.js'
import { KJV_SEED_FILE, NARRATIVE_CONTENT_FILE, NARRATIVES_FILE, VERSE_CONTENT_DIR } from '../../src/seed/seed-files.js'
import { readKjvSeed } from '../../src/seed/kjv-seed.js'
import { BOOKS, bookAt } from '../../src/verses/books.js'
import { modernize } from '../../src/content/pipeline/modernizer.js'
import { findHybrids } from '../../src/content/pipeline/modernizer.hybrids.js'
import { findBroadArchaicForms } from '../../src/text/archaic.js'

/** The lines shipped in db/content/verses, which a seeded database exports beside anything imported. */
const SHIPPED: readonly ContentLine[] = readdirSync(projectPath(VERSE_CONTENT_DIR))
  .filter((name) => name.endsWith('.jsonl'))
  .flatMap((name) =>
    readFileSync(projectPath(VERSE_CONTENT_DIR, name), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== ''),
  )
  .map((l) => JSON.parse(l) as ContentLine)
const SHIPPED_LINES = SHIPPED.length

/** The book a content line's slug names (`2-john-1-1` is `2-john`). */
const bookOf = (slug: string): string => slug.replace(/-\d+-\d+$/, '')

/**
 * The smallest book of the Bible, with the ids of its verses: the book the generation tests
 * write in full. Generation skips verses with shipped content and every book has some, so
 * those tests first remove the book's written content from their own database
 * ({@link removeBookContent}), as an operator who wants it generated would.
 */
const GENERATED_BOOK = (() => {
  const books = new Map<string, number[]>()
  for (const verse of readKjvSeed(projectPath(KJV_SEED_FILE)).verses) {
    const book = bookAt(verse.book)
    if (book === undefined) continue
    const ids = books.get(book.slug) ?? []
    ids.push(verseId(verse.book, verse.chapter, verse.verse))
    books.set(book.slug, ids)
  }
  const [slug, ids] = [...books].sort((a, b) => a[1].length - b[1].length)[0] ?? []
  if (slug === undefined || ids === undefined) throw new Error('the seed holds no book')
  return { slug, verses: ids.length, ids }
})()
const N = GENERATED_BOOK.verses
const fmt = (n: number): string => n.toLocaleString('en-US')

/**
 * Removes the written content of some verses from a data folder's embedded database (while no
 * CLI process has it open), checking that exactly their shipped lines went.
 */
async function removeShippedContent(t: Test, dir: string, ids: readonly number[], shipped: readonly ContentLine[], label: string): Promise<void> {
  const database = await openDatabase({ kind: 'pglite', dir: join(dir, 'pglite') })
  try {
    t.equal(await removeWrittenContent(database.db, ids), shipped.length, `${label}: its ${fmt(shipped.length)} shipped lines are removed`)
  } finally {
    await database.close()
  }
}

/** Removes {@link GENERATED_BOOK}'s written content from a data folder, so that generation has the whole book to write. */
async function removeBookContent(t: Test, dir: string): Promise<void> {
  const shipped = SHIPPED.filter((line) => bookOf(line.slug) === GENERATED_BOOK.slug)
  t.ok(shipped.length > 0, `${GENERATED_BOOK.slug} ships written content`)
  await removeShippedContent(t, dir, GENERATED_BOOK.ids, shipped, GENERATED_BOOK.slug)
}

/** Whether an exported line is an operator's (imported or generated), not shipped with the repository. */
function operatorLine(line: ContentLine): boolean {
  return !isShipped({ method: line.provenance.method, promptVersion: line.provenance.prompt_version })
}

/** Starts `plainverse content <args>` and returns the child with its eventual result. */
function start(args: string[], env: Record<string, string>): { child: ReturnType<typeof spawn>; result: Promise<CliResult> } {
  const argv = ['--import', 'tsx', projectPath('src', 'cli', 'main.ts'), 'content', ...args]
  const child = spawn(process.execPath, argv, {
    cwd: projectPath(),
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'silent', LLM_BASE_URL: '', LLM_MODEL: '', LLM_API_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const result = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code: code ?? (signal === null ? 1 : 128), stdout, stderr })),
  )
  return { child, result }
}

/** Runs `plainverse content <args>` to the end. */
async function content(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runCli(['content', ...args], env)
}

function dataDir(t: Test): string {
  const dir = seededDataDir()
  t.teardown(() => removeDataDir(dir))
  return dir
}

function jsonl(stdout: string): ContentLine[] {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as ContentLine)
}

const GENERATED_LINE: ContentLine = {
  slug: 'john-11-35',
  style: 'faithful',
  simplified_text: 'Jesus wept.',
  bottom_line: 'Jesus cried openly as he grieved with Mary and Martha over the death of his friend Lazarus.',
  historical_context:
    'The Gospel of John, traditionally attributed to the apostle John and usually dated to around AD 90 to 100, places this moment at Bethany, shortly before Jesus raises Lazarus.',
  practical_reflection: 'Jesus wept even though he knew what he was about to do, so grief is not a failure of faith.',
  provenance: { method: 'generated', model: 'gpt-4o-mini-2024-07-18', prompt_version: 'faithful-v1' },
}

t.test('export, import (dry run, idempotent), round trip', async (t) => {
  const dirA = dataDir(t)
  const env = { DATA_DIR: dirA }
  const file = join(dirA, 'generated.jsonl')
  writeFileSync(file, `${JSON.stringify(GENERATED_LINE)}\n`)
  const dry = await content(['import', file, '--dry-run'], env)
  t.equal(dry.code, 0, dry.stderr)
  t.match(dry.stdout, /Dry run: all 1 lines are valid; nothing was written/)
  const dryJson = await content(['import', file, '--dry-run', '--json'], env)
  t.equal(dryJson.code, 0, dryJson.stderr)
  t.same(
    JSON.parse(dryJson.stdout),
    { target: 'verses', dry_run: true, lines: 1, accepted: 1, rejected: [], written: false },
    'import --json: the result as JSON',
  )
  t.same(jsonl((await content(['export', '--json'], env)).stdout), jsonl((await content(['export'], env)).stdout), 'export is JSON with or without --json')

  const exported = await content(['export'], env)
  t.equal(exported.code, 0, exported.stderr)
  const before = jsonl(exported.stdout)
  t.equal(before.length, SHIPPED_LINES, 'the shipped content of both styles, and nothing from the dry run')
  t.ok(before.every((l) => !operatorLine(l)))
  t.match(exported.stderr, `Exported ${SHIPPED_LINES.toLocaleString('en-US')} lines`)

  const imported = await content(['import', file], env)
  t.equal(imported.code, 0, imported.stderr)
  t.match(imported.stdout, /Imported 1 lines/)
  t.match(imported.stdout, /restart/)
  const after = (await content(['export'], env)).stdout
  // Stored content is keyed by verse, style and method: an imported line replaces a shipped one of the same key.
  const replaced = SHIPPED.some(
    (l) => l.slug === GENERATED_LINE.slug && l.style === GENERATED_LINE.style && l.provenance.method === GENERATED_LINE.provenance.method,
  )
  const expected = SHIPPED_LINES + (replaced ? 0 : 1)
  t.equal(jsonl(after).length, expected, 'one generated line next to the shipped ones')
  t.same(jsonl(after).filter(operatorLine), [GENERATED_LINE])

  // Round trip: the export imports cleanly (every line is already there, so it changes
  // nothing: imports are idempotent) and exports exactly the same again.
  const all = join(dirA, 'all.jsonl')
  writeFileSync(all, after)
  const again = await content(['import', all], env)
  t.equal(again.code, 0, again.stderr)
  t.match(again.stdout, `Imported ${expected.toLocaleString('en-US')} lines`)
  t.equal((await content(['export'], env)).stdout, after, 'round trip, and the re-import changed nothing')
})

t.test('a file with bad lines: each reported by line number, nothing written, exit 1', async (t) => {
  const dir = dataDir(t)
  const file = join(dir, 'bad.jsonl')
  const archaic = { ...GENERATED_LINE, slug: 'john-11-36', simplified_text: 'Then said the Jews, Behold how he loved him!' }
  writeFileSync(
    file,
    [
      JSON.stringify(GENERATED_LINE),
      '{"slug": "john-11-35", not json',
      JSON.stringify({ ...GENERATED_LINE, slug: 'genesis-99-1' }),
      JSON.stringify({ ...archaic, simplified_text: 'Then the Jews said, Behold how thou loved him!' }),
      '',
      JSON.stringify(GENERATED_LINE),
      JSON.stringify({ ...GENERATED_LINE, provenance: { method: 'modernized', model: null, prompt_version: 'x' } }),
    ].join('\n'),
  )
  for (const args of [
    ['import', file],
    ['import', file, '--dry-run'],
  ]) {
    const result = await content(args, { DATA_DIR: dir })
    t.equal(result.code, 1, args.join(' '))
    t.match(result.stderr, /^line 2: not valid JSON$/m)
    t.match(result.stderr, /^line 3: slug "genesis-99-1" names no verse$/m)
    t.match(result.stderr, /^line 4: simplified_text archaic_form: uses archaic form "thou"/m)
    t.match(result.stderr, /^line 6: duplicate of line 1/m)
    t.match(result.stderr, /^line 7: modernized text is derived by the seed/m)
    t.notMatch(result.stderr, /^line (1|5):/m, 'good and blank lines are not reported')
    t.match(result.stderr, /Rejected 5 of 6 lines; nothing was written/)
  }
  const exported = jsonl((await content(['export'], { DATA_DIR: dir })).stdout)
  t.equal(exported.filter(operatorLine).length, 0, 'the valid line was not written either')

  const missing = await content(['import', join(dir, 'nope.jsonl')], { DATA_DIR: dir })
  t.equal(missing.code, 1)
  t.match(missing.stderr, /no such file/)
  t.equal((await content(['import'], { DATA_DIR: dir })).code, 64, 'FILE is required')
  t.equal((await content(['export', '--style', 'poetic'], { DATA_DIR: dir })).code, 64)
  t.equal((await content(['frobnicate'], { DATA_DIR: dir })).code, 64)
})

/** Per book and style: the verses with content and with each field, computed from the shipped lines alone. */
interface Expected {
  readonly total: number
  readonly styles: Record<'faithful' | 'casual', { verses: Set<string>; fields: Map<string, Set<string>> }>
}

/** The coverage a group of books should have, counted straight from content lines and the seed. */
function expectedCoverage(lines: readonly ContentLine[], books: (position: number) => boolean): Expected {
  const bySlug = new Map(BOOKS.map((book) => [book.slug, book.position]))
  const total = readKjvSeed(projectPath(KJV_SEED_FILE)).verses.filter((verse) => books(verse.book)).length
  const styles: Expected['styles'] = { faithful: { verses: new Set(), fields: new Map() }, casual: { verses: new Set(), fields: new Map() } }
  for (const line of lines) {
    const position = bySlug.get(bookOf(line.slug))
    if (position === undefined || !books(position)) continue
    styles[line.style].verses.add(line.slug)
    for (const field of ['simplified_text', 'bottom_line', 'historical_context', 'practical_reflection'] as const) {
      const value = line[field]
      if (typeof value !== 'string' || value.trim() === '') continue
      const set = styles[line.style].fields.get(field) ?? new Set<string>()
      set.add(line.slug)
      styles[line.style].fields.set(field, set)
    }
  }
  return { total, styles }
}

interface ShareJson {
  count: number
  share: number
}
interface GroupJson {
  name: string
  total: number
  faithful: { verses: ShareJson; fields: Record<string, ShareJson> }
  casual: { verses: ShareJson; fields: Record<string, ShareJson> }
}
interface CoverageJson {
  all: GroupJson
  testaments: GroupJson[]
  books: GroupJson[]
  narratives: { total: number; faithful: { summary: ShareJson; bottomLine: ShareJson }; casual: { summary: ShareJson; bottomLine: ShareJson } }
}
interface ReportJson {
  modernizer: {
    total: number
    withArchaic: number
    share: number
    hybrids: { verses: number }
    verbatim: { verses: number; share: number }
    narrow: { withArchaic: number }
    target: { met: boolean }
  }
  coverage: { shipped: CoverageJson; database: { status: string; location: string; reason?: string; coverage?: CoverageJson } }
}

/** Compares one group of the report with the independent count. */
function checkGroup(t: Test, group: GroupJson | undefined, expected: Expected, name: string): void {
  if (group === undefined) throw new Error(`${name}: missing from the report`)
  t.equal(group.total, expected.total, `${name}: verses`)
  for (const style of ['faithful', 'casual'] as const) {
    const count = expected.styles[style].verses.size
    t.same(group[style].verses, { count, share: expected.total === 0 ? 0 : count / expected.total }, `${name}: ${style} verses`)
    const fields = style === 'faithful' ? ['simplified_text', 'bottom_line', 'historical_context', 'practical_reflection'] : ['simplified_text', 'bottom_line']
    t.same(Object.keys(group[style].fields), fields, `${name}: ${style} fields`)
    for (const field of fields) t.equal(group[style].fields[field]?.count, expected.styles[style].fields.get(field)?.size ?? 0, `${name}: ${style} ${field}`)
  }
}

/** Checks a whole coverage report against the content lines it should reflect. */
function checkCoverage(t: Test, coverage: CoverageJson, lines: readonly ContentLine[], label: string): void {
  checkGroup(
    t,
    coverage.all,
    expectedCoverage(lines, () => true),
    `${label}, all`,
  )
  checkGroup(
    t,
    coverage.testaments[0],
    expectedCoverage(lines, (book) => bookAt(book)?.testament === 'old'),
    `${label}, Old Testament`,
  )
  checkGroup(
    t,
    coverage.testaments[1],
    expectedCoverage(lines, (book) => bookAt(book)?.testament === 'new'),
    `${label}, New Testament`,
  )
  t.equal(coverage.books.length, 66)
  for (const book of BOOKS)
    checkGroup(
      t,
      coverage.books[book.position - 1],
      expectedCoverage(lines, (position) => position === book.position),
      `${label}, ${book.name}`,
    )
}

/** The narratives and their shipped content, read straight from the files. */
function expectedNarratives(): { total: number; count: (style: string, field: 'summary' | 'bottom_line') => number } {
  const slugs = new Set((JSON.parse(readFileSync(projectPath(NARRATIVES_FILE), 'utf8')) as Array<{ slug: string }>).map((n) => n.slug))
  const lines = readFileSync(projectPath(NARRATIVE_CONTENT_FILE), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, string>)
  return {
    total: slugs.size,
    count: (style, field) =>
      new Set(lines.filter((l) => l.style === style && slugs.has(l.narrative ?? '') && (l[field] ?? '').trim() !== '').map((l) => l.narrative)).size,
  }
}

t.test('report: the modernizer by the broad definition, hybrids, verbatim share', async (t) => {
  // The modernizer's figures come from the committed seed, not a database.
  const result = await content(['report'], { DATA_DIR: join(tmpdir(), 'pv-no-data-dir') })
  t.equal(result.code, 0, result.stdout + result.stderr)
  const verses = readKjvSeed(projectPath(KJV_SEED_FILE)).verses
  const modern = verses.map((verse) => ({ kjv: verse.text, modern: modernize(verse.text) }))
  const broad = modern.filter((v) => findBroadArchaicForms(v.modern).length > 0).length
  const hybrids = modern.filter((v) => findHybrids(v.modern).length > 0).length
  const verbatim = modern.filter((v) => v.modern === v.kjv).length
  const pct = (n: number): string => `${((n / verses.length) * 100).toFixed(2)}%`
  t.match(result.stdout, `Modernizer report: ${fmt(verses.length)} verses`)
  t.match(result.stdout, `with a form of the broad archaic list (EDITORIAL.md section 10): ${fmt(broad)} verses (${pct(broad)}); target under 1.00%: met`)
  t.match(result.stdout, `with a hybrid (half old, half modern): ${fmt(hybrids)} verses (${pct(hybrids)}); target 0: met`)
  t.match(result.stdout, `served verbatim (modernized text identical to the KJV): ${fmt(verbatim)} verses (${pct(verbatim)})`)
  t.ok(broad / verses.length < 0.01, `broad share under 1% (${pct(broad)})`)
  t.equal(hybrids, 0, 'no hybrid')

  // The shipped coverage in the text: the testament rows, counted from the files here.
  for (const [name, testament] of [
    ['Old Testament', 'old'],
    ['New Testament', 'new'],
  ] as const) {
    const expected = expectedCoverage(SHIPPED, (book) => bookAt(book)?.testament === testament)
    const faithful = expected.styles.faithful.verses.size
    const casual = expected.styles.casual.verses.size
    const share = (n: number): string => `${fmt(n)} \\(${((n / expected.total) * 100).toFixed(2)}%\\)`
    t.match(
      result.stdout,
      new RegExp(`\\n  ${name}\\s+${fmt(expected.total)}\\s+${share(faithful)}(\\s+\\S+ \\(\\S+\\)){4}\\s+${share(casual)}`),
      `${name} row`,
    )
  }
  const narratives = expectedNarratives()
  t.match(result.stdout, `narratives (${narratives.total}): faithful summary ${fmt(narratives.count('faithful', 'summary'))}`)
  t.match(result.stdout, /Content coverage, database \(.*pv-no-data-dir.*\): not read: no database there yet/)
})

t.test('report --json: the same figures as one document, shipped and database coverage', async (t) => {
  const dir = dataDir(t)
  const first = await content(['report', '--json'], { DATA_DIR: dir })
  t.equal(first.code, 0, first.stderr)
  const report = JSON.parse(first.stdout) as ReportJson
  t.equal(report.modernizer.total, 31102)
  t.equal(report.modernizer.hybrids.verses, 0)
  t.equal(report.modernizer.target.met, true)
  checkCoverage(t, report.coverage.shipped, SHIPPED, 'shipped')
  const narratives = expectedNarratives()
  t.equal(report.coverage.shipped.narratives.total, narratives.total)
  for (const style of ['faithful', 'casual'] as const) {
    t.equal(report.coverage.shipped.narratives[style].summary.count, narratives.count(style, 'summary'), `${style} summaries`)
    t.equal(report.coverage.shipped.narratives[style].bottomLine.count, narratives.count(style, 'bottom_line'), `${style} bottom lines`)
  }
  // A seeded database holds the shipped content and nothing else.
  t.equal(report.coverage.database.status, 'read', report.coverage.database.reason ?? 'read')
  if (report.coverage.database.coverage === undefined) throw new Error('no database coverage')
  checkCoverage(t, report.coverage.database.coverage, SHIPPED, 'database')
  t.same(report.coverage.database.coverage.narratives, report.coverage.shipped.narratives)

  // Removed content and an imported line show in the database's coverage, not in the shipped one.
  const verse = readKjvSeed(projectPath(KJV_SEED_FILE)).verses.find((v) => bookAt(v.book)?.slug === GENERATED_BOOK.slug && v.chapter === 1 && v.verse === 1)
  if (verse === undefined) throw new Error(`${GENERATED_BOOK.slug} 1:1 is not in the seed`)
  const slug = `${GENERATED_BOOK.slug}-1-1`
  const remaining = SHIPPED.filter((l) => l.slug !== slug)
  await removeShippedContent(
    t,
    dir,
    [verseId(verse.book, verse.chapter, verse.verse)],
    SHIPPED.filter((l) => l.slug === slug),
    slug,
  )
  const removed = JSON.parse((await content(['report', '--json'], { DATA_DIR: dir })).stdout) as ReportJson
  checkCoverage(t, removed.coverage.shipped, SHIPPED, 'shipped after the removal')
  if (removed.coverage.database.coverage === undefined) throw new Error('no database coverage')
  checkCoverage(t, removed.coverage.database.coverage, remaining, 'database after the removal')
  const line: ContentLine = {
    slug,
    style: 'casual',
    simplified_text: gateReadyRendering(verse.text),
    bottom_line: `This is what ${bookAt(verse.book)?.name ?? ''} 1:1 says in plain words.`,
    provenance: { method: 'generated', model: 'local-test', prompt_version: 'casual-v2' },
  }
  const file = join(dir, 'one.jsonl')
  writeFileSync(file, `${JSON.stringify(line)}\n`)
  const imported = await content(['import', file], { DATA_DIR: dir })
  t.equal(imported.code, 0, imported.stderr)
  const second = JSON.parse((await content(['report', '--json'], { DATA_DIR: dir })).stdout) as ReportJson
  checkCoverage(t, second.coverage.shipped, SHIPPED, 'shipped after the import')
  if (second.coverage.database.coverage === undefined) throw new Error('no database coverage')
  checkCoverage(t, second.coverage.database.coverage, [...remaining, line], 'database after the import')

  // A server holding DATA_DIR does not stop the report: it says why the database was not read.
  const lock = acquireDataDirLock(dir, 'server')
  t.teardown(() => lock.release())
  const held = await content(['report'], { DATA_DIR: dir })
  t.equal(held.code, 0, held.stderr)
  t.match(held.stdout, /Content coverage, database \(.*\): not read: DATA_DIR .* is in use by a Plainverse server/)
  t.match(held.stdout, /Content coverage, shipped/)
})

// ---------------------------------------------------------------------------------------
// Generation through the CLI

interface FakeLlm {
  readonly url: string
  requests(): number
}

/** A minimal OpenAI-compatible server: valid casual answers, or none at all. */
async function fakeLlm(t: Test, mode: 'answer' | 'hang'): Promise<FakeLlm> {
  let requests = 0
  const server: Server = createHttpServer((req, res) => {
    let data = ''
    req.setEncoding('utf8').on('data', (chunk: string) => (data += chunk))
    req.on('end', () => {
      requests++
      if (mode === 'hang') return
      const body = JSON.parse(data) as { messages: Array<{ role: string; content: string }> }
      const user = body.messages.find((m) => m.role === 'user')?.content ?? ''
      const [, reference = '', kjv = ''] = /Target verse, (.+?) \(KJV, \d+ words\):\n(.*)\n/.exec(user) ?? []
      const answer = { simplified_text: gateReadyRendering(kjv), bottom_line: `This is what ${reference} says in plain words.` }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          model: 'local-test',
          choices: [{ message: { role: 'assistant', content: JSON.stringify(answer) }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 700, completion_tokens: 60 },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => requests }
}

t.test('generate: a whole book, then nothing left to do', async (t) => {
  const dir = dataDir(t)
  await removeBookContent(t, dir)
  const llm = await fakeLlm(t, 'answer')
  const env = { DATA_DIR: dir, LLM_BASE_URL: llm.url, LLM_MODEL: 'local-test' }

  const unset = await content(['generate', '--style', 'casual', '--book', GENERATED_BOOK.slug], { DATA_DIR: dir, LLM_BASE_URL: llm.url })
  t.equal(unset.code, 78, 'a missing variable is bad configuration, as for the server')
  t.match(unset.stderr, /LLM_MODEL is not set/)
  t.equal((await content(['generate', '--book', GENERATED_BOOK.slug], env)).code, 64, '--style is required')

  const dry = await content(['generate', '--style', 'casual', '--book', GENERATED_BOOK.slug, '--dry-run'], env)
  t.equal(dry.code, 0, dry.stderr)
  t.match(dry.stdout, new RegExp(`to generate: ${fmt(N)} verses`))
  t.match(dry.stdout, new RegExp(`First request \\(${GENERATED_BOOK.slug}-1-1\\)`))
  t.match(dry.stdout, /Token estimate \(an estimate/)
  const dryJson = await content(['generate', '--style', 'casual', '--book', GENERATED_BOOK.slug, '--dry-run', '--json'], env)
  t.equal(dryJson.code, 0, dryJson.stderr)
  t.match(
    JSON.parse(dryJson.stdout),
    { style: 'casual', toGenerate: N, first: { slug: `${GENERATED_BOOK.slug}-1-1` } },
    'generate --dry-run --json: the plan as JSON',
  )
  t.equal(llm.requests(), 0, 'a dry run calls no provider')

  const run = await content(['generate', '--style', 'casual', '--book', GENERATED_BOOK.slug, '--concurrency', '3'], env)
  t.equal(run.code, 0, run.stderr)
  t.match(run.stdout, new RegExp(`generated: +${fmt(N)} of ${fmt(N)}`))
  t.match(run.stdout, new RegExp(`tokens: +${fmt(700 * N)} in, ${fmt(60 * N)} out`))
  t.match(run.stdout, /restart/)
  t.match(run.stderr, new RegExp(`${fmt(N)} verses selected, 0 skipped`))
  t.notMatch(run.stderr, /\r/, 'plain progress lines when stderr is not a terminal')
  t.equal(llm.requests(), N)

  const lines = jsonl((await content(['export', '--style', 'casual'], env)).stdout).filter(operatorLine)
  t.equal(lines.length, N)
  t.same(lines[0]?.provenance, { method: 'generated', model: 'local-test', prompt_version: 'casual-v2' })

  const again = await content(['generate', '--style', 'casual', '--book', GENERATED_BOOK.slug], env)
  t.equal(again.code, 0, again.stderr)
  t.match(again.stdout, new RegExp(`skipped: +${fmt(N)} already generated with casual-v2`))
  t.equal(llm.requests(), N, 'resumed run: nothing left to ask')
})

t.test('generate: Ctrl-C stops cleanly with exit code 130', async (t) => {
  const dir = dataDir(t)
  await removeBookContent(t, dir)
  const llm = await fakeLlm(t, 'hang')
  const { child, result } = start(['generate', '--style', 'faithful', '--book', GENERATED_BOOK.slug, '--concurrency', '2'], {
    DATA_DIR: dir,
    LLM_BASE_URL: llm.url,
    LLM_MODEL: 'local-test',
  })
  // A liveness bound, not a speed check: a CLI start on a busy machine can take a while.
  const deadline = Date.now() + 300_000
  while (llm.requests() < 2) {
    if (child.exitCode !== null) throw new Error(`the CLI exited before sending its requests: ${JSON.stringify(await result)}`)
    if (Date.now() > deadline) throw new Error('the CLI never sent its requests')
    await new Promise((r) => setTimeout(r, 50))
  }
  child.kill('SIGINT')
  const stopped = await result
  t.equal(stopped.code, 130, stopped.stderr)
  t.match(stopped.stdout, new RegExp(`generated: +0 of ${fmt(N)}`))
  t.match(stopped.stdout, new RegExp(`not finished: ${fmt(N)} \\(2 in flight when stopped, ${fmt(N - 2)} not started`))
  t.match(stopped.stdout, /Stopped by request/)
  t.equal(llm.requests(), 2, 'no request after Ctrl-C')
  const exported = jsonl((await content(['export', '--style', 'faithful'], { DATA_DIR: dir })).stdout)
  t.equal(exported.filter(operatorLine).length, 0)
})

t.test('refuses to share the embedded database with a running server', async (t) => {
  const dir = dataDir(t)
  const file = join(dir, 'one.jsonl')
  writeFileSync(file, `${JSON.stringify(GENERATED_LINE)}\n`)
  // A server holds DATA_DIR's lock for its whole life (this process plays it here).
  const lock = acquireDataDirLock(dir, 'server')
  t.teardown(() => lock.release())
  for (const args of [['import', file], ['generate', '--style', 'casual', '--book', GENERATED_BOOK.slug, '--dry-run'], ['export']]) {
    const result = await content(args, { DATA_DIR: dir, LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'm' })
    t.equal(result.code, 75, args.join(' '))
    t.match(
      result.stderr,
      new RegExp(
        `DATA_DIR .* is in use by a Plainverse server \\(pid ${process.pid} on host .*, starting since .*\\)\\.\\n.*one process at a time: stop the server`,
      ),
    )
  }
  lock.release()
  // A socket file left by a server that died does not block anything: the lock decides.
  writeFileSync(adminPaths(dir).socket, '')
  const free = await content(['import', file], { DATA_DIR: dir })
  t.equal(free.code, 0, free.stderr)
})
