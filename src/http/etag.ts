/** Entity tags and conditional requests (RFC 9110 section 13). */
import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

/** A strong entity tag for a representation: a quoted digest of its bytes. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`
}

/**
 * Whether `If-None-Match` matches the tag, with the weak comparison that RFC 9110 requires
 * for this header (a `W/` prefix is ignored) and `*` matching anything.
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined || header === '') return false
  const bare = etag.replace(/^W\//, '')
  return header.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag.replace(/^W\//, '') === bare
  })
}

/** A serialized representation with its tag, ready to send or to answer 304 for. */
export interface Representation {
  /** Cached representations hold their UTF-8 bytes: sent as they are, never encoded again. */
  readonly body: string | Buffer
  readonly etag: string
}

/**
 * A bounded cache of serialized representations, oldest first out, so that the hot path
 * serializes, encodes and hashes each (verse, style) once while it stays cached. A hit costs
 * one Map lookup.
 */
export class RepresentationCache<K = string> {
  private readonly entries = new Map<K, Representation>()

  constructor(private readonly capacity: number) {}

  /** The cached representation for `key`, building (and caching) it on a miss. */
  get(key: K, build: () => string): Representation {
    return this.entries.get(key) ?? this.put(key, build())
  }

  /** The cached representation for `key`, if any (with `put`: no closure on the hot path). */
  peek(key: K): Representation | undefined {
    return this.entries.get(key)
  }

  /** Caches the representation `serialized` for `key` and returns it. */
  put(key: K, serialized: string): Representation {
    const body = Buffer.from(serialized)
    const entry = { body, etag: etagOf(body) }
    this.entries.set(key, entry)
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    return entry
  }

  /** Forgets everything, for when the underlying data changes. */
  clear(): void {
    this.entries.clear()
  }
}

/**
 * Sends a representation with its tag and cache lifetime, or an empty 304 when the client's
 * `If-None-Match` already names it.
 * @example sendTagged(request, reply, stylesheet, 'text/css; charset=utf-8', 'public, max-age=3600')
 */
export function sendTagged(request: FastifyRequest, reply: FastifyReply, representation: Representation, type: string, cacheControl: string): FastifyReply {
  reply.header('etag', representation.etag).header('cache-control', cacheControl)
  if (ifNoneMatchMatches(request.headers['if-none-match'], representation.etag)) return reply.code(304).send()
  return reply.type(type).send(representation.body)
}
