/**
 * The error catalogue and the one handler that turns every failure into an RFC 9457
 * problem details response with a stable `code`.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { components } from '../generated/api-types.js'
import { isDatabaseUnavailable } from './infra/database-errors.js'
import { CounterUnavailableError } from './quotas/counter.js'
import { pathOf } from './http/url-path.js'

export type ErrorCode = components['schemas']['ErrorCode']
export type Problem = components['schemas']['Problem']

interface CatalogueEntry {
  readonly status: number
  readonly title: string
  /** What the code means, for the problem type's documentation. */
  readonly description: string
}

/** Every error the API can return. Codes are stable: never reuse or repurpose one. */
export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, CatalogueEntry>> = Object.freeze({
  invalid_parameter: { status: 400, title: 'Invalid parameter', description: 'A path, query, header or body value is missing or does not match the contract.' },
  missing_credentials: {
    status: 401,
    title: 'Credentials required',
    description:
      'The request carries no API key (or, for key management, no identity-provider token; for /metrics, no metrics token). Send X-API-Key: <key> or Authorization: Bearer <key>.',
  },
  invalid_token: {
    status: 401,
    title: 'Invalid token',
    description:
      'The identity-provider token is malformed, expired, not yet valid, signed with an unexpected key or algorithm, for another issuer or audience, or not a signed-in user.',
  },
  operator_only: {
    status: 403,
    title: 'Operator only',
    description:
      'The identity token is valid but does not carry the operator claim (OPERATOR_CLAIM, OPERATOR_CLAIM_VALUE) that the operator operations require.',
  },
  invalid_api_key: { status: 403, title: 'Invalid API key', description: 'The API key is malformed, unknown or revoked.' },
  domain_not_allowed: {
    status: 403,
    title: 'Domain not allowed',
    description: "The key is restricted to some domains and the request's Origin (or Referer) is not one of them.",
  },
  verse_not_found: { status: 404, title: 'Verse not found', description: 'No verse of the KJV exists for the slug.' },
  book_not_found: { status: 404, title: 'Book not found', description: 'No book of the KJV matches this name, slug or abbreviation.' },
  narrative_not_found: { status: 404, title: 'Narrative not found', description: 'No gospel narrative has this slug; list them at /api/v1/narratives.' },
  passage_not_found: {
    status: 404,
    title: 'Passage not found',
    description:
      'The reference names no verse of the KJV. Use a passage slug such as john-3-16-18 or psalms-23, or a reference such as "1 Cor 13:4-7"; /api/v1/resolve shows how a text is read.',
  },
  passage_too_long: { status: 400, title: 'Passage too long', description: 'A passage may hold at most 200 verses; ask for a longer one in parts.' },
  origin_not_allowed: {
    status: 403,
    title: 'Origin not allowed',
    description:
      'Browser requests to the MCP endpoint are accepted only from the origin of PUBLIC_BASE_URL and the origins in MCP_ALLOWED_ORIGINS (protection against DNS rebinding).',
  },
  key_not_found: { status: 404, title: 'Key not found', description: 'No active key with this id belongs to your account.' },
  not_found: { status: 404, title: 'Not found', description: 'No resource exists at this path.' },
  method_not_allowed: { status: 405, title: 'Method not allowed', description: 'The path exists but does not accept this HTTP method; see the Allow header.' },
  key_limit_reached: { status: 409, title: 'Key limit reached', description: 'The account already holds the maximum number of active keys; revoke one first.' },
  payload_too_large: { status: 413, title: 'Payload too large', description: 'The request body is larger than the server accepts.' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type', description: 'The request body must be sent as application/json.' },
  quota_exceeded: {
    status: 429,
    title: 'Quota exceeded',
    description: 'The key has used its monthly allowance; it resets at the start of the next month (UTC). See Retry-After.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    description:
      'More requests in one second than allowed: per key on the routes that take an API key (by tier), per client address on the others. Wait for Retry-After (1 second) and spread requests out.',
  },
  internal_error: { status: 500, title: 'Internal error', description: 'An unexpected error; it has been logged. Retrying may help.' },
  not_ready: {
    status: 503,
    title: 'Not ready',
    description: 'The service is starting or shutting down, or its database or quota counter does not answer. Retry after Retry-After seconds.',
  },
  sign_in_not_configured: {
    status: 503,
    title: 'Sign-in not configured',
    description:
      'This server has no identity provider configured: set AUTH_JWKS_URL or AUTH_JWT_SECRET (see README). Configuration, not a passing state: no Retry-After.',
  },
  quota_backend_unavailable: {
    status: 503,
    title: 'Quota backend unavailable',
    description:
      'The quota counter (Redis) does not answer, or a counter it lost is being rebuilt from the usage ledger. Nothing was served or counted; retry after Retry-After seconds.',
  },
  database_unavailable: {
    status: 503,
    title: 'Database unavailable',
    description:
      'The database does not answer (it is restarting, failing over or overloaded). Nothing was changed or counted; retry after Retry-After seconds.',
  },
  identity_provider_unavailable: {
    status: 503,
    title: 'Identity provider unavailable',
    description:
      "The identity provider's signing keys (AUTH_JWKS_URL) cannot be fetched, so no token can be checked; the token itself may be fine. Retry after Retry-After seconds.",
  },
  malformed_request: {
    status: 400,
    title: 'Malformed request',
    description: 'The bytes received are not a valid HTTP/1.1 request (a bad request line, header or chunk). The connection is closed.',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    description:
      'The request headers or the whole request did not arrive within the limits of the server (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS). The connection is closed; send the request again.',
  },
  invalid_metrics_token: {
    status: 403,
    title: 'Invalid metrics token',
    description: "The Bearer credential sent to /metrics is not the server's METRICS_TOKEN.",
  },
  request_header_fields_too_large: {
    status: 431,
    title: 'Request header fields too large',
    description: 'The request headers are larger than the server accepts (16 KiB in all). The connection is closed.',
  },
})

/** Seconds a client is asked to wait when a backend is unavailable: long enough for a restart or failover to make progress. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2

/** One failed check inside an invalid request. */
export interface FieldError {
  readonly location: string
  readonly message: string
}

/** An error the API reports to its client; anything else becomes `internal_error`. */
export class AppError extends Error {
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: {
      readonly errors?: readonly FieldError[]
      readonly headers?: Readonly<Record<string, string>>
      /** Extra members of the problem body (RFC 9457 extensions), e.g. the violated policy. */
      readonly extensions?: Readonly<Record<string, string | number>>
    } = {},
  ) {
    super(detail)
    this.name = 'AppError'
    this.status = ERROR_CATALOGUE[code].status
  }
}

/** The URI of a problem type: `{PUBLIC_BASE_URL}/problems/quota-exceeded`; it serves a page describing it. */
export function problemType(baseUrl: string, code: ErrorCode): string {
  return `${baseUrl}/problems/${code.replace(/_/g, '-')}`
}

/** The code a problem-type path segment names, if any. */
export function codeOfProblemType(segment: string): ErrorCode | undefined {
  const code = segment.replace(/-/g, '_')
  return Object.hasOwn(ERROR_CATALOGUE, code) ? (code as ErrorCode) : undefined
}

/** Builds the problem document for a code. */
export function problemBody(
  baseUrl: string,
  code: ErrorCode,
  detail: string,
  instance?: string,
  errors?: readonly FieldError[],
  extensions: Readonly<Record<string, string | number>> = {},
): Problem {
  const entry = ERROR_CATALOGUE[code]
  return {
    ...extensions,
    type: problemType(baseUrl, code),
    title: entry.title,
    status: entry.status,
    detail,
    code,
    ...(instance === undefined ? {} : { instance }),
    ...(errors === undefined || errors.length === 0 ? {} : { errors: [...errors] }),
  }
}

/** Sends a problem response; the single place where error bodies are written. */
export function sendProblem(reply: FastifyReply, request: FastifyRequest, baseUrl: string, error: AppError): FastifyReply {
  for (const [name, value] of Object.entries(error.options.headers ?? {})) reply.header(name, value)
  // RFC 9110 section 11.6.1: every 401 names a scheme. Errors that know a better challenge set their own.
  if (error.status === 401 && !reply.hasHeader('www-authenticate')) reply.header('www-authenticate', identityChallenge(error.code))
  return reply
    .code(error.status)
    .type('application/problem+json')
    .send(
      JSON.stringify(
        problemBody(baseUrl, error.code, error.detail, request.url.slice(0, 2048), error.options.errors, {
          ...error.options.extensions,
          request_id: request.id,
        }),
      ),
    )
}

/**
 * The challenge of a 401 about an identity token (RFC 6750 section 3): the scheme, and
 * `error="invalid_token"` when a token was sent and refused.
 */
export function identityChallenge(code: ErrorCode): string {
  return code === 'invalid_token' ? 'Bearer realm="plainverse", error="invalid_token"' : 'Bearer realm="plainverse"'
}

/** Fastify's own client errors (bad JSON, wrong content type, body too large) by code. */
const FASTIFY_CLIENT_ERRORS: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_parameter',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_parameter',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_parameter',
  FST_ERR_VALIDATION: 'invalid_parameter',
}

function toAppError(error: FastifyError): AppError | undefined {
  if (error instanceof AppError) return error
  if (error instanceof CounterUnavailableError) {
    return new AppError('quota_backend_unavailable', 'The quota counter does not answer; nothing was served or counted. Retry shortly.', {
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    })
  }
  if (isDatabaseUnavailable(error)) {
    return new AppError('database_unavailable', 'The database does not answer; retry shortly.', {
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    })
  }
  if (error.validation !== undefined) {
    const context = error.validationContext ?? 'request'
    const errors = error.validation.map((v) => {
      const path = v.instancePath.replace(/^\//, '')
      const missing = v.keyword === 'required' && typeof v.params.missingProperty === 'string' ? v.params.missingProperty : ''
      const location = [context, path, missing].filter((p) => p !== '').join('/')
      const allowed = v.keyword === 'enum' && Array.isArray(v.params.allowedValues) ? `: ${v.params.allowedValues.join(', ')}` : ''
      return { location, message: `${v.message ?? 'is invalid'}${allowed}` }
    })
    return new AppError('invalid_parameter', errors.map((e) => `${e.location} ${e.message}`).join('; '), { errors })
  }
  const code = error.code === undefined ? undefined : FASTIFY_CLIENT_ERRORS[error.code]
  if (code !== undefined) return new AppError(code, error.message)
  // Any other 4xx that Fastify raised itself (e.g. a malformed URL) is the client's error.
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('invalid_parameter', error.message)
  }
  return undefined
}

/** A route the app serves, with Fastify's `:param` syntax. */
export interface KnownRoute {
  readonly method: string
  readonly url: string
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public page: its errors are answered as HTML pages (HtmlErrorPages). */
    page?: boolean
  }
}

/** How errors look to a reader: the public pages' HTML for a problem and for a path that names nothing. */
export interface HtmlErrorPages {
  /** A problem as a page, for errors on page routes. */
  problem(problem: Pick<Problem, 'title' | 'status' | 'code' | 'detail'>, path: string): string
  /** The 404 page. */
  notFound(path: string): string
}

/** Whether the client asks for HTML (a browser or a crawler), not JSON. */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept
  return typeof accept === 'string' && accept.includes('text/html')
}

/**
 * Installs the one error handler and the not-found handler (404, or 405 with `Allow`). With
 * `pages`, errors on page routes are HTML pages, and so is a 404 for a client that asks for HTML.
 */
export function installErrorHandling(app: FastifyInstance, baseUrl: string, routes: readonly KnownRoute[], pages?: HtmlErrorPages): void {
  // Read at the first unmatched request: routes registered after this call (the preflights) count too.
  let compiled: { method: string; pattern: RegExp }[] | undefined
  const patterns = (): { method: string; pattern: RegExp }[] =>
    (compiled ??= routes.map((route) => ({
      method: route.method,
      pattern: new RegExp(`^${route.url.replace(/[.+*?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}$`),
    })))
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error)
    if (appError?.status === 503) request.log.warn({ err: error }, appError.detail)
    if (appError === undefined) request.log.error({ err: error }, 'unhandled error')
    const answer = appError ?? new AppError('internal_error', 'An unexpected error occurred. It has been logged.')
    if (pages !== undefined && request.routeOptions.config.page === true) {
      for (const [name, value] of Object.entries(answer.options.headers ?? {})) reply.header(name, value)
      const entry = ERROR_CATALOGUE[answer.code]
      const path = pathOf(request.url)
      return reply
        .code(answer.status)
        .type('text/html; charset=utf-8')
        .send(pages.problem({ title: entry.title, status: answer.status, code: answer.code, detail: answer.detail }, path))
    }
    return sendProblem(reply, request, baseUrl, answer)
  })
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url)
    const allowed = [
      ...new Set(
        patterns()
          .filter((p) => p.pattern.test(path))
          .map((p) => p.method),
      ),
    ]
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return sendProblem(
        reply,
        request,
        baseUrl,
        new AppError('method_not_allowed', `${request.method} is not allowed on this path.`, { headers: { allow: allowed.join(', ') } }),
      )
    }
    if (pages !== undefined && wantsHtml(request)) return reply.code(404).type('text/html; charset=utf-8').send(pages.notFound(path))
    return sendProblem(reply, request, baseUrl, new AppError('not_found', `No resource exists at ${path.slice(0, 200)}.`))
  })
}
