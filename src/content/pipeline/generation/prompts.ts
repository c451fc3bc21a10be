/**
 * The generation prompts: versioned Markdown files in db/prompts (one per style), the JSON
 * Schema each answer must follow, and the chat messages for one verse with its neighbours.
 *
 * The prompt files are data, reviewed like code: a change of wording is a new file and a new
 * `prompt_version`, so that stored content always names the prompt that produced it and a
 * generation run redoes the verses for the new version (see db/prompts/faithful-v2.md).
 */
import { readFileSync } from 'node:fs'
import type { Style } from '../../content.store.js'
import { BOTTOM_LINE_MAX_WORDS } from '../../../text/length.js'
import { countWords } from '../../../text/plain-text.js'
import { MAX_LENGTH_RATIO, MIN_LENGTH_RATIO, properNames } from '../validation.js'
import { bookAt } from '../../../verses/books.js'
import { verseReference } from '../../../verses/slug.js'
import type { VerseRecord } from '../../../verses/verse.store.js'
import { projectPath } from '../../../infra/paths.js'
import type { ChatMessage, ResponseSchema } from './llm-client.js'
import { PROMPTS_DIR } from '../../../seed/seed-files.js'

/** The prompt version of each style: the name of its file in db/prompts, without `.md`. */
export const PROMPT_VERSIONS: Readonly<Record<Style, string>> = Object.freeze({ faithful: 'faithful-v2', casual: 'casual-v2' })

/** Verses given before and after the target, as context only. */
export const CONTEXT_VERSES = 2

/** A parsed prompt file. */
export interface PromptTemplate {
  readonly version: string
  /** The system message, sent as is. */
  readonly system: string
  /** The user message with `{{placeholders}}`. */
  readonly user: string
}

/** The placeholders a user template may use; see {@link buildMessages}. */
export const PLACEHOLDERS = ['reference', 'kjv_text', 'kjv_words', 'min_words', 'max_words', 'names', 'context_before', 'context_after'] as const
type Placeholder = (typeof PLACEHOLDERS)[number]

/**
 * Parses a prompt file: the text under `## System` is the system message and the text under
 * `## User` the user template; anything before `## System` is a note for maintainers.
 * @param placeholders the placeholders the template may use (verse prompts by default;
 *   narrative prompts pass their own).
 * @throws Error when a section is missing or empty, or the template uses an unknown placeholder.
 */
export function parsePromptFile(text: string, version: string, placeholders: readonly string[] = PLACEHOLDERS): PromptTemplate {
  const normalized = text.replace(/\r\n?/g, '\n')
  const system = /^## System[ \t]*\n([\s\S]*?)^## User[ \t]*$/m.exec(normalized)?.[1]?.trim()
  const user = /^## User[ \t]*\n([\s\S]*)$/m.exec(normalized)?.[1]?.trim()
  if (system === undefined || system === '' || user === undefined || user === '') {
    throw new Error(`prompt ${version}: needs a non-empty "## System" section followed by a non-empty "## User" section`)
  }
  for (const match of user.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)) {
    if (!placeholders.includes(match[1] ?? '')) {
      throw new Error(`prompt ${version}: unknown placeholder {{${match[1]}}}; known: ${placeholders.join(', ')}`)
    }
  }
  if (!user.includes('{{kjv_text}}')) throw new Error(`prompt ${version}: the user template must contain {{kjv_text}}`)
  return { version, system, user }
}

const loaded = new Map<Style, PromptTemplate>()

/** The current prompt of a style, read from db/prompts once per process. */
export function loadPrompt(style: Style): PromptTemplate {
  const cached = loaded.get(style)
  if (cached !== undefined) return cached
  const version = PROMPT_VERSIONS[style]
  const prompt = parsePromptFile(readFileSync(projectPath(PROMPTS_DIR, `${version}.md`), 'utf8'), version)
  loaded.set(style, prompt)
  return prompt
}

/** One plain-text field of an answer. */
function field(description: string): Record<string, unknown> {
  return { type: 'string', description }
}

const SIMPLIFIED = 'The target verse rewritten, plain text on one line, keeping every proper name.'
const BOTTOM_LINE = `One sentence of at most ${BOTTOM_LINE_MAX_WORDS} words saying what the verse means.`

/**
 * The JSON Schema of each style's answer, in the subset that OpenAI's strict structured
 * outputs accept (every property required, no additional properties). The finer rules
 * (lengths, sentences, names, archaic forms) are not expressible there; validateContent
 * checks them after the answer arrives.
 */
export const RESPONSE_SCHEMAS: Readonly<Record<Style, ResponseSchema>> = Object.freeze({
  faithful: {
    name: 'plainverse_faithful',
    schema: {
      type: 'object',
      properties: {
        simplified_text: field(`${SIMPLIFIED} Precise modern English with the original's structure; no archaic forms.`),
        bottom_line: field(BOTTOM_LINE),
        historical_context: field('1 to 4 sentences: who wrote, to whom, when, and what was happening, as mainstream scholarship and tradition describe it.'),
        practical_reflection: field('1 to 4 sentences: a practical reflection welcoming to readers of any tradition.'),
      },
      required: ['simplified_text', 'bottom_line', 'historical_context', 'practical_reflection'],
      additionalProperties: false,
    },
  },
  casual: {
    name: 'plainverse_casual',
    schema: {
      type: 'object',
      properties: {
        simplified_text: field(`${SIMPLIFIED} Warm, plain, conversational modern English.`),
        bottom_line: field(BOTTOM_LINE),
      },
      required: ['simplified_text', 'bottom_line'],
      additionalProperties: false,
    },
  },
})

/** A verse to generate, with the verses around it. */
export interface VerseInContext {
  readonly verse: VerseRecord
  /** Up to {@link CONTEXT_VERSES} verses before it in the same book, in order. */
  readonly before: readonly VerseRecord[]
  /** Up to {@link CONTEXT_VERSES} verses after it in the same book, in order. */
  readonly after: readonly VerseRecord[]
}

/** "John 11:35". */
export function referenceOf(verse: VerseRecord): string {
  const book = bookAt(verse.book)
  if (book === undefined) throw new RangeError(`verse ${verse.id} has no book`)
  return verseReference(book, verse.chapter, verse.verse)
}

function contextLines(verses: readonly VerseRecord[], none: string): string {
  return verses.length === 0 ? none : verses.map((v) => `${referenceOf(v)}: ${v.text}`).join('\n')
}

/** The placeholder values for a verse; the bounds are the ones validateContent applies. */
export function placeholderValues(target: VerseInContext): Record<Placeholder, string> {
  const words = countWords(target.verse.text)
  const names = properNames(target.verse.text)
  return {
    reference: referenceOf(target.verse),
    kjv_text: target.verse.text,
    kjv_words: String(words),
    min_words: String(Math.ceil(words * MIN_LENGTH_RATIO)),
    max_words: String(Math.floor(words * MAX_LENGTH_RATIO)),
    names: names.length === 0 ? 'none' : names.join(', '),
    context_before: contextLines(target.before, '(none: the target opens the book)'),
    context_after: contextLines(target.after, '(none: the target closes the book)'),
  }
}

/** The system and user messages for one verse. */
export function buildMessages(prompt: PromptTemplate, target: VerseInContext): ChatMessage[] {
  const values = placeholderValues(target)
  // A replacer function, so that "$&" or "$1" in a verse is never read as a pattern.
  const user = prompt.user.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_, name: string) => values[name as Placeholder])
  return [
    { role: 'system', content: prompt.system },
    { role: 'user', content: user },
  ]
}

/** Longest previous answer sent back with a retry; longer ones are cut (they are wrong anyway). */
const MAX_ECHO = 4000

/**
 * The messages of a retry: the first request, the rejected answer and what was wrong with
 * it, so that the model can correct exactly that rather than roll the dice again. Only the
 * latest rejected answer is sent, which keeps a retry's cost close to the first request's.
 */
export function retryMessages(first: readonly ChatMessage[], rejectedAnswer: string, problems: readonly string[]): ChatMessage[] {
  const answer = rejectedAnswer.length > MAX_ECHO ? `${rejectedAnswer.slice(0, MAX_ECHO)}…` : rejectedAnswer
  return [
    ...first,
    ...(answer.trim() === '' ? [] : [{ role: 'assistant' as const, content: answer }]),
    {
      role: 'user',
      content: `That answer was rejected:\n${problems.map((p) => `- ${p}`).join('\n')}\nWrite the whole JSON object again, fixing these problems and following every rule.`,
    },
  ]
}
