/**
 * Every verse of the KJV, held in memory once loaded so that the hot path makes no
 * database round trip. Immutable after construction.
 */
import { BOOKS, type BookInfo } from './books.js'

/** One verse as the API serves it. */
export interface VerseRecord {
  readonly id: number
  readonly book: number
  readonly chapter: number
  readonly verse: number
  readonly text: string
}

/** A verse with the KJV's structure (paragraphs, italics, red letter, headings), as seeded. */
export interface StructuredVerse extends VerseRecord {
  readonly paragraph: boolean
  readonly italics: ReadonlyArray<readonly [number, number]>
  readonly wordsOfChrist: ReadonlyArray<readonly [number, number]>
  readonly title: string | null
}

/** The verse id used as the primary key: book * 1,000,000 + chapter * 1,000 + verse. */
export function verseId(book: number, chapter: number, verse: number): number {
  return book * 1_000_000 + chapter * 1_000 + verse
}

/** Books per slice of `verseIdSlices`. */
const BOOKS_PER_SLICE = 3

/**
 * Verse-id ranges [from, to) of a few books each, covering every book: how the whole text is
 * read from the database in slices (see ContentRepository.listAll).
 */
export function verseIdSlices(): Array<readonly [number, number]> {
  const slices: Array<readonly [number, number]> = []
  for (let book = 1; book <= BOOKS.length; book += BOOKS_PER_SLICE) slices.push([verseId(book, 0, 0), verseId(book + BOOKS_PER_SLICE, 0, 0)])
  return slices
}

/** Immutable in-memory index of the verses. */
export class VerseStore {
  private readonly byId: ReadonlyMap<number, VerseRecord>
  private readonly counts: ReadonlyMap<number, readonly number[]>
  /** Every verse in canonical order, and each verse's index in it, for ranges. */
  private readonly ordered: readonly VerseRecord[]
  private readonly positions: ReadonlyMap<number, number>

  /** @param verses every verse, in any order. */
  constructor(verses: Iterable<VerseRecord>) {
    const byId = new Map<number, VerseRecord>()
    const counts = new Map<number, number[]>()
    for (const v of [...verses].sort((a, b) => a.id - b.id)) {
      byId.set(v.id, v)
      const chapters = counts.get(v.book) ?? []
      chapters[v.chapter - 1] = Math.max(chapters[v.chapter - 1] ?? 0, v.verse)
      counts.set(v.book, chapters)
    }
    this.byId = byId
    this.counts = counts
    this.ordered = [...byId.values()]
    this.positions = new Map(this.ordered.map((v, index) => [v.id, index]))
  }

  /** Number of verses held. */
  get size(): number {
    return this.byId.size
  }

  /** The verse at an address, or undefined when the book has no such chapter or verse. */
  get(book: number, chapter: number, verse: number): VerseRecord | undefined {
    return this.byId.get(verseId(book, chapter, verse))
  }

  /** The verse with this id. */
  byVerseId(id: number): VerseRecord | undefined {
    return this.byId.get(id)
  }

  /** How many verses lie from `startId` to `endId`, both included (0 when either is unknown or the range is reversed). */
  countBetween(startId: number, endId: number): number {
    const from = this.positions.get(startId)
    const to = this.positions.get(endId)
    return from === undefined || to === undefined || to < from ? 0 : to - from + 1
  }

  /** The id of the verse after this one in canonical order, if any. */
  next(id: number): number | undefined {
    const at = this.positions.get(id)
    return at === undefined ? undefined : this.ordered[at + 1]?.id
  }

  /** The verses from `startId` to `endId`, both included, in canonical order. */
  between(startId: number, endId: number): readonly VerseRecord[] {
    const from = this.positions.get(startId)
    const to = this.positions.get(endId)
    return from === undefined || to === undefined || to < from ? [] : this.ordered.slice(from, to + 1)
  }

  /** The verse count of each chapter of a book (index 0 is chapter 1). */
  chapterVerseCounts(book: BookInfo): readonly number[] {
    return this.counts.get(book.position) ?? []
  }

  /** All books that have verses, in canonical order. */
  books(): readonly BookInfo[] {
    return BOOKS.filter((book) => this.counts.has(book.position))
  }

  /** Every verse in canonical order. */
  all(): IterableIterator<VerseRecord> {
    return this.byId.values()
  }
}
