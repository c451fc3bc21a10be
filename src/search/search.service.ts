/**
 * The rules of search: checking a request, running it on the index (loaded from its file at
 * start, or built once, in the background or on first use, then saved), and shaping the hits
 * as the contract describes them.
 */
import { performance } from 'node:perf_hooks'
import type { FastifyBaseLogger } from 'fastify'
import type { components } from '../../generated/api-types.js'
import type { ContentStore } from '../content/content.store.js'
import { AppError } from '../errors.js'
import { bookAt, findBook, type BookInfo } from '../verses/books.js'
import { verseReference, verseSlug } from '../verses/slug.js'
import type { VerseRecord, VerseStore } from '../verses/verse.store.js'
import type { StyleSelector, VersesService } from '../verses/verses.service.js'
import { CursorError, decodeCursor, encodeCursor, type CursorScope } from './cursor.js'
import { findMatches, pageOf, type Matches, type RankKey } from './matcher.js'
import { parseQuery, type Clause } from './query.js'
import { buildSearchIndex, type IndexedVerse, type SearchField, type SearchIndex } from './search.index.js'
import { readSearchIndexFile, SearchIndexFileError, writeSearchIndexFile } from './search.index-file.js'
import { highlightSpans, snippet, type Highlighter } from './snippets.js'
import { tokenize } from './tokenizer.js'

export type SearchResults = components['schemas']['SearchResults']
export type SearchHit = components['schemas']['SearchHit']

/** One search, as the HTTP route and the MCP tool ask for it. */
export interface SearchRequest {
  readonly q: string
  readonly style: StyleSelector
  readonly book?: string
  readonly limit: number
  readonly cursor?: string
}

/** What the service needs. */
export interface SearchServiceDeps {
  readonly verses: VerseStore
  readonly content: ContentStore
  /** Shapes verses; hits take their attribution from it, so both always agree. */
  readonly resources: Pick<VersesService, 'attribution'>
  readonly logger?: Pick<FastifyBaseLogger, 'info' | 'warn'>
  /**
   * Where the index is saved once built and read back at the next start (the server passes
   * DATA_DIR/search). Without it, or without `indexKey`, the index lives in memory only.
   */
  readonly indexDir?: string
  /**
   * Identifies the texts the index is built from (the KJV and the content): a saved index
   * with another key is not used but built again.
   */
  readonly indexKey?: string
}

/** The texts each style selector searches besides the KJV, in snippet order. */
const FIELDS_OF: Readonly<Record<StyleSelector, readonly SearchField[]>> = {
  faithful: ['kjv', 'faithful'],
  casual: ['kjv', 'casual'],
  all: ['kjv', 'faithful', 'casual'],
}
const MAX_QUERY_LENGTH = 200
const MAX_LIMIT = 50
const MAX_BOOK_LENGTH = 64

/** The index at one moment, for the metrics. */
export interface SearchIndexStats {
  /** `cold` until the saved index is loaded or a build starts (the server starts one once it listens). */
  readonly state: 'cold' | 'building' | 'ready'
  /** Verses indexed; 0 until the index is ready. */
  readonly documents: number
}

/** A checked request. */
interface Plan {
  readonly clauses: readonly Clause[]
  readonly book: BookInfo | undefined
  readonly scope: CursorScope
  readonly after: RankKey | undefined
}

/** Ranked full-text search over the KJV and the simplified texts. */
export class SearchService {
  private building: Promise<SearchIndex> | undefined
  /** The index once built, so that stats() can read it without awaiting. */
  private built: SearchIndex | undefined
  /** The save of a freshly built index, while it runs. */
  private saving: Promise<void> | undefined

  constructor(private readonly deps: SearchServiceDeps) {}

  /**
   * Reads the saved index, if there is one for the current texts, so that the index is ready
   * before the server listens. Never fails: a missing, stale or damaged file is reported in
   * the log, and the index is then built as without one (`warm`) and saved again.
   * @returns whether the index was loaded.
   */
  async load(): Promise<boolean> {
    const { indexDir, indexKey, logger } = this.deps
    if (indexDir === undefined || indexKey === undefined || this.building !== undefined) return false
    const started = performance.now()
    try {
      const loaded = await readSearchIndexFile(indexDir, indexKey)
      if (loaded === undefined) {
        logger?.info({ dir: indexDir }, 'no saved search index; it is built once the server listens')
        return false
      }
      // A build started meanwhile wins (it is already on its way).
      if (this.building !== undefined) return false
      this.built = loaded.index
      this.building = Promise.resolve(loaded.index)
      // ms runs from the start of the read to the end, start-up work in between included; decodeMs is the index's own.
      logger?.info(
        { verses: loaded.index.size, bytes: loaded.bytes, ms: Math.round(performance.now() - started), decodeMs: Math.round(loaded.decodeMs) },
        'search index loaded',
      )
      return true
    } catch (error) {
      const reason = error instanceof SearchIndexFileError ? error.message : String(error)
      logger?.warn({ dir: indexDir, reason }, 'saved search index not used; it is built again once the server listens')
      return false
    }
  }

  /** Resolves once a save of the index in progress, if any, has ended (the server awaits it before exiting). */
  async flush(): Promise<void> {
    await this.saving
  }

  /** Whether the index is built, and how many verses it holds. */
  stats(): SearchIndexStats {
    if (this.built !== undefined) return { state: 'ready', documents: this.built.size }
    return { state: this.building === undefined ? 'cold' : 'building', documents: 0 }
  }

  /**
   * Builds the index unless it is built or building (chunked, so the event loop keeps
   * answering); resolves when it is ready. The server calls it once it listens.
   */
  warm(): Promise<SearchIndex> {
    this.building ??= this.build().catch((error: unknown) => {
      // The next search tries again rather than failing forever.
      this.building = undefined
      throw error
    })
    return this.building
  }

  /**
   * One page of the verses that match, best first (BM25).
   * @throws AppError invalid_parameter for a query with no word, an unknown book, a bad limit or a foreign cursor.
   * @example await search.search({ q: '"God so loved"', style: 'faithful', limit: 10 })
   */
  async search(request: SearchRequest): Promise<SearchResults> {
    const plan = this.plan(request)
    const index = await this.warm()
    const fields = FIELDS_OF[request.style]
    const matches = findMatches(
      index,
      plan.clauses,
      fields.map((name) => index.field(name)),
      index.range(plan.book?.position),
    )
    const page = pageOf(matches, plan.after, request.limit)
    const highlighter = highlighterOf(index, plan.clauses)
    const last = page.hits[page.hits.length - 1]
    return {
      query: request.q,
      total: matches.docs.length,
      data: page.hits.map((i) => this.hit(index, matches, i, fields, highlighter)),
      next_cursor: page.more && last !== undefined ? encodeCursor(plan.scope, keyAt(matches, last)) : null,
    }
  }

  /** Checks a request before any work (the index may still be building). */
  private plan(request: SearchRequest): Plan {
    const { q, style, limit } = request
    if (q.length < 1 || q.length > MAX_QUERY_LENGTH) throw invalid('q', `must be 1 to ${MAX_QUERY_LENGTH} characters`)
    const clauses = parseQuery(q)
    if (clauses.length === 0) throw invalid('q', 'holds no word to search for (letters or digits)')
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalid('limit', `must be an integer from 1 to ${MAX_LIMIT}`)
    if (!Object.hasOwn(FIELDS_OF, style)) throw invalid('style', 'must be faithful, casual or all')
    const book = request.book === undefined ? undefined : request.book.length <= MAX_BOOK_LENGTH ? findBook(request.book) : undefined
    if (request.book !== undefined && book === undefined) throw invalid('book', 'names no book of the KJV (use a slug or alias such as john or 1-cor)')
    const scope: CursorScope = { q, style, book: book?.slug }
    let after: RankKey | undefined
    if (request.cursor !== undefined) {
      try {
        after = decodeCursor(request.cursor, scope)
      } catch (error) {
        if (error instanceof CursorError) throw invalid('cursor', error.message)
        throw error
      }
    }
    return { clauses, book, scope, after }
  }

  private hit(index: SearchIndex, matches: Matches, i: number, fields: readonly SearchField[], highlighter: Highlighter): SearchHit {
    const { score, doc } = keyAt(matches, i)
    const verse = this.deps.verses.byVerseId(index.verseIdAt(doc))
    const book = verse === undefined ? undefined : bookAt(verse.book)
    if (verse === undefined || book === undefined) throw new Error(`document ${doc} has no verse`)
    const snippets = fields.flatMap((field) => {
      const text = this.textOf(verse, field)
      const spans = text === null ? [] : highlightSpans(tokenize(text), highlighter)
      return text === null || spans.length === 0 ? [] : [{ field, text: snippet(text, spans) }]
    })
    return {
      slug: verseSlug(book, verse.chapter, verse.verse),
      reference: verseReference(book, verse.chapter, verse.verse),
      score: Math.round(score * 10_000) / 10_000,
      kjv_text: verse.text,
      snippets,
      attribution: this.deps.resources.attribution(verse),
    }
  }

  private textOf(verse: VerseRecord, field: SearchField): string | null {
    return field === 'kjv' ? verse.text : (this.deps.content.get(verse.id, field)?.simplifiedText ?? null)
  }

  private async build(): Promise<SearchIndex> {
    const started = performance.now()
    const index = await buildSearchIndex(this.indexedVerses(), () => new Promise((resolve) => setImmediate(resolve)))
    this.deps.logger?.info({ verses: index.size, ms: Math.round(performance.now() - started) }, 'search index built')
    this.built = index
    this.saving = this.save(index)
    return index
  }

  /** Saves a built index for the next start; a failure only costs that start a build. */
  private async save(index: SearchIndex): Promise<void> {
    const { indexDir, indexKey, logger } = this.deps
    if (indexDir === undefined || indexKey === undefined) return
    const started = performance.now()
    try {
      const bytes = await writeSearchIndexFile(indexDir, index, indexKey)
      logger?.info({ bytes, ms: Math.round(performance.now() - started) }, 'search index saved')
    } catch (error) {
      logger?.warn({ err: error, dir: indexDir }, 'saving the search index failed; the next start builds it again')
    }
  }

  /**
   * Every verse with its texts. The content is walked in the same (verse) order as the verses,
   * in large reads from the content pack, rather than one read per verse and style.
   */
  private *indexedVerses(): Generator<IndexedVerse> {
    const content = this.deps.content.entries()
    let next = content.next()
    for (const verse of this.deps.verses.all()) {
      const texts: Record<'faithful' | 'casual', string | null> = { faithful: null, casual: null }
      // Content of a verse the store does not hold (none is expected) is passed over.
      while (next.done !== true && next.value.verseId <= verse.id) {
        if (next.value.verseId === verse.id) texts[next.value.style] = next.value.simplifiedText
        next = content.next()
      }
      yield { id: verse.id, book: verse.book, texts: { kjv: verse.text, ...texts } }
    }
  }
}

function keyAt(matches: Matches, i: number): RankKey {
  return { score: matches.scores[i] ?? 0, doc: matches.docs[i] ?? 0 }
}

/** Highlights the words of the query's bare words (by stem) and its phrases (as written). */
function highlighterOf(index: SearchIndex, clauses: readonly Clause[]): Highlighter {
  const stems = new Set<number>()
  for (const clause of clauses) {
    const id = clause.kind === 'word' ? index.stemId(clause.stem) : undefined
    if (id !== undefined) stems.add(id)
  }
  return {
    matchesWord: (token) => stems.has(index.stemIdOfBase(token.base) ?? -1),
    phrases: clauses.flatMap((c) => (c.kind === 'phrase' ? [c.surfaces] : [])),
  }
}

function invalid(parameter: string, message: string): AppError {
  return new AppError('invalid_parameter', `${parameter} ${message}.`, { errors: [{ location: `querystring/${parameter}`, message }] })
}
