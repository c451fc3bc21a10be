/**
 * The in-memory inverted index of every verse: for each searched text (the KJV and the two
 * simplified styles), the verses that contain each stem with its frequency, the length
 * norms BM25 needs, and the word sequence of each verse for phrase matching.
 *
 * Documents are verses numbered 0..n-1 in canonical order, so postings are sorted and one
 * book is one contiguous range of documents.
 */
import type { components } from '../../generated/api-types.js'
import { stem } from './stemmer.js'
import { formsOf, rawWords } from './tokenizer.js'
import { U32List } from '../infra/u32-list.js'

/** A searched text: the KJV or one simplified style. */
export type SearchField = components['schemas']['SearchField']

/** The order snippets are given in. */
export const FIELDS: readonly SearchField[] = ['kjv', 'faithful', 'casual']

/** BM25 parameters (the usual ones). */
export const K1 = 1.2
const B = 0.75

/** One verse with its texts, as the index is built from. */
export interface IndexedVerse {
  readonly id: number
  readonly book: number
  readonly texts: Readonly<Record<SearchField, string | null>>
}

/** The documents that contain a stem, ascending, with how often each contains it. */
export interface Postings {
  readonly docs: Int32Array
  readonly tfs: Uint16Array
}

/** The arrays a FieldIndex is made of, as saved to and loaded from the index file. */
export interface FieldParts {
  readonly postingStart: Uint32Array
  readonly postingDocs: Int32Array
  readonly postingTfs: Uint16Array
  readonly norms: Float32Array
  readonly docCount: number
  readonly words: Int32Array
  readonly wordStart: Uint32Array
}

/** The index of one text (field) of every verse. */
export class FieldIndex {
  constructor(
    /**
     * Where each stem's postings start in `postingDocs` and `postingTfs` (one more entry than
     * stems; equal neighbours: no verse's text has the stem). All postings of a field live in two
     * arrays rather than two small arrays per stem: tens of thousands of typed arrays, each with
     * its own buffer, cost more in object headers and allocations than the postings themselves.
     */
    private readonly postingStart: Uint32Array,
    private readonly postingDocs: Int32Array,
    private readonly postingTfs: Uint16Array,
    /** K1 * (1 - B + B * length / average length) of each document: the BM25 length norm. */
    readonly norms: Float32Array,
    /** How many documents have this text. */
    readonly docCount: number,
    /** The surface ids of every word, document after document. */
    private readonly words: Int32Array,
    /** Where each document's words start in `words` (one more entry than documents). */
    private readonly wordStart: Uint32Array,
  ) {}

  /** Makes a field index from its arrays (as `parts` gives them). */
  static fromParts(parts: FieldParts): FieldIndex {
    return new FieldIndex(parts.postingStart, parts.postingDocs, parts.postingTfs, parts.norms, parts.docCount, parts.words, parts.wordStart)
  }

  /** The arrays this index is made of (not copies: never modify them). */
  parts(): FieldParts {
    const { postingStart, postingDocs, postingTfs, norms, docCount, words, wordStart } = this
    return { postingStart, postingDocs, postingTfs, norms, docCount, words, wordStart }
  }

  /** The postings of a stem, if any document has it. */
  postingsOf(stemId: number): Postings | undefined {
    const from = this.postingStart[stemId]
    const to = this.postingStart[stemId + 1]
    if (from === undefined || to === undefined || from === to) return undefined
    return { docs: this.postingDocs.subarray(from, to), tfs: this.postingTfs.subarray(from, to) }
  }

  /** The BM25 inverse document frequency of a stem with these postings. */
  idf(postings: Postings): number {
    const df = postings.docs.length
    return Math.log(1 + (this.docCount - df + 0.5) / (df + 0.5))
  }

  /** Whether the document's text holds these words next to each other, in this order. */
  hasSequence(doc: number, surfaceIds: readonly number[]): boolean {
    const first = surfaceIds[0]
    const last = (this.wordStart[doc + 1] ?? 0) - surfaceIds.length
    for (let i = this.wordStart[doc] ?? 0; i <= last; i++) {
      if (this.words[i] !== first) continue
      let j = 1
      while (j < surfaceIds.length && this.words[i + j] === surfaceIds[j]) j++
      if (j === surfaceIds.length) return true
    }
    return false
  }
}

/** What a SearchIndex is made of, as saved to and loaded from the index file. */
export interface SearchIndexParts {
  readonly verseIds: Int32Array
  /** Each book's documents, [first, last + 1). */
  readonly books: ReadonlyMap<number, readonly [number, number]>
  /** Stem -> stem id; ids are 0..n-1 in the map's order. */
  readonly stemIds: ReadonlyMap<string, number>
  /** Indexed word (Token.base) -> its stem id. */
  readonly baseStems: ReadonlyMap<string, number>
  /** Normalized word (Token.surface) -> surface id; ids are 0..n-1 in the map's order. */
  readonly surfaceIds: ReadonlyMap<string, number>
  readonly fields: Readonly<Record<SearchField, FieldIndex>>
}

/** The whole index. Immutable once built. */
export class SearchIndex {
  constructor(
    private readonly verseIds: Int32Array,
    private readonly books: ReadonlyMap<number, readonly [number, number]>,
    private readonly stemIds: ReadonlyMap<string, number>,
    private readonly baseStems: ReadonlyMap<string, number>,
    private readonly surfaceIds: ReadonlyMap<string, number>,
    private readonly fields: Readonly<Record<SearchField, FieldIndex>>,
  ) {}

  /** Makes an index from its parts (as `parts` gives them). */
  static fromParts(parts: SearchIndexParts): SearchIndex {
    return new SearchIndex(parts.verseIds, parts.books, parts.stemIds, parts.baseStems, parts.surfaceIds, parts.fields)
  }

  /** What this index is made of (not copies: never modify them). */
  parts(): SearchIndexParts {
    const { verseIds, books, stemIds, baseStems, surfaceIds, fields } = this
    return { verseIds, books, stemIds, baseStems, surfaceIds, fields }
  }

  /** Number of documents (verses). */
  get size(): number {
    return this.verseIds.length
  }

  /** The verse id of a document. */
  verseIdAt(doc: number): number {
    const id = this.verseIds[doc]
    if (id === undefined) throw new Error(`no document ${doc}`)
    return id
  }

  /** The documents of a book, as [first, last + 1); all documents without a book. */
  range(book?: number): readonly [number, number] {
    if (book === undefined) return [0, this.size]
    return this.books.get(book) ?? [0, 0]
  }

  /** The index of one field. */
  field(name: SearchField): FieldIndex {
    return this.fields[name]
  }

  /** The id of a stem, if any text has it. */
  stemId(value: string): number | undefined {
    return this.stemIds.get(value)
  }

  /** The stem id of an indexed word (Token.base), without stemming it again. */
  stemIdOfBase(base: string): number | undefined {
    return this.baseStems.get(base)
  }

  /** The id of a normalized word (Token.surface), if any text has it. */
  surfaceId(surface: string): number | undefined {
    return this.surfaceIds.get(surface)
  }
}

/** Accumulates one field. */
class FieldBuilder {
  // Postings as (stem, document, frequency) triples in arrival order, in typed arrays: per-stem
  // JS arrays held twice the bytes, and the garbage of their growth, at the build's peak.
  private readonly postingStems = new U32List(1 << 16)
  private readonly postingDocs = new U32List(1 << 16)
  private readonly postingTfs = new U32List(1 << 16)
  /** Per stem: the last document it was seen in, and where that document's triple is. */
  private lastDoc = new Int32Array(1 << 14).fill(-1)
  private lastAt = new Int32Array(1 << 14)
  private stems = 0
  private readonly lengths: number[] = []
  private readonly words = new U32List(1 << 16)
  private readonly wordStart = new U32List(1 << 16)

  constructor() {
    this.wordStart.push(0)
  }

  /** Adds the next document's words as [surfaceId, stemId] pairs, flattened (empty: no such text). */
  add(doc: number, pairs: readonly number[]): void {
    this.lengths.push(pairs.length / 2)
    for (let i = 0; i < pairs.length; i += 2) {
      const stemId = pairs[i + 1] as number
      this.words.push(pairs[i] as number)
      if (stemId >= this.lastDoc.length) this.growStems(stemId)
      if (stemId >= this.stems) this.stems = stemId + 1
      // Documents arrive in order, so this document's posting, if any, is the stem's last one.
      if (this.lastDoc[stemId] === doc) {
        const at = this.lastAt[stemId] as number
        this.postingTfs.set(at, Math.min(0xffff, this.postingTfs.get(at) + 1))
      } else {
        this.lastDoc[stemId] = doc
        this.lastAt[stemId] = this.postingDocs.length
        this.postingStems.push(stemId)
        this.postingDocs.push(doc)
        this.postingTfs.push(1)
      }
    }
    this.wordStart.push(this.words.length)
  }

  private growStems(stemId: number): void {
    let size = this.lastDoc.length
    while (size <= stemId) size *= 2
    const lastDoc = new Int32Array(size).fill(-1)
    lastDoc.set(this.lastDoc)
    const lastAt = new Int32Array(size)
    lastAt.set(this.lastAt)
    this.lastDoc = lastDoc
    this.lastAt = lastAt
  }

  finish(): FieldIndex {
    const present = this.lengths.filter((n) => n > 0)
    const average = present.reduce((sum, n) => sum + n, 0) / Math.max(1, present.length)
    const norms = Float32Array.from(this.lengths, (n) => K1 * (1 - B + (B * n) / Math.max(1, average)))
    // A counting sort of the triples by stem: each stem's documents keep their (ascending) order.
    const postingStart = new Uint32Array(this.stems + 1)
    const total = this.postingDocs.length
    for (let i = 0; i < total; i++) {
      const slot = this.postingStems.get(i) + 1
      postingStart[slot] = (postingStart[slot] as number) + 1
    }
    for (let stemId = 0; stemId < this.stems; stemId++) postingStart[stemId + 1] = (postingStart[stemId + 1] as number) + (postingStart[stemId] as number)
    const next = postingStart.slice(0, this.stems)
    const docs = new Int32Array(total)
    const tfs = new Uint16Array(total)
    for (let i = 0; i < total; i++) {
      const stemId = this.postingStems.get(i)
      const at = next[stemId] as number
      next[stemId] = at + 1
      docs[at] = this.postingDocs.get(i)
      tfs[at] = this.postingTfs.get(i)
    }
    // Copies of exactly the values pushed (every word and surface id is below 2^31).
    return new FieldIndex(postingStart, docs, tfs, norms, present.length, new Int32Array(this.words.view()), this.wordStart.view().slice())
  }
}

/** How many verses are indexed between two yields to the event loop (a few milliseconds of work). */
const CHUNK = 100

/**
 * Builds the index from every verse in canonical order, yielding to the event loop between
 * chunks so that a server keeps answering while it builds.
 * @param pause awaited between chunks, e.g. `() => new Promise((r) => setImmediate(r))`.
 */
export async function buildSearchIndex(verses: Iterable<IndexedVerse>, pause: () => Promise<void>): Promise<SearchIndex> {
  const stemIds = new Map<string, number>()
  const baseStems = new Map<string, number>()
  const surfaceIds = new Map<string, number>()
  // Each distinct word as written is normalized and stemmed once: [surfaceId, stemId].
  const known = new Map<string, readonly [number, number]>()
  const builders: Record<SearchField, FieldBuilder> = { kjv: new FieldBuilder(), faithful: new FieldBuilder(), casual: new FieldBuilder() }
  const verseIds: number[] = []
  const books = new Map<number, [number, number]>()
  const pairs: number[] = []

  const idsOf = (raw: string): readonly [number, number] => {
    const { surface, base } = formsOf(raw)
    let surfaceId = surfaceIds.get(surface)
    if (surfaceId === undefined) surfaceIds.set(surface, (surfaceId = surfaceIds.size))
    let stemId = baseStems.get(base)
    if (stemId === undefined) {
      const value = stem(base)
      stemId = stemIds.get(value)
      if (stemId === undefined) stemIds.set(value, (stemId = stemIds.size))
      baseStems.set(base, stemId)
    }
    const ids = [surfaceId, stemId] as const
    known.set(raw, ids)
    return ids
  }

  for (const verse of verses) {
    const doc = verseIds.length
    verseIds.push(verse.id)
    const range = books.get(verse.book)
    if (range === undefined) books.set(verse.book, [doc, doc + 1])
    else range[1] = doc + 1
    for (const field of FIELDS) {
      pairs.length = 0
      for (const raw of rawWords(verse.texts[field] ?? '')) {
        const [surfaceId, stemId] = known.get(raw) ?? idsOf(raw)
        pairs.push(surfaceId, stemId)
      }
      builders[field].add(doc, pairs)
    }
    if ((doc + 1) % CHUNK === 0) await pause()
  }
  const fields = { kjv: builders.kjv.finish(), faithful: builders.faithful.finish(), casual: builders.casual.finish() }
  return new SearchIndex(Int32Array.from(verseIds), books, stemIds, baseStems, surfaceIds, fields)
}
