/**
 * Request ids: the one a caller or a proxy sent in `X-Request-Id` when it is safe to echo and
 * to log (1 to 128 characters of a small alphabet, so no log or header injection), otherwise
 * a random UUID.
 */
import { randomFillSync } from 'node:crypto'

const SANE = /^[A-Za-z0-9._:-]{1,128}$/u

/** UUIDs drawn from one fill of random bytes: one call into the generator per this many requests. */
const POOL_UUIDS = 256
const pool = Buffer.alloc(16 * POOL_UUIDS)
let drawn = POOL_UUIDS
/** The two lowercase hex digits (ASCII) of every byte value. */
const HEX = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0')).join(''), 'latin1')
/** Where each of a UUID's 16 bytes goes in its text (the dashes sit between). */
const PLACES = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]
const text = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1')

/**
 * A random (version 4) UUID, as crypto.randomUUID makes, written as ASCII into one buffer and
 * read out as one flat string: randomUUID builds it from some twenty string pieces, garbage
 * that every response without an id of its own would make (and the header check then flattens).
 */
function randomId(): string {
  if (drawn === POOL_UUIDS) {
    randomFillSync(pool)
    drawn = 0
  }
  const at = 16 * drawn++
  for (let i = 0; i < 16; i++) {
    const raw = pool[at + i] ?? 0
    // The version (4) and the variant (binary 10) bits of RFC 9562.
    const byte = i === 6 ? (raw & 0x0f) | 0x40 : i === 8 ? (raw & 0x3f) | 0x80 : raw
    const place = PLACES[i] ?? 0
    text[place] = HEX[2 * byte] ?? 0
    text[place + 1] = HEX[2 * byte + 1] ?? 0
  }
  return text.toString('latin1')
}

/**
 * The id of a request, from its X-Request-Id header value.
 * @example requestIdOf('abc-123') // 'abc-123'; requestIdOf('a b') // a random UUID
 */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE.test(header) ? header : randomId()
}
