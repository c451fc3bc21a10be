/**
 * The section outline of all 66 books (db/sections/sections.json, built by
 * scripts/build-sections.ts), held in memory with an index from verse to section. In the
 * Gospels the sections are the narratives.
 */
import { readFileSync } from 'node:fs'
import { rangeReference, rangeSlug } from '../passages/passage-slug.js'
import { BOOKS, findBook, type BookInfo } from '../verses/books.js'
import { verseId } from '../verses/verse.store.js'

/** A verse inside one book. */
export interface SectionVerse {
  readonly chapter: number
  readonly verse: number
}

/** One section as the table gives it, with what the resources need derived once. */
export interface SectionRecord {
  readonly slug: string
  readonly title: string
  readonly book: BookInfo
  /** Position within its book, from 1. */
  readonly seq: number
  readonly start: SectionVerse
  readonly end: SectionVerse
  readonly verseCount: number
  /** "Genesis 1:1-2:3", or "Psalms 23" for a whole chapter (as passages write it). */
  readonly reference: string
  /** The canonical passage slug of the section's verses, e.g. `genesis-1-1-2-3` or `psalms-23`. */
  readonly passage: string
}

interface Row {
  slug: string
  title: string
  book: string
  seq: number
  start: SectionVerse
  end: SectionVerse
  verse_count: number
}

/** The sections, by book and by verse. */
export class SectionStore {
  private readonly byVerse = new Map<number, SectionRecord>()
  private readonly byBook = new Map<string, SectionRecord[]>()
  private readonly bySlug = new Map<string, SectionRecord>()

  /**
   * Indexes the table and checks that it covers every verse of every book once, in order, so a
   * broken table stops start-up rather than leaving a verse without its section.
   * @param rows the table's rows in canonical order.
   * @param chapterCounts the verse count of each chapter of a book, from the seeded text.
   */
  constructor(rows: readonly Row[], chapterCounts: (book: BookInfo) => readonly number[]) {
    for (const row of rows) {
      const book = findBook(row.book)
      if (book === undefined || book.slug !== row.book) throw new Error(`section ${row.slug}: unknown book ${row.book}`)
      if (this.bySlug.has(row.slug)) throw new Error(`section slug ${row.slug} is used twice`)
      const counts = chapterCounts(book)
      const startId = verseId(book.position, row.start.chapter, row.start.verse)
      const endId = verseId(book.position, row.end.chapter, row.end.verse)
      const own = this.byBook.get(book.slug) ?? []
      const previous = own[own.length - 1]
      const expected = previous === undefined ? { chapter: 1, verse: 1 } : following(previous.end, counts)
      if (expected === undefined || expected.chapter !== row.start.chapter || expected.verse !== row.start.verse) {
        throw new Error(`section ${row.slug} starts at ${row.start.chapter}:${row.start.verse}, not where the one before it ends`)
      }
      const ids: number[] = []
      for (let at: SectionVerse | undefined = row.start; at !== undefined; at = following(at, counts)) {
        if ((counts[at.chapter - 1] ?? 0) < at.verse) throw new Error(`section ${row.slug} runs past ${book.name}`)
        ids.push(verseId(book.position, at.chapter, at.verse))
        if (at.chapter === row.end.chapter && at.verse === row.end.verse) break
      }
      if (ids.at(-1) !== endId) throw new Error(`section ${row.slug} runs past ${book.name}`)
      if (ids.length !== row.verse_count) throw new Error(`section ${row.slug} has ${ids.length} verses, the table says ${row.verse_count}`)
      const wholeChapter = row.start.chapter === row.end.chapter && row.start.verse === 1 && row.end.verse === counts[row.end.chapter - 1]
      const range = { start: startId, end: endId }
      const record: SectionRecord = {
        slug: row.slug,
        title: row.title,
        book,
        seq: own.length + 1,
        start: { chapter: row.start.chapter, verse: row.start.verse },
        end: { chapter: row.end.chapter, verse: row.end.verse },
        verseCount: ids.length,
        reference: rangeReference(range, () => wholeChapter),
        passage: rangeSlug(range, () => wholeChapter),
      }
      for (const id of ids) this.byVerse.set(id, record)
      own.push(record)
      this.byBook.set(book.slug, own)
      this.bySlug.set(record.slug, record)
    }
    for (const book of BOOKS) {
      const counts = chapterCounts(book)
      if (counts.length === 0) continue
      const last = this.byBook.get(book.slug)?.at(-1)
      if (last === undefined || last.end.chapter !== counts.length || last.end.verse !== counts[counts.length - 1]) {
        throw new Error(`the sections of ${book.name} do not reach its last verse`)
      }
    }
  }

  /** The section a verse belongs to. */
  ofVerse(id: number): SectionRecord | undefined {
    return this.byVerse.get(id)
  }

  /** A book's sections in order (empty for a book the table lacks). */
  ofBook(book: BookInfo): readonly SectionRecord[] {
    return this.byBook.get(book.slug) ?? []
  }

  /** The section with this slug. */
  get(slug: string): SectionRecord | undefined {
    return this.bySlug.get(slug)
  }
}

/** The verse after `at` within its book, or undefined after the last. */
function following(at: SectionVerse, counts: readonly number[]): SectionVerse | undefined {
  if (at.verse < (counts[at.chapter - 1] ?? 0)) return { chapter: at.chapter, verse: at.verse + 1 }
  return at.chapter < counts.length ? { chapter: at.chapter + 1, verse: 1 } : undefined
}

/**
 * Reads the committed table.
 * @example const sections = readSections(projectPath(SECTIONS_FILE), (book) => verses.chapterVerseCounts(book))
 */
export function readSections(path: string, chapterCounts: (book: BookInfo) => readonly number[]): SectionStore {
  return new SectionStore(JSON.parse(readFileSync(path, 'utf8')) as Row[], chapterCounts)
}
