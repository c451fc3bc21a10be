/**
 * AI generation of narrative content (a summary and a bottom line per narrative and style),
 * on the same engine as verse generation (runGeneration: bounded concurrency, answer retries
 * with feedback, transport retries in the LlmClient, clean abort, one upsert per valid item)
 * and resumable the same way: a narrative already generated for the style and prompt version
 * is skipped.
 */
import { readFileSync } from 'node:fs'
import type { Style } from '../../content.store.js'
import {
  CHARS_PER_TOKEN,
  SelectionError,
  runGeneration,
  type GenerateOptions,
  type GenerationPlan,
  type GenerationReport,
  type GenerationVerdict,
  type WorkPlan,
} from './generate.service.js'
import type { ChatMessage, ParsedContent, ResponseSchema } from './llm-client.js'
import { parsePromptFile, type PromptTemplate } from './prompts.js'
import { projectPath } from '../../../infra/paths.js'
import type { VerseStore } from '../../../verses/verse.store.js'
import { narrativeContentIssues } from '../narrative-validation.js'
import type { NarrativeContentRepository } from '../../../narratives/narrative-content.repository.js'
import type { NarrativeContentService } from '../narrative-content.service.js'
import type { Gospel, NarrativeRecord, NarrativeStore } from '../../../narratives/narrative.store.js'
import { PROMPTS_DIR } from '../../../seed/seed-files.js'

/** The prompt version of each style: the name of its file in db/prompts, without `.md`. */
export const NARRATIVE_PROMPT_VERSIONS: Readonly<Record<Style, string>> = Object.freeze({ faithful: 'narrative-faithful-v2', casual: 'narrative-casual-v2' })

/** The placeholders a narrative user template may use; see {@link buildNarrativeMessages}. */
export const NARRATIVE_PLACEHOLDERS = ['title', 'reference', 'gospel', 'verse_count', 'kjv_text'] as const
type Placeholder = (typeof NARRATIVE_PLACEHOLDERS)[number]

const GOSPELS: readonly Gospel[] = ['matthew', 'mark', 'luke', 'john']

const loaded = new Map<Style, PromptTemplate>()

/** The current narrative prompt of a style, read from db/prompts once per process. */
export function loadNarrativePrompt(style: Style): PromptTemplate {
  const cached = loaded.get(style)
  if (cached !== undefined) return cached
  const version = NARRATIVE_PROMPT_VERSIONS[style]
  const prompt = parsePromptFile(readFileSync(projectPath(PROMPTS_DIR, `${version}.md`), 'utf8'), version, NARRATIVE_PLACEHOLDERS)
  loaded.set(style, prompt)
  return prompt
}

/**
 * The JSON Schema of an answer (OpenAI strict subset: every property required). The finer
 * rules (sentence counts, word limit, the editorial gates) are checked by narrativeContentIssues.
 */
export const NARRATIVE_RESPONSE_SCHEMAS: Readonly<Record<Style, ResponseSchema>> = Object.freeze({
  faithful: narrativeSchema('plainverse_narrative_faithful', 'Precise modern English; no archaic forms.'),
  casual: narrativeSchema('plainverse_narrative_casual', 'Warm, plain, conversational and respectful modern English.'),
})

function narrativeSchema(name: string, tone: string): ResponseSchema {
  return {
    name,
    schema: {
      type: 'object',
      properties: {
        summary: { type: 'string', description: `2 to 4 sentences telling what happens in this Gospel's account, plain text on one line. ${tone}` },
        bottom_line: { type: 'string', description: 'One sentence of at most 30 words saying what the narrative shows or means.' },
      },
      required: ['summary', 'bottom_line'],
      additionalProperties: false,
    },
  }
}

/** The placeholder values of a narrative: its title, reference and full KJV text. */
export function narrativePlaceholderValues(narrative: NarrativeRecord, verses: VerseStore): Record<Placeholder, string> {
  const lines = narrative.verseIds.map((id) => {
    const verse = verses.byVerseId(id)
    if (verse === undefined) throw new Error(`narrative ${narrative.slug}: verse ${id} is not loaded`)
    return `${verse.chapter}:${verse.verse} ${verse.text}`
  })
  return {
    title: narrative.title,
    reference: narrative.reference,
    gospel: narrative.gospel.charAt(0).toUpperCase() + narrative.gospel.slice(1),
    verse_count: String(narrative.verseIds.length),
    kjv_text: lines.join('\n'),
  }
}

/** The system and user messages for one narrative. */
export function buildNarrativeMessages(prompt: PromptTemplate, narrative: NarrativeRecord, verses: VerseStore): ChatMessage[] {
  const values = narrativePlaceholderValues(narrative, verses)
  // A replacer function, so that "$&" in a verse is never read as a pattern.
  const user = prompt.user.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_, name: string) => values[name as Placeholder])
  return [
    { role: 'system', content: prompt.system },
    { role: 'user', content: user },
  ]
}

/** Which narratives to generate. */
export interface NarrativeSelection {
  readonly style: Style
  /** One Gospel; all four when absent. */
  readonly gospel?: string
  /** At most this many narratives still to do (after skipping those done). */
  readonly limit?: number
}

/** What narrative generation needs. */
export interface NarrativeGenerationDeps {
  readonly narratives: NarrativeStore
  readonly verses: VerseStore
  readonly content: NarrativeContentService
  readonly repository: NarrativeContentRepository
}

/** Options of a narrative run: the verse run's options with a narrative selection. */
export type NarrativeGenerateOptions = NarrativeSelection & Omit<GenerateOptions, 'style' | 'book' | 'chapter' | 'limit'>

/**
 * The narratives a selection names, in canonical order.
 * @throws SelectionError for a name that is not one of the four Gospels.
 */
export function selectNarratives(store: NarrativeStore, gospel: string | undefined): NarrativeRecord[] {
  if (gospel === undefined) return [...store.all]
  const wanted = gospel.toLowerCase()
  if (!(GOSPELS as readonly string[]).includes(wanted)) throw new SelectionError(`--gospel must be matthew, mark, luke or john (got ${JSON.stringify(gospel)})`)
  return store.all.filter((n) => n.gospel === wanted)
}

async function planNarrativeWork(deps: NarrativeGenerationDeps, selection: NarrativeSelection, promptVersion: string): Promise<WorkPlan<NarrativeRecord>> {
  const selected = selectNarratives(deps.narratives, selection.gospel)
  const done = await deps.repository.coveredSlugs(selection.style, promptVersion)
  const todo = selected.filter((n) => !done.has(n.slug))
  return { selected: selected.length, skipped: selected.length - todo.length, todo: selection.limit === undefined ? todo : todo.slice(0, selection.limit) }
}

/** Judges one answer with the same rules as imports and the seed. */
export function judgeNarrativeAnswer(style: Style, content: ParsedContent): GenerationVerdict<{ summary: string; bottomLine: string }> {
  if (!content.ok)
    return { ok: false, reason: content.error.startsWith('the model refused') ? 'the model refused' : 'answer is not valid JSON', problems: [content.error] }
  const value = content.value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'answer is not a JSON object', problems: ['the answer must be one JSON object with the fields summary and bottom_line'] }
  }
  const { summary, bottom_line: bottomLine } = value as Record<string, unknown>
  const issues = narrativeContentIssues(style, summary, bottomLine)
  if (issues.length > 0) {
    // Grouped by which rules broke (as for verses), so the report shows how often each kind of problem won.
    const rules = [...new Set(issues.map((i) => `${i.field} ${i.rule}`))].sort()
    return { ok: false, reason: `invalid content: ${rules.join(', ')}`, problems: issues.map((i) => `${i.field} (${i.rule}): ${i.message}`) }
  }
  return { ok: true, fields: { summary: String(summary), bottomLine: String(bottomLine) } }
}

/**
 * Generates narrative content for the selection and returns the report (target
 * `narratives`). Never throws for one narrative's failure; throws SelectionError for a bad
 * selection before any request.
 */
export async function generateNarrativeContent(deps: NarrativeGenerationDeps, options: NarrativeGenerateOptions): Promise<GenerationReport> {
  const { style } = options
  const prompt = options.prompt ?? loadNarrativePrompt(style)
  const work = await planNarrativeWork(deps, options, prompt.version)
  const outcome = await runGeneration<NarrativeRecord, { summary: string; bottomLine: string }>(
    work,
    {
      schema: NARRATIVE_RESPONSE_SCHEMAS[style],
      slugOf: (n) => n.slug,
      messages: (n) => buildNarrativeMessages(prompt, n, deps.verses),
      judge: (_, content) => judgeNarrativeAnswer(style, content),
      store: (n, fields, model) => deps.content.storeGenerated(n.slug, style, fields, model, prompt.version),
    },
    options,
  )
  return { target: 'narratives', style, promptVersion: prompt.version, model: options.model, ...outcome }
}

/** Expected answer length in characters (a 3-sentence summary, a bottom line, the JSON keys). */
const EXPECTED_ANSWER_CHARS = 450 + 120 + 40

/** A dry run of narrative generation: the selection, what is skipped, the first prompt and a token estimate. */
export async function planNarrativeGeneration(
  deps: NarrativeGenerationDeps,
  selection: NarrativeSelection,
  prompt: PromptTemplate = loadNarrativePrompt(selection.style),
): Promise<GenerationPlan> {
  const work = await planNarrativeWork(deps, selection, prompt.version)
  // The schema is sent with every request and providers count it as prompt tokens.
  const schemaChars = JSON.stringify(NARRATIVE_RESPONSE_SCHEMAS[selection.style]).length
  let promptChars = 0
  let first: GenerationPlan['first']
  for (const narrative of work.todo) {
    const messages = buildNarrativeMessages(prompt, narrative, deps.verses)
    if (first === undefined) first = { slug: narrative.slug, messages }
    promptChars += schemaChars + messages.reduce((sum, m) => sum + m.content.length, 0)
  }
  return {
    target: 'narratives',
    style: selection.style,
    promptVersion: prompt.version,
    selected: work.selected,
    skipped: work.skipped,
    toGenerate: work.todo.length,
    first,
    estimate: {
      promptTokens: Math.ceil(promptChars / CHARS_PER_TOKEN),
      completionTokens: Math.ceil((work.todo.length * EXPECTED_ANSWER_CHARS) / CHARS_PER_TOKEN),
    },
  }
}
