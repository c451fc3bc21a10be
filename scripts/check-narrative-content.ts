/**
 * Checks `db/content/narratives.jsonl`, the curated summaries and bottom lines of the
 * Gospel narratives listed in `db/narratives/narratives.json`.
 *
 * Usage: npx tsx scripts/check-narrative-content.ts [content-file] [narratives-file]
 *
 * Each line is one JSON object:
 * `{"narrative", "style", "summary", "bottom_line", "provenance"}`. Its texts are judged by
 * the gate the seed, imports and generation apply (`narrativeContentIssues` in
 * src/narratives/narrative-content.ts: plain text, sentence and word counts, and the
 * editorial gates of db/content/EDITORIAL.md) and its provenance by the same parser
 * (src/content/provenance.ts). What only the whole file can get wrong is checked here: the
 * narrative slugs, curated provenance (the seed loads nothing else from this file), exactly
 * two lines per covered narrative, "faithful" then "casual", narratives in the table's
 * canonical order, at least {@link MIN_NARRATIVES} narratives covered, a final newline.
 *
 * Prints every problem with its line number and exits 1 if there are any; otherwise
 * prints "N narratives valid".
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { SHIPPED_PROMPT_PREFIX } from '../src/content/content.store.js'
import { parseProvenance } from '../src/content/pipeline/provenance.js'
import { NARRATIVE_STYLES, narrativeContentIssues } from '../src/content/pipeline/narrative-validation.js'
import { formatIssue } from '../src/text/issues.js'

/** Every field a line must have. */
export const FIELDS = ['narrative', 'style', 'summary', 'bottom_line', 'provenance'] as const

/** Fewest narratives the file must cover. */
export const MIN_NARRATIVES = 100

/** The part of a narrative table entry this check needs. */
export interface NarrativeRef {
  readonly slug: string
}

/** One problem found in the file. */
export interface Problem {
  /** 1-based line number, or 0 for a problem with the file as a whole. */
  readonly line: number
  /** What is wrong. */
  readonly message: string
}

/** A line that parsed and had a usable narrative slug and style. */
interface Entry {
  readonly line: number
  readonly narrative: string
  readonly style: string
}

/**
 * Checks the provenance of a line: what every reader of content lines accepts, and shipped
 * content only (curated, or the team's generated entries with an editorial prompt version:
 * db/content/EDITORIAL.md), as the seed loads nothing else from this file.
 *
 * @param value - the value of the `provenance` field
 * @returns a message for each problem found
 */
export function checkProvenance(value: unknown): string[] {
  const parsed = parseProvenance(value)
  if (typeof parsed === 'string') return [parsed]
  if (parsed.method === 'curated' && parsed.model === null) return []
  if (parsed.method === 'generated' && parsed.model !== null && parsed.promptVersion.startsWith(SHIPPED_PROMPT_PREFIX)) return []
  return [
    `provenance: this file holds shipped content only: curated (model null), or generated with an ${SHIPPED_PROMPT_PREFIX}* prompt version; the seed loads nothing else from it`,
  ]
}

/**
 * Checks one parsed line on its own: fields, narrative slug, style, texts and provenance.
 *
 * @param value - the parsed JSON value of the line
 * @param slugs - the slugs of the narrative table
 * @returns a message for each problem found
 */
export function checkEntry(value: unknown, slugs: ReadonlySet<string>): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return ['not a JSON object']
  }
  const record = value as Record<string, unknown>
  const messages: string[] = []
  for (const key of Object.keys(record)) {
    if (!(FIELDS as readonly string[]).includes(key)) messages.push(`unexpected field "${key}"`)
  }
  const narrative = record['narrative']
  if (typeof narrative !== 'string') messages.push('narrative: missing or not a string')
  else if (!slugs.has(narrative)) messages.push(`narrative "${narrative}": no such narrative in narratives.json`)
  messages.push(...narrativeContentIssues(record['style'], record['summary'], record['bottom_line']).map(formatIssue))
  messages.push(...checkProvenance(record['provenance']))
  return messages
}

/**
 * Checks the order and pairing of the lines: each narrative has exactly one faithful line
 * followed by one casual line, and narratives follow the table's canonical order.
 *
 * @param entries - the lines that had a known narrative and a string style
 * @param order - the position of each slug in the narrative table
 * @returns every problem found
 */
export function checkPairsAndOrder(entries: readonly Entry[], order: ReadonlyMap<string, number>): Problem[] {
  const problems: Problem[] = []
  const styles = new Map<string, { style: string; line: number }[]>()
  for (const entry of entries) {
    const list = styles.get(entry.narrative) ?? []
    list.push({ style: entry.style, line: entry.line })
    styles.set(entry.narrative, list)
  }
  for (const [narrative, list] of styles) {
    const line = list[0]?.line ?? 0
    for (const style of NARRATIVE_STYLES) {
      const count = list.filter((item) => item.style === style).length
      if (count !== 1) problems.push({ line, message: `narrative "${narrative}": ${count} ${style} lines, expected exactly 1` })
    }
    for (let i = 1; i < list.length; i += 1) {
      const previous = list[i - 1]
      const current = list[i]
      if (previous !== undefined && current !== undefined && current.line !== previous.line + 1) {
        problems.push({ line: current.line, message: `narrative "${narrative}": its lines are not adjacent` })
      }
    }
    const [first, second] = list
    if (list.length === 2 && first !== undefined && second !== undefined && (first.style !== 'faithful' || second.style !== 'casual')) {
      problems.push({ line, message: `narrative "${narrative}": expected faithful then casual` })
    }
  }
  let lastPosition = -1
  let lastSlug = ''
  for (const entry of entries) {
    const position = order.get(entry.narrative) ?? -1
    if (position < lastPosition) {
      problems.push({ line: entry.line, message: `narrative "${entry.narrative}" comes after "${lastSlug}" but precedes it in narratives.json` })
    }
    if (position >= lastPosition) {
      lastPosition = position
      lastSlug = entry.narrative
    }
  }
  return problems
}

/**
 * Checks the whole content of a narrative-content JSON Lines file.
 *
 * @param content - the file's text
 * @param narratives - the narrative table, in canonical order
 * @returns the problems found, in line order (whole-file problems first), and the number
 *   of distinct narratives covered
 */
export function checkNarrativeContent(content: string, narratives: readonly NarrativeRef[]): { problems: Problem[]; covered: number } {
  const problems: Problem[] = []
  const order = new Map<string, number>()
  narratives.forEach((narrative, index) => order.set(narrative.slug, index))
  const slugs: ReadonlySet<string> = new Set(order.keys())

  if (content !== '' && !content.endsWith('\n')) problems.push({ line: 0, message: 'file does not end with a newline' })
  const body = content.endsWith('\n') ? content.slice(0, -1) : content
  const lines = body === '' ? [] : body.split('\n')
  const entries: Entry[] = []
  lines.forEach((text, index) => {
    const line = index + 1
    if (text.endsWith('\r')) problems.push({ line, message: 'line ends with a carriage return' })
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      problems.push({ line, message: `invalid JSON: ${reason}` })
      return
    }
    for (const message of checkEntry(parsed, slugs)) problems.push({ line, message })
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>
      const narrative = record['narrative']
      const style = record['style']
      if (typeof narrative === 'string' && slugs.has(narrative) && typeof style === 'string') {
        entries.push({ line, narrative, style })
      }
    }
  })
  problems.push(...checkPairsAndOrder(entries, order))
  const covered = new Set(entries.map((entry) => entry.narrative)).size
  if (covered < MIN_NARRATIVES) {
    problems.push({ line: 0, message: `${covered} narratives covered, expected at least ${MIN_NARRATIVES}` })
  }
  problems.sort((a, b) => a.line - b.line)
  return { problems, covered }
}

/**
 * Reads the narrative table and returns its entries.
 *
 * @param file - path of narratives.json
 * @returns the entries, in the file's order
 */
export function readNarratives(file: string): NarrativeRef[] {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
  if (!Array.isArray(parsed)) throw new Error(`${file} is not a JSON array`)
  return parsed.map((item: unknown, index: number) => {
    const slug = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)['slug'] : undefined
    if (typeof slug !== 'string') throw new Error(`${file}: entry ${index} has no slug`)
    return { slug }
  })
}

/**
 * Reads and checks the file, printing problems or a success message.
 *
 * @param file - path of the JSON Lines content file
 * @param narrativesFile - path of narratives.json
 * @returns the process exit code: 0 if valid, 1 otherwise
 */
export function main(file: string, narrativesFile: string): number {
  let content: string
  let narratives: NarrativeRef[]
  try {
    content = readFileSync(file, 'utf8')
    narratives = readNarratives(narrativesFile)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    console.error(`cannot read input: ${reason}`)
    return 1
  }
  const { problems, covered } = checkNarrativeContent(content, narratives)
  for (const { line, message } of problems) {
    console.error(line === 0 ? `${file}: ${message}` : `${file}:${line}: ${message}`)
  }
  if (problems.length > 0) {
    console.error(`${problems.length} problem(s) found`)
    return 1
  }
  console.log(`${covered} narratives valid`)
  return 0
}

const here = dirname(fileURLToPath(import.meta.url))
const defaultFile = resolve(here, '..', 'db', 'content', 'narratives.jsonl')
const defaultNarratives = resolve(here, '..', 'db', 'narratives', 'narratives.json')

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exit(main(process.argv[2] ?? defaultFile, process.argv[3] ?? defaultNarratives))
}
