/**
 * Search cursors: opaque to clients, they hold the last hit of the page served (its exact
 * score and its verse), so the next page starts right after it, and a digest of the query
 * they belong to, so that one cannot be replayed with another q, style or book.
 *
 * Layout (22 bytes, base64url): version 's1', 8 bytes of SHA-256(q, style, book), the
 * score as a float64, the document number as a uint32.
 */
import { createHash } from 'node:crypto'
import type { RankKey } from './matcher.js'

const VERSION = 's1'
const LENGTH = 2 + 8 + 8 + 4

/** What a cursor is bound to. */
export interface CursorScope {
  readonly q: string
  readonly style: string
  /** The canonical book slug, or undefined for every book. */
  readonly book: string | undefined
}

/** Why a cursor was refused. */
export class CursorError extends Error {
  override readonly name = 'CursorError'
}

function digest(scope: CursorScope): Buffer {
  return createHash('sha256')
    .update(`${scope.q}\u0000${scope.style}\u0000${scope.book ?? ''}`)
    .digest()
    .subarray(0, 8)
}

/**
 * The cursor that continues after `key` for this query.
 * @example decodeCursor(encodeCursor(scope, key), scope) // key
 */
export function encodeCursor(scope: CursorScope, key: RankKey): string {
  const bytes = Buffer.alloc(LENGTH)
  bytes.write(VERSION, 0, 'latin1')
  digest(scope).copy(bytes, 2)
  bytes.writeDoubleBE(key.score, 10)
  bytes.writeUInt32BE(key.doc, 18)
  return bytes.toString('base64url')
}

/**
 * The position a cursor holds.
 * @throws CursorError when it is not one this API issued for this q, style and book.
 */
export function decodeCursor(cursor: string, scope: CursorScope): RankKey {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new CursorError('is not a cursor this API issued')
  const bytes = Buffer.from(cursor, 'base64url')
  if (bytes.length !== LENGTH || bytes.toString('latin1', 0, 2) !== VERSION || bytes.toString('base64url') !== cursor) {
    throw new CursorError('is not a cursor this API issued')
  }
  if (!bytes.subarray(2, 10).equals(digest(scope))) throw new CursorError('belongs to another search (q, style and book must stay the same)')
  const score = bytes.readDoubleBE(10)
  if (!Number.isFinite(score)) throw new CursorError('is not a cursor this API issued')
  return { score, doc: bytes.readUInt32BE(18) }
}
