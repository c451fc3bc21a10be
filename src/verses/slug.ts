/**
 * Verse slugs (`john-3-16`) and references ("John 3:16"): parsing what clients send and
 * formatting the canonical forms.
 */
import { findBook, type BookInfo } from './books.js'

/** A book, chapter and verse that a slug names; existence is checked by the verse store. */
export interface VerseAddress {
  readonly book: BookInfo
  readonly chapter: number
  readonly verse: number
}

/** Longest slug worth parsing: the longest book alias plus two three-digit numbers fits easily. */
const MAX_SLUG_LENGTH = 64
// Chapter and verse are anchored at the end, so a numbered book keeps its leading number
// (1-corinthians-13-4); `john3-16` and `john-3:16` are accepted as typed by people.
const SLUG = /^([a-z0-9]+(?:[-.][a-z0-9]+)*?)[-.]?(\d{1,3})[-.:](\d{1,3})$/i

/**
 * Parses `{book}-{chapter}-{verse}` with any book alias and any letter case.
 * Returns undefined for anything that cannot name a verse; it never throws.
 * @example parseVerseSlug('Jn-3-16') // { book: John, chapter: 3, verse: 16 }
 */
export function parseVerseSlug(slug: string): VerseAddress | undefined {
  if (slug.length === 0 || slug.length > MAX_SLUG_LENGTH) return undefined
  const match = SLUG.exec(slug.trim())
  if (match === null) return undefined
  const [, bookToken = '', chapterText = '', verseText = ''] = match
  const book = findBook(bookToken)
  const chapter = Number(chapterText)
  const verse = Number(verseText)
  if (book === undefined || chapter < 1 || verse < 1) return undefined
  return { book, chapter, verse }
}

/** The canonical slug: `1-corinthians-13-4`. */
export function verseSlug(book: BookInfo, chapter: number, verse: number): string {
  return `${book.slug}-${chapter}-${verse}`
}

/** The human reference with the KJV book name: "1 Corinthians 13:4". */
export function verseReference(book: BookInfo, chapter: number, verse: number): string {
  return `${book.name} ${chapter}:${verse}`
}
