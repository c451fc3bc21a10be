/**
 * Checks curated-content files before they are committed or imported.
 *
 * Usage: `npx tsx scripts/validate-content.ts <file.jsonl>...`
 *
 * Each file is JSON Lines, one object per line:
 *   {"slug":"john-3-16","style":"faithful","simplified_text":"...","bottom_line":"...",
 *    "historical_context":"...","practical_reflection":"...",
 *    "provenance":{"method":"curated","model":null,"prompt_version":"curated-1"}}
 * (casual lines have only simplified_text and bottom_line besides slug, style, provenance).
 *
 * Every line is checked against the KJV text of its verse with the shared content rules
 * (src/content/validation.ts), plus what only a file can get wrong: JSON, the slug (a
 * canonical slug of an existing verse), the style, the provenance, and the same verse and
 * style given twice (across all the files named). Each problem is printed as
 *   file:line: slug style: field rule: message
 * and the exit code is 1 if there is any, 2 on bad usage; otherwise it prints "N lines valid".
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { STYLE_FIELDS, validateContent, type Style } from '../src/content/validation.js'
import { parseVerseSlug, verseReference, verseSlug } from '../src/verses/slug.js'

const SEED_FILE = join(import.meta.dirname, '..', 'db', 'seed', 'kjv.jsonl.gz')
/** The keys of a line that are not content fields. */
const LINE_KEYS = new Set(['slug', 'style', 'provenance'])
const METHODS = ['curated', 'generated', 'modernized']

interface Problem {
  readonly field: string
  readonly rule: string
  readonly message: string
}

/** The KJV as the checks need it: verse texts and the size of each book and chapter. */
interface Kjv {
  readonly text: ReadonlyMap<string, string>
  /** `book` -> number of chapters; `book.chapter` -> number of verses. */
  readonly size: ReadonlyMap<string, number>
}

function loadKjv(): Kjv {
  const text = new Map<string, string>()
  const size = new Map<string, number>()
  for (const line of gunzipSync(readFileSync(SEED_FILE)).toString('utf8').split('\n')) {
    if (line === '') continue
    const { b, c, v, text: verse } = JSON.parse(line) as { b: number; c: number; v: number; text: string }
    text.set(`${b}.${c}.${v}`, verse)
    size.set(`${b}`, Math.max(size.get(`${b}`) ?? 0, c))
    size.set(`${b}.${c}`, Math.max(size.get(`${b}.${c}`) ?? 0, v))
  }
  return { text, size }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** How a wrong value reads in a message: `"modern"`, `42`, `null`, `missing`, `an array`. */
function describe(value: unknown): string {
  if (value === undefined) return 'missing'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object' && value !== null) return 'an object'
  return JSON.stringify(value) ?? String(value)
}

/** Checks the provenance object; its values are free, its shape is not. */
function checkProvenance(value: unknown): Problem[] {
  const field = 'provenance'
  if (value === undefined) {
    return [{ field, rule: 'required', message: 'is missing; add {"method":"curated","model":null,"prompt_version":"curated-1"}' }]
  }
  if (!isRecord(value)) return [{ field, rule: 'type', message: `must be an object, not ${describe(value)}` }]
  const problems: Problem[] = []
  if (typeof value.method !== 'string' || !METHODS.includes(value.method)) {
    problems.push({ field, rule: 'provenance', message: `method is ${describe(value.method)}; use one of ${METHODS.map((m) => `"${m}"`).join(', ')}` })
  }
  if (value.model !== null && (typeof value.model !== 'string' || value.model.trim() === '')) {
    problems.push({ field, rule: 'provenance', message: `model is ${describe(value.model)}; use null for curated content, or the model name` })
  }
  if (typeof value.prompt_version !== 'string' || value.prompt_version.trim() === '') {
    problems.push({ field, rule: 'provenance', message: `prompt_version is ${describe(value.prompt_version)}; use a non-empty string such as "curated-1"` })
  }
  for (const key of Object.keys(value)) {
    if (!['method', 'model', 'prompt_version'].includes(key)) {
      problems.push({ field, rule: 'provenance', message: `has the unexpected key "${key}"; only method, model and prompt_version are allowed` })
    }
  }
  return problems
}

/** Where a line's verse and style were first seen, to report duplicates. */
type Seen = Map<string, string>

interface LineResult {
  /** Printed before each problem: `slug style`, with `?` for what the line lacks. */
  readonly label: string
  readonly problems: Problem[]
}

function checkLine(raw: string, where: string, kjv: Kjv, seen: Seen): LineResult {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (error) {
    return { label: '? ?', problems: [{ field: 'line', rule: 'invalid_json', message: `is not valid JSON: ${(error as Error).message}` }] }
  }
  if (!isRecord(parsed)) {
    return { label: '? ?', problems: [{ field: 'line', rule: 'type', message: `must be a JSON object, not ${describe(parsed)}` }] }
  }
  const { slug, style, provenance } = parsed
  const label = `${typeof slug === 'string' && slug !== '' ? slug : '?'} ${typeof style === 'string' && style !== '' ? style : '?'}`
  const problems: Problem[] = []

  let kjvText: string | undefined
  let canonical: string | undefined
  if (slug === undefined) {
    problems.push({ field: 'slug', rule: 'required', message: 'is missing; add the verse slug, e.g. "john-3-16"' })
  } else if (typeof slug !== 'string') {
    problems.push({ field: 'slug', rule: 'type', message: `must be a string such as "john-3-16", not ${describe(slug)}` })
  } else {
    const address = parseVerseSlug(slug)
    if (address === undefined) {
      problems.push({ field: 'slug', rule: 'invalid_slug', message: `"${slug}" does not name a verse; write book-chapter-verse, e.g. "john-3-16" or "1-corinthians-13-4"` })
    } else {
      const { book, chapter, verse } = address
      canonical = verseSlug(book, chapter, verse)
      kjvText = kjv.text.get(`${book.position}.${chapter}.${verse}`)
      if (kjvText === undefined) {
        const chapters = kjv.size.get(`${book.position}`) ?? 0
        const verses = kjv.size.get(`${book.position}.${chapter}`)
        const message = verses === undefined
          ? `${verseReference(book, chapter, verse)} does not exist: ${book.name} has ${chapters} chapters`
          : `${verseReference(book, chapter, verse)} does not exist: ${book.name} ${chapter} has ${verses} verses`
        problems.push({ field: 'slug', rule: 'unknown_verse', message })
      }
      if (slug !== canonical) {
        problems.push({ field: 'slug', rule: 'non_canonical_slug', message: `write the canonical "${canonical}" for ${verseReference(book, chapter, verse)}` })
      }
    }
  }

  const styles = Object.keys(STYLE_FIELDS)
  const validStyle = typeof style === 'string' && styles.includes(style)
  if (style === undefined) {
    problems.push({ field: 'style', rule: 'required', message: `is missing; use ${styles.map((s) => `"${s}"`).join(' or ')}` })
  } else if (!validStyle) {
    problems.push({ field: 'style', rule: 'unknown_style', message: `is ${describe(style)}; use ${styles.map((s) => `"${s}"`).join(' or ')}` })
  }

  problems.push(...checkProvenance(provenance))

  if (validStyle && kjvText !== undefined) {
    const fields = Object.fromEntries(Object.entries(parsed).filter(([key]) => !LINE_KEYS.has(key)))
    problems.push(...validateContent(style as Style, fields, kjvText))
  }

  if (validStyle && canonical !== undefined && kjvText !== undefined) {
    const key = `${canonical} ${style as string}`
    const first = seen.get(key)
    if (first === undefined) {
      seen.set(key, where)
    } else {
      problems.push({ field: 'line', rule: 'duplicate', message: `${canonical} ${style as string} is already given at ${first}; keep one of the two` })
    }
  }
  return { label, problems }
}

function main(files: readonly string[]): number {
  if (files.length === 0 || files.some((f) => f === '-h' || f === '--help')) {
    process.stderr.write('usage: npx tsx scripts/validate-content.ts <file.jsonl>...\n')
    return 2
  }
  const kjv = loadKjv()
  const seen: Seen = new Map()
  let lines = 0
  let invalidLines = 0
  let problems = 0
  for (const file of files) {
    let content: string
    try {
      content = readFileSync(file, 'utf8')
    } catch (error) {
      process.stdout.write(`${file}: cannot read: ${(error as Error).message}\n`)
      problems++
      continue
    }
    // A byte-order mark or Windows line endings are editor noise, not content errors.
    const rows = content.replace(/^\ufeff/u, '').split('\n')
    rows.forEach((row, index) => {
      const raw = row.replace(/\r$/u, '')
      if (raw.trim() === '') return
      lines++
      const where = `${file}:${index + 1}`
      const result = checkLine(raw, where, kjv, seen)
      if (result.problems.length === 0) return
      invalidLines++
      for (const p of result.problems) {
        process.stdout.write(`${where}: ${result.label}: ${p.field} ${p.rule}: ${p.message}\n`)
        problems++
      }
    })
  }
  if (problems > 0) {
    process.stderr.write(`${invalidLines} of ${lines} lines invalid (${problems} ${problems === 1 ? 'problem' : 'problems'})\n`)
    return 1
  }
  process.stdout.write(`${lines} lines valid\n`)
  return 0
}

process.exitCode = main(process.argv.slice(2))
