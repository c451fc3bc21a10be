/**
 * A small typed client for the Plainverse API, on openapi-fetch and the contract's generated
 * types (`generated/api-types.ts`): every path, parameter and body is checked by the compiler.
 *
 * - Credentials: `apiKey` (sent as `X-API-Key`) for the scripture routes and a key's usage,
 *   `identityToken` (sent as `Authorization: Bearer`) for key management and an account's usage.
 * - Errors: `unwrap()` returns the body of a success and throws a `PlainverseError` carrying the
 *   problem document and its stable `code` otherwise.
 * - 429: retried after `Retry-After` seconds (at most `maxRetries` times, and only when the wait
 *   is at most `maxRetryAfterSeconds`: a monthly quota that resets in days is reported at once).
 *
 * @example
 * const client = createPlainverseClient({ baseUrl: 'https://api.example.org', apiKey: process.env.PLAINVERSE_API_KEY })
 * const verse = await unwrap(client.GET('/api/v1/verse/{slug}', { params: { path: { slug: 'john-3-16' } } }))
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch'
import type { components, paths } from '../../generated/api-types.js'

/** An RFC 9457 problem document as the API sends it. */
export type Problem = components['schemas']['Problem']
/** The stable error codes. */
export type ErrorCode = components['schemas']['ErrorCode']

/** An answer that is not a success: the problem, its `code`, status and request id. */
export class PlainverseError extends Error {
  readonly status: number
  /** The problem's stable `code` (undefined when the body was not a problem document, e.g. a 304). */
  readonly code: ErrorCode | undefined
  readonly problem: Problem | undefined
  readonly requestId: string | undefined

  constructor(status: number, problem: Problem | undefined, requestId: string | undefined) {
    super(problem === undefined ? `HTTP ${status}` : `${problem.code}: ${problem.detail}`)
    this.name = 'PlainverseError'
    this.status = status
    this.problem = problem
    this.code = problem?.code
    this.requestId = requestId
  }
}

/** How the client is built. */
export interface PlainverseClientOptions {
  /** PUBLIC_BASE_URL of the server, e.g. `https://api.example.org`. */
  readonly baseUrl: string
  /** An API key (`pv_...`), sent as `X-API-Key`. */
  readonly apiKey?: string
  /** An identity-provider token, sent as `Authorization: Bearer` (ignored when `apiKey` is set). */
  readonly identityToken?: string
  /** Retries of a 429 (default 2). */
  readonly maxRetries?: number
  /** The longest `Retry-After` worth waiting for (default 60 seconds). */
  readonly maxRetryAfterSeconds?: number
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof fetch
  /** How to wait (default: a timer); tests may pass their own. */
  readonly sleep?: (ms: number) => Promise<void>
}

/** Sends an API key as `X-API-Key`. */
export function apiKeyAuth(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('X-API-Key', apiKey)
      return request
    },
  }
}

/** Sends an identity-provider token as `Authorization: Bearer`. */
export function identityTokenAuth(token: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${token}`)
      return request
    },
  }
}

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}

/** A fetch that retries a 429 after its Retry-After, within the options' limits. */
function retryingFetch(options: PlainverseClientOptions): typeof fetch {
  const base = options.fetch ?? globalThis.fetch
  const maxRetries = options.maxRetries ?? 2
  const maxWait = options.maxRetryAfterSeconds ?? 60
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      // A Request's body can be read once: send a copy each time.
      const response = await base(input instanceof Request ? input.clone() : input, init)
      if (response.status !== 429 || attempt >= maxRetries) return response
      const wait = retryAfterSeconds(response.headers.get('retry-after'))
      if (wait === undefined || wait > maxWait) return response
      await response.body?.cancel()
      await sleep(wait * 1000)
    }
  }
}

/** Builds a client for the whole API. */
export function createPlainverseClient(options: PlainverseClientOptions): Client<paths> {
  const client = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: retryingFetch(options) })
  if (options.apiKey !== undefined) client.use(apiKeyAuth(options.apiKey))
  else if (options.identityToken !== undefined) client.use(identityTokenAuth(options.identityToken))
  return client
}

/** What openapi-fetch resolves a call with. */
interface FetchOutcome<T> {
  readonly data?: T
  readonly error?: unknown
  readonly response: Response
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string'
}

/**
 * The body of a successful answer.
 * @throws PlainverseError for any other answer, with the problem's `code`.
 */
export async function unwrap<T>(call: Promise<FetchOutcome<T>>): Promise<T> {
  const { data, error, response } = await call
  if (response.ok && error === undefined) return data as T
  throw new PlainverseError(response.status, isProblem(error) ? error : undefined, response.headers.get('x-request-id') ?? undefined)
}
