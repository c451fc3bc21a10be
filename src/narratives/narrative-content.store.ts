/**
 * What start-up serves of the stored narrative content: one row per narrative and style,
 * chosen by the same precedence as verse content. Kept apart from the content pipeline so
 * that the serving path never imports the offline import and generation code.
 */
import { outranks } from '../content/content.store.js'
import type { StoredNarrativeContent } from './narrative-content.repository.js'
import type { NarrativeStore } from './narrative.store.js'
import type { NarrativeContent } from './narratives.service.js'

/**
 * The content start-up serves, by `slug:style`: one row per narrative and style, curated
 * before generated. Rows of narratives the store does not know are left out.
 */
export function servedNarrativeContent(rows: readonly StoredNarrativeContent[], store: NarrativeStore): ReadonlyMap<string, NarrativeContent> {
  const served = new Map<string, StoredNarrativeContent>()
  for (const row of rows) {
    if (store.get(row.slug) === undefined) continue
    const key = `${row.slug}:${row.style}`
    const current = served.get(key)
    // The same rule as verse content: curated wins over generated.
    if (current === undefined || outranks(row.method, current.method)) served.set(key, row)
  }
  const content = new Map<string, NarrativeContent>()
  for (const [key, row] of served) {
    content.set(key, { summary: row.summary, bottomLine: row.bottomLine, method: row.method, model: row.model, promptVersion: row.promptVersion })
  }
  return content
}
