/**
 * Canonical passage slugs and references. A passage is a list of verse ranges, each within
 * one book; its canonical form is sorted and merged, so one set of verses has one slug:
 *
 * - `john-3-16` one verse, `john-3-16-18` verses of one chapter, `psalms-23` a whole
 *   chapter, `genesis-1-1-2-3` across chapters, joined by commas for several ranges;
 * - "John 3:16", "John 3:16-18", "Psalms 23", "Genesis 1:1-2:3", and for several ranges
 *   "Romans 8:28, 31-39" (same chapter), "Romans 8:28; 9:1" (same book), "John 3:16; Romans 5:8".
 */
import { bookAt, findBook, type BookInfo } from '../verses/books.js'
import { verseId } from '../verses/verse.store.js'
import type { IdRange } from './reference-parser.js'

/** A verse address decoded from an id. */
interface Address {
  readonly book: BookInfo
  readonly chapter: number
  readonly verse: number
}

/** Decodes a verse id (book * 1,000,000 + chapter * 1,000 + verse). */
export function addressOf(id: number): Address {
  const book = bookAt(Math.floor(id / 1_000_000))
  if (book === undefined) throw new Error(`verse id ${id} has no book`)
  return { book, chapter: Math.floor(id / 1_000) % 1_000, verse: id % 1_000 }
}

/** At most four numbers after the book: chapter[-verse[-verse | -chapter-verse]]. */
const RANGE_SLUG = /^(.+?)-(\d{1,3})(?:-(\d{1,3}))?(?:-(\d{1,3}))?(?:-(\d{1,3}))?$/

/**
 * Reads a comma-separated list of range slugs (any book alias, any case) as id ranges; the
 * ranges are not checked against the text. Undefined when any piece is not a range slug.
 * @param lastVerse the last verse of a chapter, for whole-chapter slugs (0 when no such chapter).
 * @example parsePassageSlug('john-3-16-18', last) // [{ start: 43003016, end: 43003018 }]
 */
export function parsePassageSlug(slug: string, lastVerse: (book: BookInfo, chapter: number) => number): IdRange[] | undefined {
  const ranges: IdRange[] = []
  for (const piece of slug.trim().toLowerCase().split(',')) {
    const match = RANGE_SLUG.exec(piece.trim())
    if (match === null) return undefined
    const [, token = '', ...rest] = match
    const book = findBook(token)
    const numbers = rest.filter((n): n is string => n !== undefined).map(Number)
    if (book === undefined || numbers.some((n) => n < 1)) return undefined
    const [a = 0, b = 0, c = 0, d = 0] = numbers
    const p = book.position
    if (numbers.length === 1) ranges.push({ start: verseId(p, a, 1), end: verseId(p, a, Math.max(lastVerse(book, a), 1)) })
    else if (numbers.length === 2) ranges.push({ start: verseId(p, a, b), end: verseId(p, a, b) })
    else if (numbers.length === 3) ranges.push({ start: verseId(p, a, b), end: verseId(p, a, c) })
    else ranges.push({ start: verseId(p, a, b), end: verseId(p, c, d) })
  }
  return ranges
}

/**
 * Sorts ranges and merges those that overlap or touch (`next` gives the id of the verse after
 * an id, so that John 3:36 and John 4:1 touch).
 */
export function mergeRanges(ranges: readonly IdRange[], next: (id: number) => number | undefined): IdRange[] {
  const sorted = [...ranges].sort((x, y) => x.start - y.start || x.end - y.end)
  const merged: IdRange[] = []
  for (const range of sorted) {
    const last = merged[merged.length - 1]
    if (last !== undefined && (range.start <= last.end || range.start === next(last.end))) {
      merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, range.end) }
    } else {
      merged.push(range)
    }
  }
  return merged
}

/** Whether a range covers a whole chapter: from verse 1 to the chapter's last verse. */
type WholeChapter = (range: IdRange) => boolean

/** The slug of one range (within one book). */
export function rangeSlug(range: IdRange, wholeChapter: WholeChapter): string {
  const from = addressOf(range.start)
  const to = addressOf(range.end)
  const book = from.book.slug
  if (range.start === range.end) return `${book}-${from.chapter}-${from.verse}`
  if (wholeChapter(range)) return `${book}-${from.chapter}`
  if (from.chapter === to.chapter) return `${book}-${from.chapter}-${from.verse}-${to.verse}`
  return `${book}-${from.chapter}-${from.verse}-${to.chapter}-${to.verse}`
}

/** The human reference of one range: "John 3:16-18", "Psalms 23", "Genesis 1:1-2:3". */
export function rangeReference(range: IdRange, wholeChapter: WholeChapter): string {
  return `${addressOf(range.start).book.name} ${rangeTail(range, wholeChapter)}`
}

/** A range's reference without the book name. */
function rangeTail(range: IdRange, wholeChapter: WholeChapter): string {
  const from = addressOf(range.start)
  const to = addressOf(range.end)
  if (range.start === range.end) return `${from.chapter}:${from.verse}`
  if (wholeChapter(range)) return `${from.chapter}`
  if (from.chapter === to.chapter) return `${from.chapter}:${from.verse}-${to.verse}`
  return `${from.chapter}:${from.verse}-${to.chapter}:${to.verse}`
}

/** The reference of merged ranges, written as people do: "Romans 8:28, 31-39; 9:1; John 3:16". */
export function passageReference(ranges: readonly IdRange[], wholeChapter: WholeChapter): string {
  let text = ''
  let previous: IdRange | undefined
  for (const range of ranges) {
    const from = addressOf(range.start)
    const to = addressOf(range.end)
    const before = previous === undefined ? undefined : addressOf(previous.end)
    if (before === undefined) {
      text = rangeReference(range, wholeChapter)
    } else if (before.book !== from.book) {
      text += `; ${rangeReference(range, wholeChapter)}`
    } else if (before.chapter === from.chapter && from.chapter === to.chapter && !wholeChapter(range) && previous !== undefined && !wholeChapter(previous)) {
      // Same chapter as where the last range ended: the verses alone say it.
      text += range.start === range.end ? `, ${from.verse}` : `, ${from.verse}-${to.verse}`
    } else {
      text += `; ${rangeTail(range, wholeChapter)}`
    }
    previous = range
  }
  return text
}

/** The OSIS reference: `Rom.8.28,Rom.8.31-Rom.8.39`. */
export function passageOsis(ranges: readonly IdRange[]): string {
  const osis = (id: number): string => {
    const a = addressOf(id)
    return `${a.book.osis}.${a.chapter}.${a.verse}`
  }
  return ranges.map((r) => (r.start === r.end ? osis(r.start) : `${osis(r.start)}-${osis(r.end)}`)).join(',')
}
