/**
 * The length rules that verse and narrative content share: a bottom line is one sentence
 * of at most {@link BOTTOM_LINE_MAX_WORDS} words, and the longer texts have a bounded
 * number of sentences (db/content/EDITORIAL.md section 11).
 */
import type { ValidationIssue } from './issues.js'
import { countWords, excerpt, plural, splitSentences } from './plain-text.js'

/** bottom_line: one sentence of at most this many words (product issue). */
export const BOTTOM_LINE_MAX_WORDS = 30

/**
 * The issues of a bottom line: not exactly one sentence (`bottom_line_sentences`), more
 * than {@link BOTTOM_LINE_MAX_WORDS} words (`bottom_line_words`).
 * @example bottomLineIssues('bottom_line', 'God loves. He gives.') // one bottom_line_sentences issue
 */
export function bottomLineIssues(field: string, text: string): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const sentences = splitSentences(text)
  if (sentences.length !== 1) {
    issues.push({
      field,
      rule: 'bottom_line_sentences',
      message:
        sentences.length === 0
          ? 'must be exactly one sentence; found none (no letters or digits)'
          : `must be exactly one sentence; found ${sentences.length}: ${sentences
              .slice(0, 3)
              .map((s) => excerpt(s, 30))
              .join(', ')}${sentences.length > 3 ? ', …' : ''}`,
    })
  }
  const words = countWords(text)
  if (words > BOTTOM_LINE_MAX_WORDS) {
    issues.push({
      field,
      rule: 'bottom_line_words',
      message: `has ${words} words; at most ${BOTTOM_LINE_MAX_WORDS} are allowed (cut ${words - BOTTOM_LINE_MAX_WORDS})`,
    })
  }
  return issues
}

/**
 * The `sentence_count` issue of a text outside `min` to `max` sentences, or undefined.
 * @example sentenceCountIssue('summary', 'One sentence.', 2, 4) // { rule: 'sentence_count', message: 'has 1 sentence; 2 to 4 are allowed' }
 */
export function sentenceCountIssue(field: string, text: string, min: number, max: number): ValidationIssue | undefined {
  const count = splitSentences(text).length
  if (count >= min && count <= max) return undefined
  return { field, rule: 'sentence_count', message: `has ${plural(count, 'sentence')}; ${min} to ${max} are allowed` }
}
