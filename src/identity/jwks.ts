/**
 * The identity provider's JSON Web Key Set: fetched from the one configured URL (never from a
 * token's `jku`/`x5u`/`jwk` header), validated key by key, and cached by `kid`.
 *
 * Fetches happen when the cache is empty, when a token names a `kid` the cache lacks (key
 * rotation), and when the cache is older than `maxAgeMs` (so a key the provider removed stops
 * working). Whatever the trigger, at most one fetch starts per `refetchIntervalMs`: a flood of
 * tokens with made-up kids costs the provider one request per interval, and concurrent callers
 * share the fetch in flight.
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto'

/** The algorithms a JWKS key may be used with. */
export type JwksAlgorithm = 'RS256' | 'ES256'

/** A usable signing key, with its public key as PEM (the form fast-jwt verifies with). */
export interface JwksKey {
  readonly kid: string
  readonly alg: JwksAlgorithm
  readonly pem: string
}

/** Why no key could be returned for a token. */
export type JwksFailure = 'unavailable' | 'unknown_kid' | 'unusable_key' | 'wrong_algorithm'

/** A failed key lookup; the message is plain words fit for a client (no token content). */
export class JwksError extends Error {
  constructor(
    readonly reason: JwksFailure,
    message: string,
  ) {
    super(message)
    this.name = 'JwksError'
  }
}

/** A parsed key set: usable keys by kid, and why each other kid's key cannot be used. */
export interface ParsedJwks {
  readonly keys: ReadonlyMap<string, readonly JwksKey[]>
  readonly unusable: ReadonlyMap<string, string>
}

/** How the cache fetches and how often. */
export interface JwksCacheOptions {
  readonly url: string
  /** Milliseconds since the epoch; injectable so tests can move time. */
  readonly now: () => number
  readonly fetchTimeoutMs?: number
  readonly refetchIntervalMs?: number
  readonly maxAgeMs?: number
  readonly maxBytes?: number
}

export const DEFAULT_FETCH_TIMEOUT_MS = 3_000
export const DEFAULT_REFETCH_INTERVAL_MS = 10_000
export const DEFAULT_JWKS_MAX_AGE_MS = 10 * 60_000
// Real key sets are a few kilobytes; the cap only stops a hostile or broken endpoint from
// making us buffer without bound.
const DEFAULT_MAX_BYTES = 1024 * 1024
const MAX_KEYS = 100
const MAX_KID_LENGTH = 256
// RFC 7518 §3.3 requires at least 2048 bits for RS256.
const MIN_RSA_BITS = 2048

/** A cache of one JWKS document. */
export class JwksCache {
  readonly #url: string
  readonly #now: () => number
  readonly #fetchTimeoutMs: number
  readonly #refetchIntervalMs: number
  readonly #maxAgeMs: number
  readonly #maxBytes: number
  #jwks: ParsedJwks = { keys: new Map(), unusable: new Map() }
  /** When the last fetch succeeded; undefined until one has. */
  #loadedAt: number | undefined
  /** When the last fetch started, successful or not: the rate limit counts from here. */
  #attemptedAt: number | undefined
  #lastError: string | undefined
  #inFlight: Promise<void> | undefined

  constructor(options: JwksCacheOptions) {
    this.#url = options.url
    this.#now = options.now
    this.#fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS
    this.#refetchIntervalMs = options.refetchIntervalMs ?? DEFAULT_REFETCH_INTERVAL_MS
    this.#maxAgeMs = options.maxAgeMs ?? DEFAULT_JWKS_MAX_AGE_MS
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  }

  /**
   * The key a token names, refetching the set first when the kid is unknown (rate-limited).
   * @throws JwksError when the set cannot be loaded, or has no usable key for this kid and alg.
   */
  async getKey(kid: string, alg: JwksAlgorithm): Promise<JwksKey> {
    if (this.#shouldFetch(kid)) await this.#refresh()
    const candidates = this.#jwks.keys.get(kid)
    if (candidates === undefined) {
      if (this.#loadedAt === undefined) {
        throw new JwksError(
          'unavailable',
          `The identity provider's signing keys could not be loaded (${this.#lastError ?? 'no fetch yet'}), so the token cannot be verified.`,
        )
      }
      const unusable = this.#jwks.unusable.get(kid)
      if (unusable !== undefined) {
        throw new JwksError('unusable_key', `The identity provider's key named by the token's kid cannot be used: ${unusable}.`)
      }
      const refreshFailed = this.#lastError === undefined ? '' : ` (and refreshing the key set failed: ${this.#lastError})`
      throw new JwksError('unknown_kid', `No key in the identity provider's key set has the token's kid${refreshFailed}.`)
    }
    const match = candidates.find((key) => key.alg === alg)
    if (match === undefined) {
      throw new JwksError('wrong_algorithm', `The key named by the token's kid is for ${candidates.map((k) => k.alg).join(', ')}, but the token says ${alg}.`)
    }
    return match
  }

  #shouldFetch(kid: string): boolean {
    const now = this.#now()
    const needed = this.#loadedAt === undefined || !this.#jwks.keys.has(kid) || now - this.#loadedAt >= this.#maxAgeMs
    if (!needed) return false
    // Joining a fetch already under way costs nothing and may bring the key.
    if (this.#inFlight !== undefined) return true
    // A clock that went backwards counts as elapsed, or we could refuse to fetch for hours.
    return this.#attemptedAt === undefined || now < this.#attemptedAt || now - this.#attemptedAt >= this.#refetchIntervalMs
  }

  #refresh(): Promise<void> {
    this.#inFlight ??= this.#load().finally(() => {
      this.#inFlight = undefined
    })
    return this.#inFlight
  }

  /** Never rejects: a failed fetch keeps the previous keys and records why. */
  async #load(): Promise<void> {
    this.#attemptedAt = this.#now()
    try {
      const jwks = parseJwks(await this.#fetchDocument())
      this.#jwks = jwks
      this.#loadedAt = this.#now()
      this.#lastError = undefined
    } catch (error) {
      // Keeping the last good keys means a provider outage does not sign everyone out; a key
      // the provider deliberately removed disappears at the next successful fetch.
      this.#lastError = error instanceof Error ? error.message : String(error)
    }
  }

  async #fetchDocument(): Promise<string> {
    // One signal covers connecting, the headers and the body, so a server that trickles or
    // stalls mid-body is cut off too.
    const signal = AbortSignal.timeout(this.#fetchTimeoutMs)
    try {
      const response = await fetch(this.#url, { signal, headers: { accept: 'application/jwk-set+json, application/json' } })
      if (!response.ok) {
        await response.body?.cancel()
        throw new KeySetProblem(`the key set URL answered HTTP ${response.status}`)
      }
      return await readLimited(response, this.#maxBytes)
    } catch (error) {
      if (signal.aborted) throw new KeySetProblem(`fetching the key set timed out after ${this.#fetchTimeoutMs} ms`)
      if (error instanceof KeySetProblem) throw error
      // The network error itself (addresses, ports) is for the operator, not for API clients.
      throw new KeySetProblem('the key set could not be fetched (network error)')
    }
  }
}

/** A fetch failure whose message is already fit to show. */
class KeySetProblem extends Error {}

async function readLimited(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel()
    throw new KeySetProblem(`the key set is larger than ${maxBytes} bytes`)
  }
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel()
      throw new KeySetProblem(`the key set is larger than ${maxBytes} bytes`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Parses a JWKS document. Keys that cannot be used (wrong type, encryption keys, bad numbers)
 * are set aside with the reason rather than failing the whole set, so one odd key published
 * next to the real ones does not break sign-in; a token naming such a key is still refused.
 * @throws Error when the text is not JSON or has no `keys` array.
 */
export function parseJwks(text: string): ParsedJwks {
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    throw new Error('the key set is not JSON')
  }
  if (!isRecord(document) || !Array.isArray(document.keys)) throw new Error('the key set has no "keys" array')
  if (document.keys.length > MAX_KEYS) throw new Error(`the key set has more than ${MAX_KEYS} keys`)
  const keys = new Map<string, JwksKey[]>()
  const unusable = new Map<string, string>()
  for (const entry of document.keys as readonly unknown[]) {
    // Without a kid a key can never be selected, so it is not worth a reason.
    if (!isRecord(entry) || typeof entry.kid !== 'string' || entry.kid === '' || entry.kid.length > MAX_KID_LENGTH) continue
    const result = toKey(entry, entry.kid)
    if (typeof result === 'string') {
      if (!keys.has(entry.kid)) unusable.set(entry.kid, result)
      continue
    }
    unusable.delete(entry.kid)
    keys.set(entry.kid, [...(keys.get(entry.kid) ?? []), result])
  }
  return { keys, unusable }
}

/** The usable key, or why the entry cannot be used. */
function toKey(entry: Record<string, unknown>, kid: string): JwksKey | string {
  if (entry.use !== undefined && entry.use !== 'sig') return 'it is not a signing key (its "use" is not "sig")'
  if (entry.key_ops !== undefined && !(Array.isArray(entry.key_ops) && entry.key_ops.includes('verify'))) {
    return 'its "key_ops" do not include "verify"'
  }
  if (entry.d !== undefined) return 'it holds private key material, so it is not trusted'
  if (entry.kty === 'RSA') {
    if (entry.alg !== undefined && entry.alg !== 'RS256') return 'it is an RSA key for another algorithm than RS256'
    if (typeof entry.n !== 'string' || typeof entry.e !== 'string') return 'its RSA modulus or exponent is missing'
    // Node imports almost any n and e (even empty or non-base64url ones), so they are checked here.
    if (!BASE64URL.test(entry.n) || !BASE64URL.test(entry.e)) return 'its RSA modulus or exponent is invalid'
    // Only the public members are passed on, so nothing else in the entry can change the key.
    const pem = importPublic({ kty: 'RSA', n: entry.n, e: entry.e })
    if (pem === undefined || !validExponent(pem.exponent)) return 'its RSA modulus or exponent is invalid'
    if (pem.bits < MIN_RSA_BITS) return `its RSA modulus is shorter than ${MIN_RSA_BITS} bits`
    return { kid, alg: 'RS256', pem: pem.pem }
  }
  if (entry.kty === 'EC') {
    if (entry.crv !== 'P-256') return 'it is an EC key on another curve than P-256'
    if (entry.alg !== undefined && entry.alg !== 'ES256') return 'it is an EC key for another algorithm than ES256'
    if (typeof entry.x !== 'string' || typeof entry.y !== 'string') return 'its EC coordinates are missing'
    if (!BASE64URL.test(entry.x) || !BASE64URL.test(entry.y)) return 'its EC coordinates are invalid'
    const pem = importPublic({ kty: 'EC', crv: 'P-256', x: entry.x, y: entry.y })
    if (pem === undefined) return 'its EC coordinates are invalid'
    return { kid, alg: 'ES256', pem: pem.pem }
  }
  return 'its key type is neither RSA nor EC'
}

const BASE64URL = /^[A-Za-z0-9_-]+$/

/** An RSA public exponent must be odd and greater than 1, or the key verifies nothing sound. */
function validExponent(exponent: bigint): boolean {
  return exponent > 1n && exponent % 2n === 1n
}

function importPublic(jwk: JsonWebKey): { pem: string; bits: number; exponent: bigint } | undefined {
  try {
    // Node checks that an EC point lies on the curve; RSA numbers are checked by the caller.
    const key = createPublicKey({ key: jwk, format: 'jwk' })
    const details = key.asymmetricKeyDetails
    return { pem: key.export({ type: 'spki', format: 'pem' }).toString(), bits: details?.modulusLength ?? 0, exponent: details?.publicExponent ?? 0n }
  } catch {
    return undefined
  }
}
