/**
 * The AI generation pipeline: choose the verses, skip those already done, ask the model for
 * each with a bounded number of requests in flight, validate every answer with every
 * content rule, the editorial gates of db/content/EDITORIAL.md included (validateContent's
 * `editorial` level, which is stricter than what imports accept), and store each verse in
 * one upsert, only once it is valid.
 *
 * Why it is safe to interrupt: a verse is written in a single statement after validation,
 * so a stopped run leaves only complete, valid verses; and a verse already stored for the
 * same style and prompt version is skipped, so the next run continues where this one stopped.
 * Verses with shipped content (curated, or written by the team: see content.store.ts
 * isShipped) are skipped too: a run fills what the repository does not cover.
 *
 * Answer retries: an answer that is not JSON or breaks a content rule is asked for again (up
 * to `maxAnswerAttempts` answers) with the rejected answer and the list of problems fed back
 * to the model, which fixes most of them at the second try (see prompts.ts retryMessages).
 * Transport retries (429, 5xx, timeouts) are the client's business and counted separately.
 */
import type { ContentRepository } from '../../content.repository.js'
import type { ContentService } from '../content.service.js'
import type { Style } from '../../content.store.js'
import { STYLE_FIELDS, validateContent } from '../validation.js'
import { bookAt, findBook } from '../../../verses/books.js'
import { verseSlug } from '../../../verses/slug.js'
import type { VerseRecord, VerseStore } from '../../../verses/verse.store.js'
import { LlmError, type ChatClient, type ChatMessage, type ParsedContent, type ResponseSchema } from './llm-client.js'
import {
  CONTEXT_VERSES,
  PROMPT_VERSIONS,
  RESPONSE_SCHEMAS,
  buildMessages,
  loadPrompt,
  retryMessages,
  type PromptTemplate,
  type VerseInContext,
} from './prompts.js'

/** Which verses to generate. */
export interface GenerationSelection {
  readonly style: Style
  /** A book name, slug, OSIS id or alias ("John", "1cor"); all books when absent. */
  readonly book?: string
  /** A chapter of `book`. */
  readonly chapter?: number
  /**
   * At most this many verses are generated in this run. It counts verses still to do (after
   * skipping those done), so that repeated runs with a limit make progress.
   */
  readonly limit?: number
}

/** What the pipeline needs. */
export interface GenerationDeps {
  readonly verses: VerseStore
  readonly content: ContentService
  readonly repository: ContentRepository
}

/** Options of a run. */
export interface GenerateOptions extends GenerationSelection {
  readonly client: ChatClient
  /** The configured model, recorded as provenance unless the provider names it more precisely. */
  readonly model: string
  /** Requests in flight at most (default 4). */
  readonly concurrency?: number
  /** Answers asked for per verse, the first included (default 3). */
  readonly maxAnswerAttempts?: number
  /** Aborting stops the run: no new requests, in-flight ones aborted, the report returned. */
  readonly signal?: AbortSignal
  readonly onEvent?: (event: GenerationEvent) => void
  /** The prompt to use instead of the style's file (tests). */
  readonly prompt?: PromptTemplate
}

/** Default requests in flight. */
export const DEFAULT_CONCURRENCY = 4
/** Default answers per verse. */
export const DEFAULT_ANSWER_ATTEMPTS = 3

/** What happens during a run, for progress display. */
export type GenerationEvent =
  | { readonly type: 'start'; readonly selected: number; readonly skipped: number; readonly toGenerate: number }
  | { readonly type: 'done'; readonly slug: string; readonly answers: number }
  | { readonly type: 'failed'; readonly slug: string; readonly reason: string; readonly detail: string }
  | { readonly type: 'retry'; readonly slug: string; readonly kind: 'transport' | 'answer'; readonly reason: string; readonly delayMs: number }
  | { readonly type: 'usage'; readonly promptTokens: number; readonly completionTokens: number }
  | { readonly type: 'stopping'; readonly why: 'aborted' | 'fatal'; readonly message: string }

/** Failed verses that share a reason. */
export interface FailureGroup {
  readonly reason: string
  readonly count: number
  /** The first few, with the full message. */
  readonly examples: ReadonlyArray<{ readonly slug: string; readonly detail: string }>
}

/** The outcome of a run. */
export interface GenerationReport {
  /** What was generated; verses when absent. */
  readonly target?: 'verses' | 'narratives'
  readonly style: Style
  readonly promptVersion: string
  readonly model: string
  /** Verses the book, chapter and style select. */
  readonly selected: number
  /** Selected verses already generated with this prompt version or with shipped content (skipped). */
  readonly skipped: number
  /** Verses this run set out to generate (after skipping and the limit). */
  readonly toGenerate: number
  readonly done: number
  readonly failed: number
  /** Verses in flight when the run was stopped: not stored, done by the next run. */
  readonly interrupted: number
  /** Verses never started because the run was stopped. */
  readonly notStarted: number
  readonly failures: readonly FailureGroup[]
  /** HTTP requests repeated after 429, 5xx, timeouts and network errors. */
  readonly transportRetries: number
  /** Answers asked for again because they were not JSON or broke a content rule. */
  readonly answerRetries: number
  readonly promptTokens: number
  readonly completionTokens: number
  /** True when the caller's signal stopped the run. */
  readonly aborted: boolean
  /** Set when the run stopped on an error no retry can fix (bad key, unknown model...). */
  readonly fatal: string | undefined
  readonly elapsedMs: number
}

/** A selection that names no verses: an unknown book, a chapter the book does not have. */
export class SelectionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SelectionError'
  }
}

/**
 * The verses a selection names, in canonical order (before skipping and the limit).
 * @throws SelectionError for an unknown book, a chapter without a book, or a missing chapter.
 */
export function selectVerses(verses: VerseStore, selection: Omit<GenerationSelection, 'style' | 'limit'>): VerseRecord[] {
  if (selection.book === undefined) {
    if (selection.chapter !== undefined) throw new SelectionError('--chapter needs --book')
    return [...verses.all()]
  }
  const book = findBook(selection.book)
  if (book === undefined) throw new SelectionError(`unknown book ${JSON.stringify(selection.book)}`)
  const chapters = verses.chapterVerseCounts(book).length
  if (selection.chapter !== undefined && (selection.chapter < 1 || selection.chapter > chapters)) {
    throw new SelectionError(`${book.name} has chapters 1 to ${chapters}, not ${selection.chapter}`)
  }
  return [...verses.all()].filter((v) => v.book === book.position && (selection.chapter === undefined || v.chapter === selection.chapter))
}

/** The slug of a verse, for reports. */
export function slugOf(verse: VerseRecord): string {
  const book = bookAt(verse.book)
  return book === undefined ? String(verse.id) : verseSlug(book, verse.chapter, verse.verse)
}

/** Looks up each verse's neighbours in the same book. */
class Neighbours {
  private readonly ordered: readonly VerseRecord[]
  private readonly index: ReadonlyMap<number, number>

  constructor(verses: VerseStore) {
    this.ordered = [...verses.all()]
    this.index = new Map(this.ordered.map((v, i) => [v.id, i]))
  }

  of(verse: VerseRecord): VerseInContext {
    const at = this.index.get(verse.id) ?? -1
    const sameBook = (v: VerseRecord | undefined): v is VerseRecord => v !== undefined && v.book === verse.book
    const before = this.ordered.slice(Math.max(0, at - CONTEXT_VERSES), Math.max(0, at)).filter(sameBook)
    const after = this.ordered.slice(at + 1, at + 1 + CONTEXT_VERSES).filter(sameBook)
    return { verse, before, after }
  }
}

async function planWork(deps: GenerationDeps, selection: GenerationSelection): Promise<WorkPlan<VerseRecord>> {
  const selected = selectVerses(deps.verses, selection)
  const done = await deps.repository.coveredVerseIds(selection.style, PROMPT_VERSIONS[selection.style])
  const todo = selected.filter((verse) => !done.has(verse.id))
  return { selected: selected.length, skipped: selected.length - todo.length, todo: selection.limit === undefined ? todo : todo.slice(0, selection.limit) }
}

/** A verdict on one answer: the fields to store, or why it was rejected and what to fix. */
export type GenerationVerdict<F> =
  { readonly ok: true; readonly fields: F } | { readonly ok: false; readonly reason: string; readonly problems: readonly string[] }

function judge(style: Style, content: ParsedContent, verse: VerseRecord): GenerationVerdict<Record<string, string>> {
  if (!content.ok)
    return { ok: false, reason: content.error.startsWith('the model refused') ? 'the model refused' : 'answer is not valid JSON', problems: [content.error] }
  const value = content.value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'answer is not a JSON object', problems: ['the answer must be one JSON object with the fields of the schema'] }
  }
  const issues = validateContent(style, value as Record<string, unknown>, verse.text)
  if (issues.length > 0) {
    // Grouped by which rules broke (not the messages, which name words and counts), so the
    // final report shows how often each kind of problem defeated the model.
    const rules = [...new Set(issues.map((i) => `${i.field} ${i.rule}`))].sort()
    return { ok: false, reason: `invalid content: ${rules.join(', ')}`, problems: issues.map((i) => `${i.field} (${i.rule}): ${i.message}`) }
  }
  const fields: Record<string, string> = {}
  for (const name of STYLE_FIELDS[style]) fields[name] = String((value as Record<string, unknown>)[name])
  return { ok: true, fields }
}

/** Why a transport failure failed, without the details that differ per verse. */
function transportReason(error: LlmError): string {
  if (error.kind === 'http') return `HTTP ${error.status ?? '?'}`
  if (error.kind === 'timeout') return 'timeout'
  if (error.kind === 'network') return 'network error'
  return 'bad response from the server'
}

const EXAMPLES_PER_GROUP = 3

/** Options of a run that do not depend on what is generated (verses or narratives). */
export interface RunOptions {
  readonly client: ChatClient
  readonly concurrency?: number
  readonly maxAnswerAttempts?: number
  readonly signal?: AbortSignal
  readonly onEvent?: (event: GenerationEvent) => void
}

/** What to generate in a run: the items left after skipping those done, and the counts. */
export interface WorkPlan<T> {
  readonly selected: number
  readonly skipped: number
  readonly todo: readonly T[]
}

/** How one kind of item is asked for, judged and stored (see {@link runGeneration}). */
export interface GenerationTask<T, F> {
  readonly schema: ResponseSchema
  /** The name of an item in events and reports. */
  readonly slugOf: (item: T) => string
  /** The first request's messages. */
  readonly messages: (item: T) => ChatMessage[]
  readonly judge: (item: T, content: ParsedContent) => GenerationVerdict<F>
  /** Writes one complete, validated item in a single statement (the run's only write for it). */
  readonly store: (item: T, fields: F, model: string) => Promise<void>
}

/** The counts and failures of a run, without what names the run (style, prompt, model). */
export type RunOutcome = Omit<GenerationReport, 'style' | 'promptVersion' | 'model' | 'target'>

/**
 * Generates content for the selected verses and returns the report. Never throws for a
 * verse's failure (it is recorded); throws SelectionError for a bad selection before any
 * request is made.
 */
export async function generateContent(deps: GenerationDeps, options: GenerateOptions): Promise<GenerationReport> {
  const { style } = options
  const prompt = options.prompt ?? loadPrompt(style)
  const work = await planWork(deps, options)
  const neighbours = new Neighbours(deps.verses)
  const outcome = await runGeneration<VerseRecord, Record<string, string>>(
    work,
    {
      schema: RESPONSE_SCHEMAS[style],
      slugOf,
      messages: (verse) => buildMessages(prompt, neighbours.of(verse)),
      judge: (verse, content) => judge(style, content, verse),
      store: (verse, fields, model) => deps.content.storeGenerated(verse.id, style, fields, model, prompt.version),
    },
    options,
  )
  return { style, promptVersion: prompt.version, model: options.model, ...outcome }
}

/**
 * The engine shared by verse and narrative generation: asks the model for each item with a
 * bounded number of requests in flight, retries rejected answers with feedback, stores each
 * item once valid, and stops cleanly on abort or on an error no retry can fix.
 */
export async function runGeneration<T, F>(work: WorkPlan<T>, task: GenerationTask<T, F>, options: RunOptions): Promise<RunOutcome> {
  const started = Date.now()
  const { client } = options
  const emit = options.onEvent ?? (() => undefined)
  const schema = task.schema
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY)
  const maxAnswers = Math.max(1, options.maxAnswerAttempts ?? DEFAULT_ANSWER_ATTEMPTS)

  // One controller for everything in flight: the caller's abort and a fatal error both stop it.
  const stop = new AbortController()
  let aborted = false
  let fatal: string | undefined
  const onAbort = (): void => {
    if (stop.signal.aborted) return
    aborted = true
    emit({ type: 'stopping', why: 'aborted', message: 'stopping: no new requests, in-flight requests aborted' })
    stop.abort()
  }
  if (options.signal?.aborted === true) onAbort()
  else options.signal?.addEventListener('abort', onAbort, { once: true })
  const stopFatal = (message: string): void => {
    if (stop.signal.aborted) return
    fatal = message
    emit({ type: 'stopping', why: 'fatal', message })
    stop.abort()
  }

  let done = 0
  let failed = 0
  let interrupted = 0
  let begun = 0
  let transportRetries = 0
  let answerRetries = 0
  let promptTokens = 0
  let completionTokens = 0
  const groups = new Map<string, { count: number; examples: Array<{ slug: string; detail: string }> }>()
  const fail = (slug: string, reason: string, detail: string): void => {
    failed++
    const group = groups.get(reason) ?? { count: 0, examples: [] }
    group.count++
    if (group.examples.length < EXAMPLES_PER_GROUP) group.examples.push({ slug, detail })
    groups.set(reason, group)
    emit({ type: 'failed', slug, reason, detail })
  }

  emit({ type: 'start', selected: work.selected, skipped: work.skipped, toGenerate: work.todo.length })

  const generateOne = async (item: T): Promise<void> => {
    const slug = task.slugOf(item)
    const first = task.messages(item)
    let messages: ChatMessage[] = first
    for (let answer = 1; answer <= maxAnswers; answer++) {
      let completion
      try {
        completion = await client.complete(messages, schema, {
          signal: stop.signal,
          onRetry: (info) => {
            transportRetries++
            emit({ type: 'retry', slug, kind: 'transport', reason: info.reason, delayMs: info.delayMs })
          },
        })
      } catch (error) {
        if (!(error instanceof LlmError)) throw error
        if (error.kind === 'aborted') {
          interrupted++
          return
        }
        if (error.fatal) {
          // Not this verse's fault: it is left for the next run, like the ones not started.
          interrupted++
          stopFatal(`${error.message}; check LLM_BASE_URL, LLM_MODEL and LLM_API_KEY`)
          return
        }
        fail(slug, transportReason(error), error.message)
        return
      }
      promptTokens += completion.usage.promptTokens
      completionTokens += completion.usage.completionTokens
      emit({ type: 'usage', promptTokens: completion.usage.promptTokens, completionTokens: completion.usage.completionTokens })
      const verdict = task.judge(item, completion.content)
      if (verdict.ok) {
        // One upsert of the complete, validated item: the only write of the run for it.
        await task.store(item, verdict.fields, completion.model)
        done++
        emit({ type: 'done', slug, answers: answer })
        return
      }
      if (answer === maxAnswers) {
        fail(slug, verdict.reason, verdict.problems.join('; '))
        return
      }
      if (stop.signal.aborted) {
        interrupted++
        return
      }
      answerRetries++
      emit({ type: 'retry', slug, kind: 'answer', reason: verdict.reason, delayMs: 0 })
      messages = retryMessages(first, completion.raw, verdict.problems)
    }
  }

  let next = 0
  const worker = async (): Promise<void> => {
    while (!stop.signal.aborted) {
      const item = work.todo[next++]
      if (item === undefined) return
      begun++
      try {
        await generateOne(item)
      } catch (error) {
        // A database error or a bug: every later verse would fail the same way.
        interrupted++
        stopFatal(`unexpected error on ${task.slugOf(item)}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, work.todo.length) }, worker))
  } finally {
    options.signal?.removeEventListener('abort', onAbort)
  }

  return {
    selected: work.selected,
    skipped: work.skipped,
    toGenerate: work.todo.length,
    done,
    failed,
    interrupted,
    notStarted: work.todo.length - begun,
    failures: [...groups]
      .map(([reason, g]) => ({ reason, count: g.count, examples: g.examples }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    transportRetries,
    answerRetries,
    promptTokens,
    completionTokens,
    aborted,
    fatal,
    elapsedMs: Date.now() - started,
  }
}

/** A dry run: what a run would do and roughly what it would cost. */
export interface GenerationPlan {
  /** What would be generated; verses when absent. */
  readonly target?: 'verses' | 'narratives'
  readonly style: Style
  readonly promptVersion: string
  readonly selected: number
  /** Selected verses already generated with this prompt version. */
  readonly skipped: number
  readonly toGenerate: number
  /** The first request of the run, if any. */
  readonly first: { readonly slug: string; readonly messages: readonly ChatMessage[] } | undefined
  /** Estimated tokens for all verses to generate (characters / 4; no retries counted). */
  readonly estimate: { readonly promptTokens: number; readonly completionTokens: number }
}

/** Characters per token assumed by the estimate: the usual rule of thumb for English. */
export const CHARS_PER_TOKEN = 4

/**
 * Expected answer length besides simplified_text (which is taken as long as the KJV verse),
 * in characters: averages of the 1,038 curated verses, plus the JSON keys and quotes.
 */
const EXPECTED_EXTRA_CHARS: Readonly<Record<Style, number>> = { faithful: 65 + 298 + 126 + 100, casual: 46 + 40 }

/**
 * Works out a run without making any request: the selection, what is skipped, the first
 * prompt and a token estimate (characters / 4 of prompt, schema and expected answer).
 */
export async function planGeneration(
  deps: GenerationDeps,
  selection: GenerationSelection,
  prompt: PromptTemplate = loadPrompt(selection.style),
): Promise<GenerationPlan> {
  const work = await planWork(deps, selection)
  const neighbours = new Neighbours(deps.verses)
  // The schema is sent with every request and providers count it as prompt tokens.
  const schemaChars = JSON.stringify(RESPONSE_SCHEMAS[selection.style]).length
  let promptChars = 0
  let answerChars = 0
  let first: GenerationPlan['first']
  for (const verse of work.todo) {
    const messages = buildMessages(prompt, neighbours.of(verse))
    if (first === undefined) first = { slug: slugOf(verse), messages }
    promptChars += schemaChars + messages.reduce((sum, m) => sum + m.content.length, 0)
    answerChars += verse.text.length + EXPECTED_EXTRA_CHARS[selection.style]
  }
  return {
    style: selection.style,
    promptVersion: prompt.version,
    selected: work.selected,
    skipped: work.skipped,
    toGenerate: work.todo.length,
    first,
    estimate: { promptTokens: Math.ceil(promptChars / CHARS_PER_TOKEN), completionTokens: Math.ceil(answerChars / CHARS_PER_TOKEN) },
  }
}
