/**
 * API key format: `pv_` + 30 base62 characters from a CSPRNG (178 bits) + a 6-character
 * base62 CRC-32 checksum of them, as GitHub's tokens do. The checksum lets a malformed key
 * be rejected without a database lookup, and the fixed prefix and shape let secret scanners
 * recognise a leaked key (pattern: `pv_[0-9A-Za-z]{36}`).
 */
import { createHash, randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const SECRET_LENGTH = 30
const CHECKSUM_LENGTH = 6
export const KEY_PREFIX = 'pv_'
/** How many leading characters of a key are kept for display, e.g. `pv_3xK9`. */
const DISPLAY_PREFIX_LENGTH = 7
const SHAPE = /^pv_[0-9A-Za-z]{36}$/

function base62(value: number, width: number): string {
  let out = ''
  let rest = value
  for (let i = 0; i < width; i++) {
    out = (ALPHABET[rest % 62] ?? '0') + out
    rest = Math.floor(rest / 62)
  }
  return out
}

function checksum(secret: string): string {
  return base62(crc32(secret), CHECKSUM_LENGTH)
}

/**
 * A new random key.
 * @param random a CSPRNG (injectable for tests); bytes >= 248 are rejected to avoid modulo bias.
 */
export function generateKey(random: (size: number) => Buffer = randomBytes): string {
  let secret = ''
  while (secret.length < SECRET_LENGTH) {
    for (const byte of random(SECRET_LENGTH * 2)) {
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += ALPHABET[byte % 62]
    }
  }
  return `${KEY_PREFIX}${secret}${checksum(secret)}`
}

/** Whether a string has the shape and checksum of a key (no database involved). */
export function isWellFormedKey(candidate: string): boolean {
  if (!SHAPE.test(candidate)) return false
  const body = candidate.slice(KEY_PREFIX.length)
  return checksum(body.slice(0, SECRET_LENGTH)) === body.slice(SECRET_LENGTH)
}

/** The stored form of a key: its SHA-256 in hex (the key has 178 bits of entropy, so no slow hash is needed). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

/** The part of a key shown in listings. */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH)
}
