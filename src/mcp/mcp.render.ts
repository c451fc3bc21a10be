/**
 * What the MCP tools say in words: a readable, Markdown-ish text of each result for the
 * model's context, and the citation (structured and as one line) that goes with scripture.
 */
import type { components } from '../../generated/api-types.js'

type Verse = components['schemas']['Verse']
type Passage = components['schemas']['Passage']
type SearchResults = components['schemas']['SearchResults']
type ReferenceResolution = components['schemas']['ReferenceResolution']
type NarrativeList = components['schemas']['NarrativeList']
type Narrative = components['schemas']['Narrative']

/** The provider and licence every citation names (ATTRIBUTION_SOURCE, ATTRIBUTION_LICENSE). */
export interface CitationSource {
  readonly source: string
  readonly license: string
}

/** The `citation` member of a scripture tool's structured content. */
export interface Citation {
  readonly text: string
  readonly source: string
  readonly license: string
  readonly references: ReadonlyArray<{ readonly reference: string; readonly url: string }>
}

const VERSION = 'King James Version'

/**
 * The citation of some references: one line naming the source, the version, each reference
 * with its public page, and the licence.
 * @example citation(source, [{ reference: 'John 3:16', url: 'http://localhost:8080/john/3/16' }]).text
 * // 'Source: Plainverse — King James Version, John 3:16 — http://localhost:8080/john/3/16 — KJV text is…'
 */
export function citation(from: CitationSource, references: Citation['references']): Citation {
  const cited =
    references.length === 0
      ? ''
      : references.length === 1
        ? `, ${references[0]?.reference} — ${references[0]?.url}`
        : `, ${references.map((r) => `${r.reference} (${r.url})`).join('; ')}`
  return { text: `Source: ${from.source} — ${VERSION}${cited} — ${from.license}`, source: from.source, license: from.license, references }
}

/** The lines of one verse: the KJV text, then each simplified style present. */
function verseLines(verse: Verse, label: string): string[] {
  const lines = [`${label} ${verse.kjv_text}`]
  if (verse.faithful?.simplified_text) lines.push(`  Faithful: ${verse.faithful.simplified_text}`)
  if (verse.casual?.simplified_text) lines.push(`  Casual: ${verse.casual.simplified_text}`)
  return lines
}

/** The text of get_verse. */
export function verseText(verse: Verse, cite: Citation): string {
  const lines = [`## ${verse.reference} (${VERSION})`, '', verse.kjv_text]
  if (verse.faithful !== undefined) {
    const f = verse.faithful
    if (f.simplified_text) lines.push('', `Faithful modern English: ${f.simplified_text}`)
    if (f.bottom_line) lines.push(`Bottom line: ${f.bottom_line}`)
    if (f.historical_context) lines.push(`Historical context: ${f.historical_context}`)
    if (f.practical_reflection) lines.push(`Reflection: ${f.practical_reflection}`)
  }
  if (verse.casual?.simplified_text) {
    lines.push('', `Casual modern English: ${verse.casual.simplified_text}`)
    if (verse.casual.bottom_line) lines.push(`Bottom line (casual): ${verse.casual.bottom_line}`)
  }
  // In the Gospels the section is the narrative: name it once.
  if (verse.narrative !== undefined) lines.push('', `Part of the narrative "${verse.narrative.title}" (${verse.narrative.slug}).`)
  else lines.push('', `Part of the section "${verse.section.title}" (${verse.section.slug}).`)
  return [...lines, '', cite.text].join('\n')
}

/** The text of get_passage: each verse numbered by chapter and verse. */
export function passageText(passage: Passage, cite: Citation): string {
  const lines = [`## ${passage.reference} (${VERSION}, ${passage.verse_count} verse${passage.verse_count === 1 ? '' : 's'})`, '']
  for (const verse of passage.verses) lines.push(...verseLines(verse, `**${chapterVerse(verse.reference)}**`))
  return [...lines, '', cite.text].join('\n')
}

/** The text of search_scripture: the hits, best first, with their KJV text. */
export function searchText(results: SearchResults, cite: Citation): string {
  const lines = [`## Search "${results.query}": ${results.total} matching verse${results.total === 1 ? '' : 's'}`, '']
  if (results.data.length === 0) lines.push('No verse matches.')
  results.data.forEach((hit, i) => lines.push(`${i + 1}. **${hit.reference}** (${hit.slug}): ${hit.kjv_text}`))
  if (results.next_cursor !== null) lines.push('', `More results: call search_scripture again with cursor "${results.next_cursor}".`)
  return [...lines, '', cite.text].join('\n')
}

/** The text of resolve_reference. */
export function resolutionText(resolution: ReferenceResolution): string {
  if (resolution.references.length === 0) return `No Bible reference found in "${resolution.query}".`
  return [
    `Found ${resolution.references.length} reference${resolution.references.length === 1 ? '' : 's'}:`,
    ...resolution.references.map((r) => `- "${r.text}" → ${r.reference} (slug ${r.slug}, ${r.verse_count} verse${r.verse_count === 1 ? '' : 's'})`),
    '',
    'Pass a slug to get_verse (one verse) or get_passage for the text.',
  ].join('\n')
}

/** The text of list_narratives. */
export function narrativeListText(list: NarrativeList): string {
  const lines = [`${list.total} narrative${list.total === 1 ? '' : 's'}${list.data.length < list.total ? `, showing ${list.data.length}` : ''}:`]
  for (const n of list.data)
    lines.push(`- ${n.title} — ${n.reference} (slug ${n.slug})${n.parallels.length > 0 ? `; parallels: ${n.parallels.join(', ')}` : ''}`)
  if (list.next_cursor !== null) lines.push('', `More: call list_narratives again with cursor "${list.next_cursor}".`)
  return lines.join('\n')
}

/** The text of get_narrative: summary, verses, parallels. */
export function narrativeText(narrative: Narrative, cite: Citation): string {
  const lines = [`## ${narrative.title} — ${narrative.reference} (${VERSION})`]
  for (const [name, content] of [
    ['Summary', narrative.content.faithful],
    ['Summary (casual)', narrative.content.casual],
  ] as const) {
    if (content?.summary) lines.push('', `${name}: ${content.summary}`)
    if (content?.bottom_line) lines.push(`Bottom line: ${content.bottom_line}`)
  }
  lines.push('')
  for (const verse of narrative.verses) lines.push(...verseLines(verse, `**${chapterVerse(verse.reference)}**`))
  if (narrative.parallels.length > 0) {
    lines.push('', 'Parallels:', ...narrative.parallels.map((p) => `- ${p.title} — ${p.reference} (slug ${p.slug})`))
  }
  return [...lines, '', cite.text].join('\n')
}

/** `3:16` of `John 3:16` (the whole reference when it has no chapter and verse). */
function chapterVerse(reference: string): string {
  return /(\d+:\d+)$/.exec(reference)?.[1] ?? reference
}
