/**
 * The one editorial gate that needs every verse at once (db/content/EDITORIAL.md section
 * 6): no sentence of a `historical_context` or `practical_reflection` may appear in more
 * than {@link MAX_VERSES_PER_SENTENCE} verses. A sentence stamped on many verses is
 * book-level boilerplate; it belongs in the book introduction, or once, where it matters most.
 */
import { splitSentences } from '../../text/plain-text.js'

/** Most verses one note sentence may appear in. */
export const MAX_VERSES_PER_SENTENCE = 3

/** The fields whose sentences are compared. */
export const NOTE_FIELDS = ['historical_context', 'practical_reflection'] as const

/** One line of verse content, as the corpus check needs it. */
export interface CorpusLine {
  /** The verse. */
  readonly slug: string
  /** Where the line is, for messages: `file:line`. */
  readonly where: string
  readonly fields: Readonly<Record<string, unknown>>
}

/** Where a repeated sentence occurs. */
export interface SentencePlace {
  readonly where: string
  readonly slug: string
  readonly field: string
}

/** A sentence found in too many verses, with every place it occurs, in input order. */
export interface RepeatedSentence {
  /** The sentence as first written. */
  readonly sentence: string
  /** The number of distinct verses it appears in. */
  readonly verses: number
  readonly places: readonly SentencePlace[]
}

/** How sentences compare: trimmed, case-insensitive, whitespace collapsed. */
function sentenceKey(sentence: string): string {
  return sentence.trim().replace(/\s+/gu, ' ').toLowerCase()
}

/**
 * The sentences of the notes of `lines` that appear in more than
 * {@link MAX_VERSES_PER_SENTENCE} distinct verses, most widespread first, each with every
 * place it occurs.
 * @example findRepeatedSentences(lines).map((r) => `${r.verses} verses: ${r.sentence}`)
 */
export function findRepeatedSentences(lines: Iterable<CorpusLine>): RepeatedSentence[] {
  const found = new Map<string, { sentence: string; slugs: Set<string>; places: SentencePlace[] }>()
  for (const line of lines) {
    for (const field of NOTE_FIELDS) {
      const text = line.fields[field]
      if (typeof text !== 'string') continue
      for (const sentence of splitSentences(text)) {
        const key = sentenceKey(sentence)
        const entry = found.get(key) ?? { sentence, slugs: new Set<string>(), places: [] }
        entry.slugs.add(line.slug)
        entry.places.push({ where: line.where, slug: line.slug, field })
        found.set(key, entry)
      }
    }
  }
  return [...found.values()]
    .filter((entry) => entry.slugs.size > MAX_VERSES_PER_SENTENCE)
    .map((entry) => ({ sentence: entry.sentence, verses: entry.slugs.size, places: entry.places }))
    .sort((a, b) => b.verses - a.verses || a.sentence.localeCompare(b.sentence))
}

/**
 * The message for one place of a repeated sentence, for a writer fixing that file: the
 * sentence, how many verses share it, and a few of the other places.
 */
export function repeatedSentenceMessage(repeated: RepeatedSentence, place: SentencePlace): string {
  const others = repeated.places.filter((p) => p !== place)
  const shown = others
    .slice(0, 3)
    .map((p) => p.where)
    .join(', ')
  const more = others.length > 3 ? ` and ${others.length - 3} more` : ''
  const sentence = repeated.sentence.length > 80 ? `${repeated.sentence.slice(0, 79)}…` : repeated.sentence
  return `${JSON.stringify(sentence)} appears in ${repeated.verses} verses (at most ${MAX_VERSES_PER_SENTENCE}); also at ${shown}${more}; say it once, where it matters most`
}
