/**
 * `plainverse content <command>`: AI generation, JSONL export and import, and the modernizer
 * report. These commands work on the database directly (not through a running server's admin
 * socket): generation runs for hours and imports can be large, which the socket is not for.
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig, type Config } from '../config.js'
import { ContentRepository } from '../content/content.repository.js'
import { ContentService } from '../content/pipeline/content.service.js'
import type { Style } from '../content/content.store.js'
import { DEFAULT_CONCURRENCY, SelectionError, generateContent, planGeneration, type GenerationDeps } from '../content/pipeline/generation/generate.service.js'
import { LlmClient, LlmConfigError, loadLlmConfig } from '../content/pipeline/generation/llm-client.js'
import { GenerationProgress, formatCount, formatPlan, formatReport } from '../content/pipeline/generation/progress.js'
import { formatModernizerReport, modernizerReport, REPORT_TARGET } from '../content/pipeline/modernizer.report.js'
import type { DataDirLock } from '../infra/data-dir-lock.js'
import { databaseLocation, openDatabase } from '../infra/database.js'
import { claimEmbeddedDatabase, cliContentPackDir, DataDirUnavailable, EX_TEMPFAIL } from './data-dir-access.js'
import { NarrativeContentRepository } from '../narratives/narrative-content.repository.js'
import { NarrativeContentService, isNarrativeJsonl } from '../content/pipeline/narrative-content.service.js'
import { generateNarrativeContent, planNarrativeGeneration, type NarrativeGenerationDeps } from '../content/pipeline/generation/narrative-generation.js'
import { projectPath } from '../infra/paths.js'
import { readKjvSeed } from '../seed/kjv-seed.js'
import { loadStores, prepareDatabase } from '../startup.js'
import { dataDirSeedOptions } from '../seed/seed-files.js'
import { systemClock } from '../infra/clock.js'
import { bookAt } from '../verses/books.js'
import { verseSlug } from '../verses/slug.js'
import { KJV_SEED_FILE, NARRATIVE_CONTENT_FILE, NARRATIVES_FILE, VERSE_CONTENT_DIR } from '../seed/seed-files.js'
import { formatCoverage, type DatabaseCoverage } from '../content/coverage.report.js'
import { contentCoverage } from '../content/coverage.js'
import { databaseCoverageInput, shippedCoverageInput } from '../content/coverage.sources.js'
import type { StructuredVerse } from '../verses/verse.store.js'

/** The help text of the content commands (main.ts may include it in its own). */
export const CONTENT_USAGE = `Usage: plainverse content <command> [options]

Content (embedded database: stop the server first; it loads content at start):
  content generate --style faithful|casual [--book BOOK] [--chapter N] [--limit N]
                   [--concurrency N] [--dry-run] [--json]
                                     Write content with an OpenAI-compatible model. Resumable:
                                     verses already generated with the current prompt version
                                     are skipped. Ctrl-C stops cleanly.
                                     Needs LLM_BASE_URL, LLM_MODEL, LLM_API_KEY (optional for
                                     local servers), LLM_TIMEOUT_SECONDS (optional, default 60).
  content generate --target narratives --style faithful|casual
                   [--gospel matthew|mark|luke|john] [--limit N] [--concurrency N] [--dry-run]
                   [--json]
                                     The same for the Gospel narratives' summaries and bottom
                                     lines (default --target verses).
  content export [--target verses|narratives] [--style faithful|casual] [--json]
                                     Print curated and generated content as JSONL on stdout
                                     (always JSON: --json changes nothing)
  content import FILE [--target verses|narratives] [--dry-run] [--json]
                                     Import a JSONL file (all lines or none; idempotent);
                                     narrative lines (with a "narrative" key) are detected
  content report [--json]            The modernizer's figures over the KJV (verses holding a
                                     form of the broad archaic list, hybrids, verses served
                                     verbatim; exits 1 when the broad share is 1% or more or
                                     any hybrid is left) and content coverage by testament,
                                     book, style and field, for the shipped files and for the
                                     database (skipped while a server holds it). --json prints
                                     the same as one JSON document.

--json prints the plan, the run's report or the import's result as one JSON document.

Exit codes: 0 success, 1 failure (rejected lines, failed verses, target missed),
75 DATA_DIR held by another process (a server on the embedded database: stop it first),
64 bad usage, 78 bad configuration (a missing or bad variable), 130 stopped by Ctrl-C.`

/** Where the command writes. */
export interface ContentIo {
  /** A line of results. */
  readonly out: (s: string) => void
  /** A line of errors and notes. */
  readonly err: (s: string) => void
  /** Raw output for bulk data (export). */
  readonly stdout: NodeJS.WritableStream
  /** Raw output for the progress bar. */
  readonly stderr: NodeJS.WritableStream
}

const EX_USAGE = 64
/** A missing or bad variable (the server exits with the same code). */
const EX_CONFIG = 78
const STYLES: readonly Style[] = ['faithful', 'casual']
/** More parallel requests than this only collects 429s from any provider we know of. */
const MAX_CONCURRENCY = 64

const RESTART_REMINDER = 'A running server loads content at start: restart any server on this database to serve the new content.'

/** Options each command accepts; anything else is a usage error rather than silently ignored. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  generate: ['target', 'style', 'book', 'chapter', 'gospel', 'limit', 'concurrency', 'dry-run', 'json'],
  // Export always writes JSON (JSON Lines): --json is accepted and changes nothing.
  export: ['target', 'style', 'json'],
  import: ['target', 'dry-run', 'json'],
  report: ['json'],
}

class UsageError extends Error {}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      target: { type: 'string' },
      style: { type: 'string' },
      book: { type: 'string' },
      gospel: { type: 'string' },
      chapter: { type: 'string' },
      limit: { type: 'string' },
      concurrency: { type: 'string' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

type Values = ReturnType<typeof parse>['values']

function positiveInt(name: string, raw: string | undefined, max = 1_000_000): number | undefined {
  if (raw === undefined) return undefined
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    throw new UsageError(`--${name} must be a whole number from 1 to ${max} (got ${JSON.stringify(raw)})`)
  return Number(raw)
}

function style(raw: string | undefined, required: boolean): Style | undefined {
  if (raw === undefined) {
    if (required) throw new UsageError('--style faithful|casual is required')
    return undefined
  }
  if (!(STYLES as readonly string[]).includes(raw)) throw new UsageError(`--style must be faithful or casual (got ${JSON.stringify(raw)})`)
  return raw as Style
}

type Target = 'verses' | 'narratives'

function target(raw: string | undefined): Target | undefined {
  if (raw === undefined) return undefined
  if (raw !== 'verses' && raw !== 'narratives') throw new UsageError(`--target must be verses or narratives (got ${JSON.stringify(raw)})`)
  return raw
}

/**
 * Runs `plainverse content <args>`; resolves to the exit code.
 * @param args what follows `content` on the command line.
 */
export async function runContentCommand(args: readonly string[], io: ContentIo): Promise<number> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(args)
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${CONTENT_USAGE}`)
    return EX_USAGE
  }
  const {
    positionals: [command, ...rest],
    values,
  } = parsed
  if (values.help === true || command === 'help') {
    io.out(CONTENT_USAGE)
    return 0
  }
  try {
    if (command === undefined || ALLOWED[command] === undefined)
      throw new UsageError(command === undefined ? 'content needs a command' : `unknown content command ${JSON.stringify(command)}`)
    const allowed = ALLOWED[command] ?? []
    for (const [name, value] of Object.entries(values)) {
      if (value !== undefined && name !== 'help' && !allowed.includes(name)) throw new UsageError(`--${name} does not apply to content ${command}`)
    }
    const positionalCount = command === 'import' ? 1 : 0
    if (rest.length !== positionalCount)
      throw new UsageError(command === 'import' ? 'content import needs exactly one FILE' : `unexpected argument ${JSON.stringify(rest[0])}`)
    if (command === 'report') return await report(io, values.json === true)
    if (command === 'generate') return await generate(values, io)
    if (command === 'export') return await exportContent(values, io)
    return await importContent(rest[0] ?? '', target(values.target), { dryRun: values['dry-run'] === true, json: values.json === true }, io)
  } catch (error) {
    if (error instanceof UsageError || error instanceof SelectionError) {
      io.err(`${error.message}\n\n${CONTENT_USAGE}`)
      return EX_USAGE
    }
    if (error instanceof ConfigError || error instanceof LlmConfigError) {
      io.err(error.message)
      return EX_CONFIG
    }
    throw error
  }
}

/** What the commands work on: verse content, and narrative content under `narrative`. */
interface CommandDeps extends GenerationDeps {
  readonly narrative: NarrativeGenerationDeps
}

/**
 * Opens the database like the rest of the CLI does, and closes it whatever happens. The
 * embedded database is opened only with DATA_DIR's lock held; when another process (a
 * server, even one still starting) holds it, the command says who and exits with 75.
 */
async function withDatabase(config: Config, io: ContentIo, work: (deps: CommandDeps) => Promise<number>): Promise<number> {
  let lock: DataDirLock | undefined
  if (config.databaseUrl === undefined) {
    try {
      lock = claimEmbeddedDatabase(resolve(config.dataDir))
    } catch (error) {
      if (!(error instanceof DataDirUnavailable)) throw error
      io.err(error.message)
      return EX_TEMPFAIL
    }
  }
  const handle = await openDatabase(databaseLocation(config)).catch((error: unknown) => {
    lock?.release()
    throw error
  })
  try {
    await prepareDatabase(handle.db, dataDirSeedOptions(resolve(config.dataDir), systemClock))
    const stores = await loadStores(handle.db, { packDir: cliContentPackDir(resolve(config.dataDir)) })
    const repository = new ContentRepository(handle.db)
    const narrativeRepository = new NarrativeContentRepository(handle.db)
    try {
      return await work({
        verses: stores.verses,
        repository,
        content: new ContentService(repository, stores.verses),
        narrative: {
          narratives: stores.narratives,
          verses: stores.verses,
          repository: narrativeRepository,
          content: new NarrativeContentService(narrativeRepository, stores.narratives),
        },
      })
    } finally {
      stores.content.close()
    }
  } finally {
    await handle.close()
    lock?.release()
  }
}

async function generate(values: Values, io: ContentIo): Promise<number> {
  const what = target(values.target) ?? 'verses'
  // Each target has its own way of choosing: books and chapters for verses, Gospels for narratives.
  if (what === 'narratives' && (values.book !== undefined || values.chapter !== undefined))
    throw new UsageError('--book and --chapter apply to verses; choose narratives with --gospel')
  if (what === 'verses' && values.gospel !== undefined) throw new UsageError('--gospel applies to --target narratives; choose verses with --book')
  const selection = {
    style: style(values.style, true) as Style,
    book: values.book,
    chapter: positiveInt('chapter', values.chapter, 1000),
    limit: positiveInt('limit', values.limit),
  }
  const narrativeSelection = { style: selection.style, gospel: values.gospel, limit: selection.limit }
  const concurrency = positiveInt('concurrency', values.concurrency, MAX_CONCURRENCY) ?? DEFAULT_CONCURRENCY
  const dryRun = values['dry-run'] === true
  const json = values.json === true
  const config = loadConfig()
  // A dry run talks to no provider, so it needs no endpoint; a real run checks it before
  // opening the database, so that a missing variable fails at once.
  const llm = dryRun ? undefined : loadLlmConfig()
  return withDatabase(config, io, async (deps) => {
    if (llm === undefined) {
      const plan = what === 'narratives' ? await planNarrativeGeneration(deps.narrative, narrativeSelection) : await planGeneration(deps, selection)
      if (json) io.out(JSON.stringify(plan, null, 2))
      else for (const line of formatPlan(plan, process.env.LLM_MODEL?.trim() || undefined)) io.out(line)
      return 0
    }
    const client = new LlmClient({ baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: llm.model, timeoutMs: llm.timeoutMs })
    const controller = new AbortController()
    let signalled: NodeJS.Signals | undefined
    const onSignal = (signal: NodeJS.Signals): void => {
      if (signalled !== undefined) {
        // A second Ctrl-C: the operator will not wait. Every stored verse is already
        // complete (one upsert each), so leaving now loses only the requests in flight.
        io.err('Second signal: exiting now.')
        process.exit(signal === 'SIGINT' ? 130 : 143)
      }
      signalled = signal
      controller.abort()
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    const progress = new GenerationProgress(io.stderr)
    let outcome
    try {
      const run = { client, model: llm.model, concurrency, signal: controller.signal, onEvent: progress.handle }
      outcome =
        what === 'narratives'
          ? await generateNarrativeContent(deps.narrative, { ...narrativeSelection, ...run })
          : await generateContent(deps, { ...selection, ...run })
    } finally {
      progress.finish()
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
    if (json) io.out(JSON.stringify(outcome, null, 2))
    else for (const line of formatReport(outcome)) io.out(line)
    // With --json, stdout holds the one JSON document; the reminder goes to stderr.
    if (outcome.done > 0) (json ? io.err : io.out)(RESTART_REMINDER)
    if (signalled !== undefined) return signalled === 'SIGINT' ? 130 : 143
    return outcome.fatal !== undefined || outcome.failed > 0 ? 1 : 0
  })
}

/** Writes to a stream and waits until it is flushed (process.exit would cut a pending write). */
function writeAll(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((done, fail) => {
    stream.write(text, (error) => (error === null || error === undefined ? done() : fail(error)))
  })
}

async function exportContent(values: Values, io: ContentIo): Promise<number> {
  const selected = style(values.style, false)
  const what = target(values.target) ?? 'verses'
  const config = loadConfig()
  return withDatabase(config, io, async ({ content, narrative }) => {
    const lines = what === 'narratives' ? await narrative.content.export(selected) : await content.export(selected)
    // Write errors also arrive through each write's callback, which handles them below; this
    // listener only keeps the stream's 'error' event from crashing the process (`| head`).
    io.stdout.on('error', () => undefined)
    try {
      // Chunks keep memory flat for the whole Bible (tens of thousands of lines).
      for (let i = 0; i < lines.length; i += 1000) await writeAll(io.stdout, `${lines.slice(i, i + 1000).join('\n')}\n`)
    } catch (error) {
      // The reader went away (`content export | head`): not a failure of the export.
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') return 0
      throw error
    }
    if (what === 'narratives')
      io.err(`Exported ${formatCount(lines.length)} lines (curated and generated narrative content${selected === undefined ? '' : `, ${selected} style`}).`)
    else
      io.err(
        `Exported ${formatCount(lines.length)} lines (curated and generated content${selected === undefined ? '' : `, ${selected} style`}; the modernized text is derived by the seed and not exported).`,
      )
    return 0
  })
}

async function readInput(file: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = []
    for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
    return Buffer.concat(chunks).toString('utf8')
  }
  return readFileSync(file, 'utf8')
}

async function importContent(file: string, explicit: Target | undefined, options: { dryRun: boolean; json: boolean }, io: ContentIo): Promise<number> {
  const { dryRun, json } = options
  const config = loadConfig()
  if (file !== '-' && !existsSync(file)) {
    io.err(`no such file: ${file}`)
    return 1
  }
  const text = await readInput(file)
  // Narrative lines name a `narrative` where verse lines name a `slug`; --target overrides.
  const what = explicit ?? (isNarrativeJsonl(text) ? 'narratives' : 'verses')
  return withDatabase(config, io, async ({ content, narrative }) => {
    const result = what === 'narratives' ? await narrative.content.import(text, { dryRun }) : await content.import(text, { dryRun })
    if (json) io.out(JSON.stringify({ target: what, dry_run: dryRun, ...result }, null, 2))
    for (const rejected of result.rejected) io.err(`line ${rejected.line}: ${rejected.reason}`)
    if (result.rejected.length > 0) {
      io.err(
        `Rejected ${formatCount(result.rejected.length)} of ${formatCount(result.lines)} lines; nothing was written (an import is all or nothing: fix these lines and import the file again).`,
      )
      return 1
    }
    if (json) {
      if (result.written) io.err(RESTART_REMINDER)
    } else if (dryRun) {
      io.out(`Dry run: all ${formatCount(result.lines)} lines are valid; nothing was written.`)
    } else if (!result.written) {
      io.out('The file has no content lines; nothing was written.')
    } else {
      io.out(
        `Imported ${formatCount(result.accepted)} ${what === 'narratives' ? 'narrative ' : ''}lines from ${file} (lines identical to stored content change nothing).`,
      )
      io.out(RESTART_REMINDER)
    }
    return 0
  })
}

/**
 * Reads a database's content for the coverage report, read-only: it neither migrates nor
 * seeds (a report must not write), and an embedded database that does not exist is not
 * created. A server holding DATA_DIR is not an error here: the report says so and goes on.
 */
async function databaseCoverage(verses: readonly StructuredVerse[]): Promise<DatabaseCoverage> {
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    return { status: 'unavailable', location: 'configuration', reason: error.message }
  }
  const location = databaseLocation(config)
  const where = location.kind === 'pglite' ? (location.dir ?? 'memory') : 'DATABASE_URL'
  let lock: DataDirLock | undefined
  if (location.kind === 'pglite') {
    if (location.dir === undefined || !existsSync(location.dir))
      return { status: 'unavailable', location: where, reason: 'no database there yet (plainverse db seed creates it)' }
    try {
      lock = claimEmbeddedDatabase(resolve(config.dataDir))
    } catch (error) {
      if (!(error instanceof DataDirUnavailable)) throw error
      return { status: 'unavailable', location: where, reason: error.message }
    }
  }
  try {
    const handle = await openDatabase(location)
    try {
      const rows = await new ContentRepository(handle.db).listAll()
      const narrativeRows = await new NarrativeContentRepository(handle.db).listAll()
      const input = databaseCoverageInput(rows, narrativeRows, verses, projectPath(NARRATIVES_FILE))
      return { status: 'read', location: where, coverage: contentCoverage(input) }
    } finally {
      await handle.close()
    }
  } catch (error) {
    // A database not yet migrated or seeded has no content tables: nothing to count.
    return { status: 'unavailable', location: where, reason: error instanceof Error ? error.message : String(error) }
  } finally {
    lock?.release()
  }
}

/**
 * The modernizer is a pure function of the KJV text, so its figures come from the committed
 * seed, as does the shipped coverage from the committed files: both work while a server
 * runs. The database's coverage is added when the database can be read.
 */
async function report(io: ContentIo, json: boolean): Promise<number> {
  const { verses } = readKjvSeed(projectPath(KJV_SEED_FILE))
  const modernizer = modernizerReport(
    verses.map((v) => {
      const book = bookAt(v.book)
      return { slug: book === undefined ? String(v.id) : verseSlug(book, v.chapter, v.verse), text: v.text }
    }),
  )
  const shipped = contentCoverage(
    shippedCoverageInput(verses, {
      verseDir: projectPath(VERSE_CONTENT_DIR),
      narratives: projectPath(NARRATIVES_FILE),
      narrativeContent: projectPath(NARRATIVE_CONTENT_FILE),
    }),
  )
  const database = await databaseCoverage(verses)
  const met = modernizer.share < REPORT_TARGET && modernizer.hybrids.verses === 0
  if (json) {
    io.out(JSON.stringify({ modernizer: { ...modernizer, target: { share: REPORT_TARGET, hybrids: 0, met } }, coverage: { shipped, database } }, null, 2))
    return met ? 0 : 1
  }
  for (const line of formatModernizerReport(modernizer)) io.out(line)
  io.out('')
  for (const line of formatCoverage(`Content coverage, shipped (${VERSE_CONTENT_DIR}, ${NARRATIVE_CONTENT_FILE})`, shipped)) io.out(line)
  io.out('')
  if (database.status === 'read') {
    for (const line of formatCoverage(`Content coverage, database (${database.location})`, database.coverage)) io.out(line)
  } else {
    io.out(`Content coverage, database (${database.location}): not read: ${database.reason}`)
  }
  return met ? 0 : 1
}
