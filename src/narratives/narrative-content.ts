/**
 * The narratives' own content (a summary and a bottom line per style), committed as
 * `db/content/narratives.jsonl` and checked on load with the same rules as verse content.
 */
import { existsSync, readFileSync } from 'node:fs'
import { findArchaicForms } from '../content/archaic.js'
import { countWords, splitSentences } from '../content/validation.js'
import type { NarrativeStore } from './narrative.store.js'
import type { NarrativeContent } from './narratives.service.js'

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

/**
 * Reads the content by `slug:style`; an absent file means none yet.
 * @throws naming the line, when a line is invalid or names no narrative.
 */
export function readNarrativeContent(path: string, store: NarrativeStore): ReadonlyMap<string, NarrativeContent> {
  const content = new Map<string, NarrativeContent>()
  if (!existsSync(path)) return content
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      if (raw.trim() === '') return
      const where = `${path}:${index + 1}`
      const line = JSON.parse(raw) as Record<string, unknown>
      const slug = String(line.narrative)
      if (store.get(slug) === undefined) throw new Error(`${where}: no narrative ${slug}`)
      const style = String(line.style)
      const issues = narrativeContentIssues(style, line.summary, line.bottom_line)
      if (issues.length > 0) throw new Error(`${where}: ${issues.join('; ')}`)
      const provenance = (line.provenance ?? {}) as Record<string, unknown>
      const method = provenance.method === 'generated' ? 'generated' : 'curated'
      content.set(`${slug}:${style}`, {
        summary: String(line.summary).trim(),
        bottomLine: String(line.bottom_line).trim(),
        method,
        model: typeof provenance.model === 'string' ? provenance.model : null,
        promptVersion: typeof provenance.prompt_version === 'string' ? provenance.prompt_version : 'curated-1',
      })
    })
  return content
}
