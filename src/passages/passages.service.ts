/**
 * The rules of passages: reading a reference (canonical slug or free text), keeping it within
 * the text and the 200-verse limit, and shaping the passage resource.
 */
import type { components } from '../../generated/api-types.js'
import { AppError } from '../errors.js'
import { bookAt, type BookInfo } from '../verses/books.js'
import { verseId, type VerseStore } from '../verses/verse.store.js'
import type { StyleSelector, VersesService } from '../verses/verses.service.js'
import { addressOf, mergeRanges, parsePassageSlug, passageOsis, passageReference, rangeReference, rangeSlug } from './passage-slug.js'
import type { IdRange, ReferenceParser } from './reference-parser.js'

export type Passage = components['schemas']['Passage']
export type PassageRange = components['schemas']['PassageRange']
export type ResolvedReference = components['schemas']['ResolvedReference']

/** The most verses one passage may hold. */
export const MAX_PASSAGE_VERSES = 200

/** A passage that exists, in canonical form, before it is shaped for a style. */
export interface PassageSelection {
  readonly reference: string
  readonly slug: string
  readonly osis: string
  readonly ranges: readonly PassageRange[]
  /** Every verse of the passage in canonical order. */
  readonly verseIds: readonly number[]
}

/** What the service needs. */
export interface PassagesServiceDeps {
  readonly store: VerseStore
  readonly verses: VersesService
  readonly parser: ReferenceParser
  readonly publicBaseUrl: string
}

/** Passages and reference resolution. */
export class PassagesService {
  constructor(private readonly deps: PassagesServiceDeps) {}

  /**
   * Every reference found in free text, in order of appearance, each in canonical form.
   * @example passages.resolve('Jn 3:16')[0]?.slug // 'john-3-16'
   */
  resolve(text: string): ResolvedReference[] {
    const resolved: ResolvedReference[] = []
    for (const found of this.deps.parser.find(text)) {
      const ranges = this.canonical(found.ranges.filter((r) => this.exists(r)))
      if (ranges.length === 0) continue
      const summary = this.summary(ranges)
      resolved.push({
        text: found.text,
        reference: summary.reference,
        slug: summary.slug,
        osis: summary.osis,
        verse_count: summary.ranges.reduce((sum, r) => sum + r.verse_count, 0),
        ranges: [...summary.ranges],
        passage_url: `${this.deps.publicBaseUrl}/api/v1/passage/${summary.slug}`,
      })
    }
    return resolved
  }

  /**
   * The passage a canonical slug or a free-text reference names. Several references in one
   * text make one passage.
   * @throws AppError passage_not_found when it names no verse, passage_too_long over 200 verses.
   */
  select(ref: string): PassageSelection {
    const ranges = this.read(ref)
    if (ranges === undefined) {
      throw new AppError(
        'passage_not_found',
        `No passage of the KJV matches "${ref.slice(0, 100)}". Use a slug such as john-3-16-18, psalms-23 or genesis-1-1-2-3, or a reference such as "1 Cor 13:4-7".`,
      )
    }
    const summary = this.summary(ranges)
    const count = summary.ranges.reduce((sum, r) => sum + r.verse_count, 0)
    if (count > MAX_PASSAGE_VERSES) {
      throw new AppError(
        'passage_too_long',
        `${summary.reference} holds ${count} verses; a passage may hold at most ${MAX_PASSAGE_VERSES}. Ask for it in parts.`,
      )
    }
    const verseIds = ranges.flatMap((r) => this.deps.store.between(r.start, r.end).map((v) => v.id))
    return { ...summary, verseIds }
  }

  /** The passage resource with the styles the selector asks for. */
  toResource(selection: PassageSelection, style: StyleSelector): Passage {
    const { verses } = this.deps
    return {
      reference: selection.reference,
      slug: selection.slug,
      osis: selection.osis,
      verse_count: selection.verseIds.length,
      ranges: [...selection.ranges],
      verses: selection.verseIds.map((id) => verses.toResource(verses.byId(id), style)),
    }
  }

  /** Canonical ranges of a slug (strict: every verse must exist) or else of free text. */
  private read(ref: string): IdRange[] | undefined {
    const fromSlug = parsePassageSlug(ref, (book, chapter) => this.lastVerse(book, chapter))
    if (fromSlug !== undefined) return fromSlug.every((r) => this.exists(r)) ? this.canonical(fromSlug) : undefined
    const ranges = this.deps.parser.find(ref).flatMap((found) => found.ranges.filter((r) => this.exists(r)))
    return ranges.length === 0 ? undefined : this.canonical(ranges)
  }

  /** Both ends are verses of the text and the range runs forwards. */
  private exists(range: IdRange): boolean {
    return this.deps.store.countBetween(range.start, range.end) > 0
  }

  /** Ranges split at book boundaries (a slug names one book), sorted and merged. */
  private canonical(ranges: readonly IdRange[]): IdRange[] {
    const { store } = this.deps
    const split: IdRange[] = []
    for (const range of ranges) {
      let start = range.start
      for (let book = addressOf(start).book.position; book < addressOf(range.end).book.position; book++) {
        split.push({ start, end: this.lastOfBook(book) })
        start = verseId(book + 1, 1, 1)
      }
      split.push({ start, end: range.end })
    }
    // Touching ranges merge only within a book: a slug names one book.
    const nextInBook = (id: number): number | undefined => {
      const next = store.next(id)
      return next !== undefined && addressOf(next).book === addressOf(id).book ? next : undefined
    }
    return mergeRanges(split, nextInBook)
  }

  private summary(ranges: readonly IdRange[]): Omit<PassageSelection, 'verseIds'> {
    const whole = (r: IdRange): boolean => this.isWholeChapter(r)
    return {
      reference: passageReference(ranges, whole),
      slug: ranges.map((r) => rangeSlug(r, whole)).join(','),
      osis: passageOsis(ranges),
      ranges: ranges.map((r) => ({
        reference: rangeReference(r, whole),
        slug: rangeSlug(r, whole),
        start: rangeSlug({ start: r.start, end: r.start }, whole),
        end: rangeSlug({ start: r.end, end: r.end }, whole),
        verse_count: this.deps.store.countBetween(r.start, r.end),
      })),
    }
  }

  private isWholeChapter(range: IdRange): boolean {
    const from = addressOf(range.start)
    const to = addressOf(range.end)
    return from.book === to.book && from.chapter === to.chapter && from.verse === 1 && to.verse === this.lastVerse(from.book, from.chapter)
  }

  private lastVerse(book: BookInfo, chapter: number): number {
    return this.deps.store.chapterVerseCounts(book)[chapter - 1] ?? 0
  }

  private lastOfBook(position: number): number {
    const book = bookAt(position)
    const counts = book === undefined ? [] : this.deps.store.chapterVerseCounts(book)
    return verseId(position, counts.length, counts[counts.length - 1] ?? 0)
  }
}
