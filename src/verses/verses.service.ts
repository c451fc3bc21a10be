/**
 * The rules of verse lookup: resolving slugs and aliases, choosing styles, and shaping the
 * verse resource exactly as the contract describes it.
 */
import type { components } from '../../generated/api-types.js'
import type { Config } from '../config.js'
import type { ContentStore, StyleContent } from '../content/content.store.js'
import { AppError } from '../errors.js'
import { bookAt, findBook, type BookInfo } from './books.js'
import type { BookIntroduction } from '../content/book-intros.js'
import type { NarrativeRecord, NarrativeStore } from '../narratives/narrative.store.js'
import type { SectionRecord, SectionStore } from '../sections/section.store.js'
import { parseVerseSlug, verseReference, verseSlug } from './slug.js'
import type { VerseRecord, VerseStore } from './verse.store.js'

export type VerseResource = components['schemas']['Verse']
export type BookList = components['schemas']['BookList']
export type BookDetail = components['schemas']['BookDetail']
export type StyleSelector = components['schemas']['StyleSelector']
type BookSection = components['schemas']['BookSection']

/** What the service needs. */
export interface VersesServiceDeps {
  readonly verses: VerseStore
  readonly content: ContentStore
  readonly config: Pick<Config, 'publicBaseUrl' | 'attributionSource' | 'attributionLicense'>
  readonly intros: ReadonlyMap<string, BookIntroduction>
  /** For the `narrative` extension field of Gospel verses. */
  readonly narratives: NarrativeStore
  /** For the `section` of every verse and the `sections` of a book. */
  readonly sections: SectionStore
}

/**
 * Slugs remembered with the verse they name: a hit is one Map lookup instead of a regular
 * expression, a book alias lookup and two allocations (the hot path asks on every request).
 * Only slugs that name a verse are kept, and at most this many (the canonical slugs of every
 * verse in the three spellings clients use most fit; garbage cannot grow it past the bound).
 */
const SLUG_CACHE_CAPACITY = 50_000

/** Verse lookup and the book list. */
export class VersesService {
  readonly #bySlug = new Map<string, VerseRecord>()

  constructor(private readonly deps: VersesServiceDeps) {}

  /** The verse a slug names, accepting aliases and any case; undefined when it names none. */
  find(slug: string): VerseRecord | undefined {
    const known = this.#bySlug.get(slug)
    if (known !== undefined) return known
    const address = parseVerseSlug(slug)
    const verse = address && this.deps.verses.get(address.book.position, address.chapter, address.verse)
    if (verse !== undefined) {
      // The store never changes, so an entry never goes stale; when full, start over.
      if (this.#bySlug.size >= SLUG_CACHE_CAPACITY) this.#bySlug.clear()
      this.#bySlug.set(slug, verse)
    }
    return verse
  }

  /** The verse with this id (one `find` returned). */
  byId(id: number): VerseRecord {
    const verse = this.deps.verses.byVerseId(id)
    if (verse === undefined) throw new Error(`no verse ${id}`)
    return verse
  }

  /** The error for a slug that names no verse. */
  notFound(slug: string): AppError {
    return new AppError('verse_not_found', `No verse matches "${slug.slice(0, 100)}". Use {book}-{chapter}-{verse}, e.g. john-3-16.`)
  }

  /** The verse resource with the styles the selector asks for. */
  toResource(verse: VerseRecord, style: StyleSelector): VerseResource {
    const book = bookAt(verse.book)
    if (book === undefined) throw new Error(`verse ${verse.id} has no book`)
    const faithful = this.deps.content.get(verse.id, 'faithful')
    const casual = this.deps.content.get(verse.id, 'casual')
    return {
      reference: verseReference(book, verse.chapter, verse.verse),
      slug: verseSlug(book, verse.chapter, verse.verse),
      kjv_text: verse.text,
      ...(style === 'casual' ? {} : { faithful: faithfulView(faithful) }),
      ...(style === 'faithful' ? {} : { casual: casualView(casual) }),
      available_styles: { faithful: hasText(faithful), casual: hasText(casual) },
      attribution: this.attribution(verse),
      ...narrativeOf(this.deps.narratives.ofVerse(verse.id)),
      section: this.sectionOf(verse),
    }
  }

  // The store checked at load that it covers every verse, so a miss is a bug, not a 404.
  private sectionOf(verse: VerseRecord): VerseResource['section'] {
    const section = this.deps.sections.ofVerse(verse.id)
    if (section === undefined) throw new Error(`verse ${verse.id} has no section`)
    return { slug: section.slug, title: section.title }
  }

  /** Who to credit for a verse and where its public page is (the resource's `attribution`). */
  attribution(verse: VerseRecord): VerseResource['attribution'] {
    const book = bookAt(verse.book)
    if (book === undefined) throw new Error(`verse ${verse.id} has no book`)
    const { publicBaseUrl, attributionSource, attributionLicense } = this.deps.config
    return { source: attributionSource, url: `${publicBaseUrl}/${book.slug}/${verse.chapter}/${verse.verse}`, license: attributionLicense }
  }

  /** The 66 books in canonical order with their versification (the outlines are on each book's own resource). */
  listBooks(): BookList {
    return { data: this.deps.verses.books().map((book) => this.bookView(book)) }
  }

  /**
   * One book, by slug or alias, with its introduction and its section outline.
   * @throws AppError book_not_found
   */
  getBook(token: string): BookDetail {
    const book = token.length <= 64 ? findBook(token) : undefined
    const introduction = book === undefined ? undefined : this.deps.intros.get(book.slug)
    if (book === undefined || introduction === undefined) {
      throw new AppError('book_not_found', `No book matches "${token.slice(0, 100)}". Use a slug such as john or 1-corinthians.`)
    }
    return { ...this.bookView(book), introduction, sections: this.deps.sections.ofBook(book).map(bookSectionView) }
  }

  private bookView(book: BookInfo): BookList['data'][number] {
    const counts = this.deps.verses.chapterVerseCounts(book)
    return {
      name: book.name,
      slug: book.slug,
      testament: book.testament,
      position: book.position,
      chapter_count: counts.length,
      verse_count: counts.reduce((sum, n) => sum + n, 0),
      verse_counts: [...counts],
    }
  }
}

function narrativeOf(narrative: NarrativeRecord | undefined): Pick<VerseResource, 'narrative'> {
  return narrative === undefined ? {} : { narrative: { slug: narrative.slug, title: narrative.title } }
}

function bookSectionView(section: SectionRecord): BookSection {
  return {
    slug: section.slug,
    title: section.title,
    reference: section.reference,
    passage: section.passage,
    start: { chapter: section.start.chapter, verse: section.start.verse },
    end: { chapter: section.end.chapter, verse: section.end.verse },
    verse_count: section.verseCount,
  }
}

function hasText(content: StyleContent | undefined): boolean {
  return content?.simplifiedText !== undefined && content.simplifiedText !== null
}

function provenanceOf(content: StyleContent | undefined): NonNullable<VerseResource['faithful']>['provenance'] {
  return content === undefined ? null : { method: content.method, model: content.model, prompt_version: content.promptVersion }
}

function faithfulView(content: StyleContent | undefined): NonNullable<VerseResource['faithful']> {
  return {
    simplified_text: content?.simplifiedText ?? null,
    bottom_line: content?.bottomLine ?? null,
    historical_context: content?.historicalContext ?? null,
    practical_reflection: content?.practicalReflection ?? null,
    provenance: provenanceOf(content),
  }
}

function casualView(content: StyleContent | undefined): NonNullable<VerseResource['casual']> {
  return {
    simplified_text: content?.simplifiedText ?? null,
    bottom_line: content?.bottomLine ?? null,
    available: hasText(content),
    provenance: provenanceOf(content),
  }
}
