/**
 * The serialized verse resources, one per (verse, style), shared by the verse route (which
 * builds them) and the verse lane (which only sends what is here): both send the same bytes
 * under the same entity tag.
 */
import { RepresentationCache, type Representation } from '../http/etag.js'
import type { StyleSelector } from './verses.service.js'
import type { VerseRecord } from './verse.store.js'

/** How a verse resource is cached by clients: revalidated with its tag before every reuse. */
export const VERSE_CACHE_CONTROL = 'private, no-cache'
/** The media type the route and the lane send a representation with. */
export const VERSE_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * Representations kept (about 2 KB each, outside the JS heap): the verses asked for most stay
 * served from memory, at about 40 MB at most; a miss costs one serialization and one hash.
 * Every verse in every style (93,306) would take several times that for the long tail.
 */
const CACHE_CAPACITY = 20_000
/** A number per (verse, style) as the cache key: no string to build per request. */
const STYLE_SLOTS = 3

/**
 * The style's place in a verse's cache slots. Comparisons rather than an object lookup: the
 * style is a fresh string from the query, and a keyed property load would look it up in
 * V8's string table first.
 */
function slotOf(verse: VerseRecord, style: StyleSelector): number {
  return verse.id * STYLE_SLOTS + (style === 'faithful' ? 0 : style === 'casual' ? 1 : 2)
}

/** The bounded cache of verse representations, oldest first out. */
export class VerseRepresentations {
  readonly #cache = new RepresentationCache<number>(CACHE_CAPACITY)

  /** The cached representation of the verse in the style, if any. */
  peek(verse: VerseRecord, style: StyleSelector): Representation | undefined {
    return this.#cache.peek(slotOf(verse, style))
  }

  /** Caches the serialized resource of the verse in the style and returns its representation. */
  put(verse: VerseRecord, style: StyleSelector, serialized: string): Representation {
    return this.#cache.put(slotOf(verse, style), serialized)
  }
}
