/**
 * The sitemap index at /sitemap.xml and its sitemaps under /sitemaps/: every verse, chapter,
 * book and narrative page and the other public pages, each with `lastmod`. Built on first
 * request and kept (the verse sitemap is about 3 MB).
 */
import { buildSitemap, buildSitemapIndex, SITEMAP_MAX_URLS, type SitemapEntry } from '../discovery/sitemap.js'
import { etagOf, type Representation } from '../http/etag.js'
import type { NarrativesService } from '../narratives/narratives.service.js'
import type { VerseStore } from '../verses/verse.store.js'

/** What the sitemaps list. */
export interface SitemapDeps {
  readonly baseUrl: string
  readonly store: VerseStore
  readonly narratives: NarrativesService
  /**
   * The `lastmod` of every page: the day this server loaded its content (pages change only
   * when the content does, which takes a reseed or an import and a restart).
   */
  readonly lastModified: Date
}

/** The index and its parts, by file name. */
export class Sitemaps {
  readonly #parts = new Map<string, () => readonly string[]>()
  readonly #built = new Map<string, Representation>()
  readonly #lastmod: string

  constructor(private readonly deps: SitemapDeps) {
    this.#lastmod = deps.lastModified.toISOString().slice(0, 10)
    const books = deps.store.books()
    this.#parts.set('pages.xml', () => ['/', '/search', '/narratives', '/docs', '/terms', '/llms.txt', '/llms-full.txt'])
    this.#parts.set('books.xml', () => books.map((book) => `/${book.slug}`))
    this.#parts.set('chapters.xml', () => books.flatMap((book) => deps.store.chapterVerseCounts(book).map((_, i) => `/${book.slug}/${i + 1}`)))
    const verses = books.flatMap((book) => deps.store.chapterVerseCounts(book).map((count, i) => ({ book, chapter: i + 1, count })))
    const verseCount = verses.reduce((sum, c) => sum + c.count, 0)
    const verseParts = Math.ceil(verseCount / SITEMAP_MAX_URLS)
    for (let part = 0; part < verseParts; part++) {
      this.#parts.set(`verses-${part + 1}.xml`, () =>
        verses
          .flatMap(({ book, chapter, count }) => Array.from({ length: count }, (_, v) => `/${book.slug}/${chapter}/${v + 1}`))
          .slice(part * SITEMAP_MAX_URLS, (part + 1) * SITEMAP_MAX_URLS),
      )
    }
    this.#parts.set('narratives.xml', () => deps.narratives.list({ limit: 1_000 }).data.map((n) => `/narratives/${n.slug}`))
  }

  /** `/sitemap.xml`: the index. */
  index(): Representation {
    return this.#build('', () =>
      buildSitemapIndex([...this.#parts.keys()].map((name) => ({ loc: `${this.deps.baseUrl}/sitemaps/${name}`, lastmod: this.#lastmod }))),
    )
  }

  /** `/sitemaps/{name}`, or undefined for a name the index does not list. */
  part(name: string): Representation | undefined {
    const paths = this.#parts.get(name)
    if (paths === undefined) return undefined
    return this.#build(name, () => buildSitemap(paths().map((path): SitemapEntry => ({ loc: `${this.deps.baseUrl}${path}`, lastmod: this.#lastmod }))))
  }

  #build(key: string, make: () => string): Representation {
    let built = this.#built.get(key)
    if (built === undefined) {
      const body = make()
      built = { body, etag: etagOf(body) }
      this.#built.set(key, built)
    }
    return built
  }
}
