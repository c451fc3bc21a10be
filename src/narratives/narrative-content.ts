/**
 * The narratives' own content (a summary and a bottom line per style), committed as
 * `db/content/narratives.jsonl`: the rules every line must meet (seed, import, generation).
 */
import { findArchaicForms } from '../content/archaic.js'
import { countWords, splitSentences } from '../content/validation.js'

/** Where the curated narrative content is committed. */
export const NARRATIVE_CONTENT_FILE = 'db/content/narratives.jsonl'

/** The problems of one line, empty when it is valid. */
export function narrativeContentIssues(style: string, summary: unknown, bottomLine: unknown): string[] {
  const issues: string[] = []
  if (style !== 'faithful' && style !== 'casual') issues.push('style must be faithful or casual')
  for (const [name, value] of [['summary', summary], ['bottom_line', bottomLine]] as const) {
    if (typeof value !== 'string' || value.trim() === '') issues.push(`${name} is required`)
    else if (/[\r\n<>*`#]|\]\(|https?:\/\//.test(value)) issues.push(`${name} has markup or a line break`)
    else if (style === 'faithful' && findArchaicForms(value).length > 0) issues.push(`${name} has archaic forms: ${findArchaicForms(value).join(', ')}`)
  }
  if (typeof summary === 'string' && summary.trim() !== '') {
    const n = splitSentences(summary).length
    if (n < 2 || n > 4) issues.push(`summary must be 2 to 4 sentences (has ${n})`)
  }
  if (typeof bottomLine === 'string' && bottomLine.trim() !== '') {
    if (splitSentences(bottomLine).length !== 1) issues.push('bottom_line must be one sentence')
    if (countWords(bottomLine) > 30) issues.push('bottom_line must be at most 30 words')
  }
  return issues
}
