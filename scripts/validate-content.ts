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
 * Every line is checked against the KJV text of its verse with the shared content rules,
 * the editorial gates of db/content/EDITORIAL.md included (src/content/validation.ts), and
 * its provenance with the parser the seed and imports use (src/content/provenance.ts), plus
 * what only a file can get wrong: JSON, the slug (a canonical slug of an existing verse),
 * the style, and the same verse and style given twice. Across all the files named, no
 * sentence of a note may appear in more than three verses (src/content/repeated-sentences.ts).
 * Each problem is printed as
 *   file:line: slug style: field rule: message
 * and the exit code is 1 if there is any, 2 on bad usage; otherwise it prints "N lines valid".
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { parseProvenance } from '../src/content/pipeline/provenance.js'
import { findRepeatedSentences, repeatedSentenceMessage, type CorpusLine } from '../src/content/pipeline/repeated-sentences.js'
import { STYLE_FIELDS, validateContent, type Style } from '../src/content/pipeline/validation.js'
import { parseVerseSlug, verseReference, verseSlug } from '../src/verses/slug.js'

const SEED_FILE = join(import.meta.dirname, '..', 'db', 'seed', 'kjv.jsonl.gz')
/** The keys of a line that are not content fields. */
const LINE_KEYS = new Set(['slug', 'style', 'provenance'])

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

/** Checks the provenance object with the parser the seed and imports use. */
function checkProvenance(value: unknown): Problem[] {
  const parsed = parseProvenance(value)
  return typeof parsed === 'string' ? [{ field: 'provenance', rule: 'provenance', message: parsed }] : []
}

/** Where a line's verse and style were first seen, to report duplicates. */
type Seen = Map<string, string>

interface LineResult {
  /** Printed before each problem: `slug style`, with `?` for what the line lacks. */
  readonly label: string
  readonly problems: Problem[]
  /** The line's verse and content fields, for the corpus check; absent when it names no verse. */
  readonly corpus?: { readonly slug: string; readonly fields: Readonly<Record<string, unknown>> }
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
      problems.push({
        field: 'slug',
        rule: 'invalid_slug',
        message: `"${slug}" does not name a verse; write book-chapter-verse, e.g. "john-3-16" or "1-corinthians-13-4"`,
      })
    } else {
      const { book, chapter, verse } = address
      canonical = verseSlug(book, chapter, verse)
      kjvText = kjv.text.get(`${book.position}.${chapter}.${verse}`)
      if (kjvText === undefined) {
        const chapters = kjv.size.get(`${book.position}`) ?? 0
        const verses = kjv.size.get(`${book.position}.${chapter}`)
        const message =
          verses === undefined
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

  const fields = Object.fromEntries(Object.entries(parsed).filter(([key]) => !LINE_KEYS.has(key)))
  if (validStyle && kjvText !== undefined) problems.push(...validateContent(style as Style, fields, kjvText))

  if (validStyle && canonical !== undefined && kjvText !== undefined) {
    const key = `${canonical} ${style as string}`
    const first = seen.get(key)
    if (first === undefined) {
      seen.set(key, where)
    } else {
      problems.push({ field: 'line', rule: 'duplicate', message: `${canonical} ${style as string} is already given at ${first}; keep one of the two` })
    }
  }
  return { label, problems, corpus: canonical !== undefined && kjvText !== undefined ? { slug: canonical, fields } : undefined }
}

/** A line that was read, for the corpus check and its messages. */
interface ReadLine extends CorpusLine {
  readonly label: string
}

function main(files: readonly string[]): number {
  if (files.length === 0 || files.some((f) => f === '-h' || f === '--help')) {
    process.stderr.write('usage: npx tsx scripts/validate-content.ts <file.jsonl>...\n')
    return 2
  }
  const kjv = loadKjv()
  const seen: Seen = new Map()
  const read: ReadLine[] = []
  const invalid = new Set<string>()
  let lines = 0
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
      if (result.corpus !== undefined) read.push({ ...result.corpus, where, label: result.label })
      if (result.problems.length === 0) return
      invalid.add(where)
      for (const p of result.problems) {
        process.stdout.write(`${where}: ${result.label}: ${p.field} ${p.rule}: ${p.message}\n`)
        problems++
      }
    })
  }
  const labels = new Map(read.map((line) => [line.where, line.label]))
  for (const repeated of findRepeatedSentences(read)) {
    for (const place of repeated.places) {
      invalid.add(place.where)
      process.stdout.write(
        `${place.where}: ${labels.get(place.where) ?? '? ?'}: ${place.field} repeated_sentence: ${repeatedSentenceMessage(repeated, place)}\n`,
      )
      problems++
    }
  }
  if (problems > 0) {
    process.stderr.write(`${invalid.size} of ${lines} lines invalid (${problems} ${problems === 1 ? 'problem' : 'problems'})\n`)
    return 1
  }
  process.stdout.write(`${lines} lines valid\n`)
  return 0
}

process.exitCode = main(process.argv.slice(2))
