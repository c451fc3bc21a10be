/**
 * The rules of the public pages: which path names which verse, chapter, book or narrative,
 * the canonical form of each path (other names and casings redirect to it), the view each
 * page is rendered from, and a bounded cache of rendered pages with their entity tags.
 */
import { RepresentationCache, type Representation } from '../http/etag.js'
import type { NarrativesService } from '../narratives/narratives.service.js'
import type { SearchService } from '../search/search.service.js'
import { bookAt, findBook, type BookInfo } from '../verses/books.js'
import type { VerseStore } from '../verses/verse.store.js'
import type { VersesService } from '../verses/verses.service.js'
import { renderPage, type PageMeta, type SiteSettings } from './layout.js'
import type { SafeHtml } from './html.js'
import { bookPage } from './pages/book.page.js'
import { chapterPage, CHAPTER_STYLES, type ChapterStyle } from './pages/chapter.page.js'
import { homePage } from './pages/home.page.js'
import { GOSPELS, narrativePage, narrativesPage, type Gospel } from './pages/narratives.pages.js'
import { notFoundPage, problemPage } from './pages/problem.page.js'
import { searchPage } from './pages/search.page.js'
import type { TierLimits } from './tiers-table.js'
import { versePage, type PageLink } from './pages/verse.page.js'

/** What a page request comes to. */
export type PageOutcome =
  { readonly kind: 'page'; readonly page: Representation } | { readonly kind: 'redirect'; readonly location: string } | { readonly kind: 'missing' }

/** What the pages are built from. */
export interface WebServiceDeps {
  readonly verses: VersesService
  readonly store: VerseStore
  readonly narratives: NarrativesService
  readonly search: SearchService
  readonly site: SiteSettings
  /** The tiers as configured, for the home page. */
  readonly tiers: TierLimits
}

/**
 * Pages kept rendered: enough for the pages in use at any time, not every verse (31,102
 * rendered verse pages would hold about 250 MB); a miss renders in well under a millisecond.
 */
const PAGE_CACHE_CAPACITY = 2_000
/** Results shown on one search page. */
const SEARCH_PAGE_SIZE = 20
/** The verse the home page shows. */
const EXAMPLE_VERSE = 'john-3-16'

const MISSING: PageOutcome = { kind: 'missing' }

/** A positive whole number written canonically, or undefined. */
function positiveNumber(token: string): number | undefined {
  return /^\d{1,4}$/.test(token) && Number(token) > 0 ? Number(token) : undefined
}

/** Builds and caches the public pages. */
export class WebService {
  readonly #cache = new RepresentationCache(PAGE_CACHE_CAPACITY)

  constructor(private readonly deps: WebServiceDeps) {}

  /** The whole document of a page. */
  render(page: { meta: PageMeta; body: SafeHtml }): string {
    return renderPage(this.deps.site, page.meta, page.body)
  }

  #cached(key: string, build: () => { meta: PageMeta; body: SafeHtml }): PageOutcome {
    return { kind: 'page', page: this.#cache.get(key, () => this.render(build())) }
  }

  /** The book a path segment names, with its canonical segment. */
  #book(token: string): BookInfo | undefined {
    return token.length <= 64 ? findBook(token) : undefined
  }

  /** `/{book}/{chapter}/{verse}`. */
  verse(bookToken: string, chapterToken: string, verseToken: string): PageOutcome {
    const book = this.#book(bookToken)
    const chapter = positiveNumber(chapterToken)
    const number = positiveNumber(verseToken)
    if (book === undefined || chapter === undefined || number === undefined) return MISSING
    const record = this.deps.store.get(book.position, chapter, number)
    if (record === undefined) return MISSING
    const path = `/${book.slug}/${chapter}/${number}`
    if (`/${bookToken}/${chapterToken}/${verseToken}` !== path) return { kind: 'redirect', location: path }
    return this.#cached(path, () => {
      const verse = this.deps.verses.toResource(record, 'all')
      const narrative = verse.narrative === undefined ? undefined : this.deps.narratives.find(verse.narrative.slug)
      const parallels = (narrative?.parallels ?? []).flatMap((slug) => {
        const other = this.deps.narratives.find(slug)
        return other === undefined ? [] : [{ path: `/narratives/${other.slug}`, label: other.reference }]
      })
      return versePage({
        verse,
        path,
        bookName: book.name,
        bookPath: `/${book.slug}`,
        chapterPath: `/${book.slug}/${chapter}`,
        chapterLabel: `${book.name} ${chapter}`,
        parallels,
        previous: this.#verseLink(this.#previousVerse(book, chapter, number)),
        next: this.#verseLink(this.#nextVerse(book, chapter, number)),
        baseUrl: this.deps.site.baseUrl,
      })
    })
  }

  #verseLink(at: { book: BookInfo; chapter: number; verse: number } | undefined): PageLink | undefined {
    return at === undefined ? undefined : { path: `/${at.book.slug}/${at.chapter}/${at.verse}`, label: `${at.book.name} ${at.chapter}:${at.verse}` }
  }

  #previousVerse(book: BookInfo, chapter: number, verse: number): { book: BookInfo; chapter: number; verse: number } | undefined {
    if (verse > 1) return { book, chapter, verse: verse - 1 }
    if (chapter > 1) return { book, chapter: chapter - 1, verse: this.#counts(book)[chapter - 2] ?? 1 }
    const before = bookAt(book.position - 1)
    if (before === undefined) return undefined
    const counts = this.#counts(before)
    return { book: before, chapter: counts.length, verse: counts.at(-1) ?? 1 }
  }

  #nextVerse(book: BookInfo, chapter: number, verse: number): { book: BookInfo; chapter: number; verse: number } | undefined {
    const counts = this.#counts(book)
    if (verse < (counts[chapter - 1] ?? 0)) return { book, chapter, verse: verse + 1 }
    if (chapter < counts.length) return { book, chapter: chapter + 1, verse: 1 }
    const after = bookAt(book.position + 1)
    return after === undefined ? undefined : { book: after, chapter: 1, verse: 1 }
  }

  #counts(book: BookInfo): readonly number[] {
    return this.deps.store.chapterVerseCounts(book)
  }

  /** `/{book}/{chapter}?style=`: an unknown style reads as the KJV. */
  chapter(bookToken: string, chapterToken: string, styleToken: string | undefined): PageOutcome {
    const book = this.#book(bookToken)
    const chapter = positiveNumber(chapterToken)
    if (book === undefined || chapter === undefined) return MISSING
    const counts = this.#counts(book)
    if (chapter > counts.length) return MISSING
    const path = `/${book.slug}/${chapter}`
    const style: ChapterStyle = (CHAPTER_STYLES as readonly string[]).includes(styleToken ?? '') ? (styleToken as ChapterStyle) : 'kjv'
    if (`/${bookToken}/${chapterToken}` !== path) return { kind: 'redirect', location: style === 'kjv' ? path : `${path}?style=${style}` }
    return this.#cached(`${path}?${style}`, () => {
      const sections = new Map(
        this.deps.verses
          .getBook(book.slug)
          .sections.filter((s) => s.start.chapter === chapter)
          .map((s) => [s.start.verse, { slug: s.slug, title: s.title }]),
      )
      const verses = Array.from({ length: counts[chapter - 1] ?? 0 }, (_, i) => {
        const record = this.deps.store.get(book.position, chapter, i + 1)
        if (record === undefined) throw new Error(`${path}:${i + 1} is missing from the store`)
        const resource = this.deps.verses.toResource(record, style === 'kjv' ? 'faithful' : style)
        const text =
          style === 'kjv' ? resource.kjv_text : style === 'faithful' ? (resource.faithful?.simplified_text ?? null) : (resource.casual?.simplified_text ?? null)
        const section = sections.get(i + 1)
        return { number: i + 1, path: `${path}/${i + 1}`, text, ...(section === undefined ? {} : { section }) }
      })
      const chapterLink = (b: BookInfo, c: number): PageLink => ({ path: `/${b.slug}/${c}`, label: `${b.name} ${c}` })
      const before = chapter > 1 ? chapterLink(book, chapter - 1) : bookAt(book.position - 1)
      const after = chapter < counts.length ? chapterLink(book, chapter + 1) : bookAt(book.position + 1)
      return chapterPage({
        bookName: book.name,
        bookPath: `/${book.slug}`,
        chapter,
        path,
        style,
        verses,
        previous: before === undefined || 'path' in before ? before : chapterLink(before, this.#counts(before).length),
        next: after === undefined || 'path' in after ? after : chapterLink(after, 1),
        baseUrl: this.deps.site.baseUrl,
      })
    })
  }

  /** `/{book}`. */
  book(bookToken: string): PageOutcome {
    const book = this.#book(bookToken)
    if (book === undefined) return MISSING
    const path = `/${book.slug}`
    if (`/${bookToken}` !== path) return { kind: 'redirect', location: path }
    return this.#cached(path, () => bookPage(this.deps.verses.getBook(book.slug), path, this.deps.site.baseUrl))
  }

  /** `/narratives?gospel=&q=`: an unknown Gospel lists all four. */
  narratives(gospelToken: string | undefined, q: string | undefined): PageOutcome {
    const gospel = (GOSPELS as readonly string[]).includes(gospelToken ?? '') ? (gospelToken as Gospel) : undefined
    const words = (q ?? '').trim().slice(0, 200)
    return this.#cached(`/narratives?${gospel ?? ''}&${words}`, () =>
      narrativesPage(
        this.deps.narratives.list({ limit: 1_000, ...(gospel === undefined ? {} : { gospel }), ...(words === '' ? {} : { q: words }) }),
        { ...(gospel === undefined ? {} : { gospel }), ...(words === '' ? {} : { q: words }) },
        this.deps.site.baseUrl,
      ),
    )
  }

  /** `/narratives/{slug}`. */
  narrative(slug: string): PageOutcome {
    const record = slug.length <= 200 ? this.deps.narratives.find(slug) : undefined
    if (record === undefined) return MISSING
    if (slug !== record.slug) return { kind: 'redirect', location: `/narratives/${record.slug}` }
    return this.#cached(`/narratives/${record.slug}`, () => {
      const parallels = record.parallels.flatMap((other) => {
        const found = this.deps.narratives.find(other)
        return found === undefined ? [] : [this.deps.narratives.toResource(found, 'faithful')]
      })
      return narrativePage(this.deps.narratives.toResource(record, 'all'), parallels, this.deps.site.baseUrl)
    })
  }

  /** `/search?q=&cursor=`: not cached (queries are many and mostly unique). A cursor this service did not issue starts from the first page. */
  async search(q: string | undefined, cursor: string | undefined): Promise<string> {
    const query = (q ?? '').trim().slice(0, 1000)
    if (query === '') return this.render(searchPage('', undefined, undefined))
    const ask = (from: string | undefined): ReturnType<SearchService['search']> =>
      this.deps.search.search({ q: query, style: 'all', limit: SEARCH_PAGE_SIZE, ...(from === undefined ? {} : { cursor: from }) })
    let results
    let from = cursor
    try {
      results = await ask(from)
    } catch (error) {
      if (from === undefined) throw error
      from = undefined
      results = await ask(undefined)
    }
    return this.render(searchPage(query, results, from))
  }

  /** `/`. */
  home(): PageOutcome {
    return this.#cached('/', () => {
      const example = this.deps.verses.find(EXAMPLE_VERSE)
      if (example === undefined) throw new Error(`${EXAMPLE_VERSE} is missing from the store`)
      return homePage(this.deps.verses.toResource(example, 'faithful'), this.deps.tiers, this.deps.site.name, this.deps.site.baseUrl)
    })
  }

  /** The 404 page for a path that names nothing. */
  notFound(path: string): string {
    return this.render(notFoundPage(path))
  }

  /** A problem as a page. */
  problem(problem: Parameters<typeof problemPage>[0], path: string): string {
    return this.render(problemPage(problem, path))
  }
}
