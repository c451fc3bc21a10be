/**
 * The 548 gospel narratives (db/narratives/narratives.json, built by
 * scripts/build-narratives.ts), held in memory with an index from verse to narrative.
 */
import { readFileSync } from 'node:fs'
import { findBook } from '../verses/books.js'
import { verseId } from '../verses/verse.store.js'

export type Gospel = 'matthew' | 'mark' | 'luke' | 'john'
const GOSPELS: readonly Gospel[] = ['matthew', 'mark', 'luke', 'john']

/** One narrative as the table gives it. */
export interface NarrativeRecord {
  readonly slug: string
  readonly title: string
  readonly gospel: Gospel
  readonly start: { readonly chapter: number; readonly verse: number }
  readonly end: { readonly chapter: number; readonly verse: number }
  readonly verseCount: number
  readonly order: number
  readonly parallels: readonly string[]
  /** Position in canonical order (Gospel order, then text order), 0-based. */
  readonly index: number
  /** "Matthew 14:13-21" or, across chapters, "Luke 1:1-2:7". */
  readonly reference: string
  /** The ids of the narrative's verses, in order. */
  readonly verseIds: readonly number[]
}

interface Row {
  slug: string
  title: string
  gospel: Gospel
  start: { chapter: number; verse: number }
  end: { chapter: number; verse: number }
  verse_count: number
  order: number
  parallels: string[]
}

/** The narratives, by slug and by verse. */
export class NarrativeStore {
  private readonly bySlug = new Map<string, NarrativeRecord>()
  private readonly byVerse = new Map<number, NarrativeRecord>()
  readonly all: readonly NarrativeRecord[]

  /**
   * @param rows the table's rows in canonical order.
   * @param chapterCounts the verse count of each chapter of a Gospel, to walk ranges that cross chapters.
   */
  constructor(rows: readonly Row[], chapterCounts: (gospel: Gospel) => readonly number[]) {
    const ordered = [...rows].sort((a, b) => GOSPELS.indexOf(a.gospel) - GOSPELS.indexOf(b.gospel) || a.order - b.order)
    this.all = ordered.map((row, index) => {
      const book = findBook(row.gospel)
      if (book === undefined) throw new Error(`narrative ${row.slug}: unknown gospel ${row.gospel}`)
      const verseIds: number[] = []
      const counts = chapterCounts(row.gospel)
      for (let c = row.start.chapter; c <= row.end.chapter; c++) {
        const first = c === row.start.chapter ? row.start.verse : 1
        const last = c === row.end.chapter ? row.end.verse : (counts[c - 1] ?? 0)
        for (let v = first; v <= last; v++) verseIds.push(verseId(book.position, c, v))
      }
      const range =
        row.start.chapter === row.end.chapter
          ? `${row.start.chapter}:${row.start.verse}${row.end.verse === row.start.verse ? '' : `-${row.end.verse}`}`
          : `${row.start.chapter}:${row.start.verse}-${row.end.chapter}:${row.end.verse}`
      const record: NarrativeRecord = {
        slug: row.slug,
        title: row.title,
        gospel: row.gospel,
        start: row.start,
        end: row.end,
        verseCount: row.verse_count,
        order: row.order,
        parallels: row.parallels,
        index,
        reference: `${book.name} ${range}`,
        verseIds,
      }
      this.bySlug.set(record.slug, record)
      for (const id of verseIds) this.byVerse.set(id, record)
      return record
    })
  }

  /** The narrative with this slug. */
  get(slug: string): NarrativeRecord | undefined {
    return this.bySlug.get(slug)
  }

  /** The narrative a verse belongs to (Gospel verses only). */
  ofVerse(id: number): NarrativeRecord | undefined {
    return this.byVerse.get(id)
  }
}

/** Reads the committed table. */
export function readNarratives(path: string, chapterCounts: (gospel: Gospel) => readonly number[]): NarrativeStore {
  return new NarrativeStore(JSON.parse(readFileSync(path, 'utf8')) as Row[], chapterCounts)
}
