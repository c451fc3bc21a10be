/**
 * Checks `db/content/book-intros.jsonl`, the introductions to the 66 books of
 * the King James Version.
 *
 * Usage: npx tsx scripts/check-book-intros.ts [file]
 *
 * Verifies that the file has exactly 66 lines of valid JSON, one per book in
 * canonical order, that every field is a non-empty string of the right
 * length in plain text (src/text/plain-text.ts: no line breaks, markup or
 * URLs), and that every prose field (all but `book`) passes the editorial
 * gates of db/content/EDITORIAL.md that apply to it (src/text/editorial.ts):
 * balanced straight quotes, a capital first letter, final punctuation and
 * American spelling (a quotation of the KJV keeps its own spelling).
 * Prints every problem with its line number and exits 1 if there are any.
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { fieldGateIssues, type FieldGate } from '../src/text/editorial.js'
import { formatIssue } from '../src/text/issues.js'
import { countWords, plainTextIssues } from '../src/text/plain-text.js'

/** Book slugs of the KJV in canonical order, Genesis to Revelation. */
export const BOOK_SLUGS: readonly string[] = [
  'genesis',
  'exodus',
  'leviticus',
  'numbers',
  'deuteronomy',
  'joshua',
  'judges',
  'ruth',
  '1-samuel',
  '2-samuel',
  '1-kings',
  '2-kings',
  '1-chronicles',
  '2-chronicles',
  'ezra',
  'nehemiah',
  'esther',
  'job',
  'psalms',
  'proverbs',
  'ecclesiastes',
  'song-of-solomon',
  'isaiah',
  'jeremiah',
  'lamentations',
  'ezekiel',
  'daniel',
  'hosea',
  'joel',
  'amos',
  'obadiah',
  'jonah',
  'micah',
  'nahum',
  'habakkuk',
  'zephaniah',
  'haggai',
  'zechariah',
  'malachi',
  'matthew',
  'mark',
  'luke',
  'john',
  'acts',
  'romans',
  '1-corinthians',
  '2-corinthians',
  'galatians',
  'ephesians',
  'philippians',
  'colossians',
  '1-thessalonians',
  '2-thessalonians',
  '1-timothy',
  '2-timothy',
  'titus',
  'philemon',
  'hebrews',
  'james',
  '1-peter',
  '2-peter',
  '1-john',
  '2-john',
  '3-john',
  'jude',
  'revelation',
]

/** The short fields, each limited to {@link MAX_SHORT_WORDS} words. */
export const SHORT_FIELDS = ['author', 'date', 'audience', 'setting', 'purpose'] as const

/** Every field a line must have, in the order they are written. */
export const FIELDS = ['book', ...SHORT_FIELDS, 'introduction'] as const

/** Most words allowed in a short field. */
export const MAX_SHORT_WORDS = 40
/** Fewest words allowed in an introduction. */
export const MIN_INTRO_WORDS = 80
/** Most words allowed in an introduction. */
export const MAX_INTRO_WORDS = 200

/**
 * The editorial gates of the prose fields. Not the archaic gate: an introduction may
 * name and quote the KJV's words as it describes the book.
 */
export const INTRO_GATES: readonly FieldGate[] = ['quotes_balanced', 'first_letter', 'final_punctuation', 'american_spelling']

/** One problem found in the file. */
export interface Problem {
  /** 1-based line number, or 0 for a problem with the file as a whole. */
  readonly line: number
  /** What is wrong. */
  readonly message: string
}

/**
 * Checks the text of one field: plain text, and for a prose field the editorial gates.
 *
 * @param name - the field name, used in messages
 * @param value - the field's text
 * @returns a message for each problem found
 */
export function checkText(name: string, value: string): string[] {
  // The introductions are served as written, untrimmed: a line break at either end counts.
  const issues = plainTextIssues(name, value)
  if (name !== 'book') issues.push(...fieldGateIssues(name, value.trim(), { gates: INTRO_GATES, quotationsExempt: true }))
  return issues.map(formatIssue)
}

/**
 * Checks one parsed line against the expected slug.
 *
 * @param value - the parsed JSON value of the line
 * @param expectedSlug - the slug the line should have, or undefined past line 66
 * @returns a message for each problem found
 */
export function checkEntry(value: unknown, expectedSlug: string | undefined): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return ['not a JSON object']
  }
  const record = value as Record<string, unknown>
  const messages: string[] = []
  for (const key of Object.keys(record)) {
    if (!(FIELDS as readonly string[]).includes(key)) messages.push(`unexpected field "${key}"`)
  }
  for (const field of FIELDS) {
    const fieldValue = record[field]
    if (fieldValue === undefined) {
      messages.push(`${field}: missing`)
      continue
    }
    if (typeof fieldValue !== 'string') {
      messages.push(`${field}: not a string`)
      continue
    }
    if (fieldValue.trim() === '') {
      messages.push(`${field}: empty`)
      continue
    }
    messages.push(...checkText(field, fieldValue))
    const words = countWords(fieldValue)
    if (field === 'introduction') {
      if (words < MIN_INTRO_WORDS || words > MAX_INTRO_WORDS) {
        messages.push(`introduction: ${words} words, expected ${MIN_INTRO_WORDS}-${MAX_INTRO_WORDS}`)
      }
    } else if (field !== 'book' && words > MAX_SHORT_WORDS) {
      messages.push(`${field}: ${words} words, expected at most ${MAX_SHORT_WORDS}`)
    }
  }
  const book = record['book']
  if (typeof book === 'string' && book !== expectedSlug) {
    messages.push(expectedSlug === undefined ? `book "${book}": extra line beyond the 66 books` : `book "${book}": expected "${expectedSlug}"`)
  }
  return messages
}

/**
 * Checks the whole content of a book-introductions JSON Lines file.
 *
 * @param content - the file's text
 * @returns every problem found, in line order
 */
export function checkBookIntros(content: string): Problem[] {
  const problems: Problem[] = []
  const body = content.endsWith('\n') ? content.slice(0, -1) : content
  const lines = body === '' ? [] : body.split('\n')
  if (lines.length !== BOOK_SLUGS.length) {
    problems.push({ line: 0, message: `${lines.length} lines, expected ${BOOK_SLUGS.length}` })
  }
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
    for (const message of checkEntry(parsed, BOOK_SLUGS[index])) problems.push({ line, message })
  })
  return problems
}

/**
 * Reads and checks the file, printing problems or a success message.
 *
 * @param file - path of the JSON Lines file to check
 * @returns the process exit code: 0 if valid, 1 otherwise
 */
export function main(file: string): number {
  let content: string
  try {
    content = readFileSync(file, 'utf8')
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    console.error(`cannot read ${file}: ${reason}`)
    return 1
  }
  const problems = checkBookIntros(content)
  for (const { line, message } of problems) {
    console.error(line === 0 ? `${file}: ${message}` : `${file}:${line}: ${message}`)
  }
  if (problems.length > 0) {
    console.error(`${problems.length} problem(s) found`)
    return 1
  }
  console.log(`${BOOK_SLUGS.length} book introductions valid`)
  return 0
}

const here = dirname(fileURLToPath(import.meta.url))
const defaultFile = resolve(here, '..', 'db', 'content', 'book-intros.jsonl')

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exit(main(process.argv[2] ?? defaultFile))
}
