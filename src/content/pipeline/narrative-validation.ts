/**
 * The narratives' own content (a summary and a bottom line per style), committed as
 * `db/content/narratives.jsonl`: the rules every line must meet, the one gate that the
 * seed, `content import`, generation and scripts/check-narrative-content.ts all apply.
 *
 * - style: faithful or casual; summary and bottom_line: non-empty strings, judged trimmed,
 *   in plain text on one line (src/text/plain-text.ts);
 * - summary: {@link MIN_SUMMARY_SENTENCES} to {@link MAX_SUMMARY_SENTENCES} sentences;
 *   bottom_line: one sentence of at most 30 words (src/text/length.ts);
 * - both fields, both styles: the editorial gates of db/content/EDITORIAL.md
 *   (src/text/editorial.ts): balanced straight quotes, a capital first letter, final
 *   punctuation, no archaic form of the guide's full list, American spelling.
 */
import { fieldGateIssues } from '../../text/editorial.js'
import type { ValidationIssue } from '../../text/issues.js'
import { bottomLineIssues, sentenceCountIssue } from '../../text/length.js'
import { excerpt, plainTextIssues } from '../../text/plain-text.js'

/** The styles of narrative content, in the order the file gives them. */
export const NARRATIVE_STYLES = ['faithful', 'casual'] as const

/** A summary has this many sentences. */
export const MIN_SUMMARY_SENTENCES = 2
export const MAX_SUMMARY_SENTENCES = 4

/**
 * The problems of one line's style and texts, empty when it is valid.
 * @example narrativeContentIssues('faithful', 'Jesus feeds a crowd. Everyone eats.', 'There is enough.') // []
 */
export function narrativeContentIssues(style: unknown, summary: unknown, bottomLine: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  if (style !== 'faithful' && style !== 'casual') {
    issues.push({ field: 'style', rule: 'unknown_style', message: `${excerpt(String(style))} is not a style; use "faithful" or "casual"` })
  }
  for (const [field, value] of [
    ['summary', summary],
    ['bottom_line', bottomLine],
  ] as const) {
    if (value === undefined || value === null) {
      issues.push({ field, rule: 'required', message: 'is missing' })
      continue
    }
    if (typeof value !== 'string') {
      issues.push({ field, rule: 'type', message: `must be a string, not ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}` })
      continue
    }
    const text = value.trim()
    if (text === '') {
      issues.push({ field, rule: 'required', message: value === '' ? 'is empty' : 'is only whitespace' })
      continue
    }
    issues.push(...plainTextIssues(field, text))
    if (field === 'summary') {
      const count = sentenceCountIssue(field, text, MIN_SUMMARY_SENTENCES, MAX_SUMMARY_SENTENCES)
      if (count !== undefined) issues.push(count)
    } else {
      issues.push(...bottomLineIssues(field, text))
    }
    issues.push(...fieldGateIssues(field, text))
  }
  return issues
}
