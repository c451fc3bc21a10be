/**
 * CORS for the public API: any origin may call it (credentials are headers, never cookies),
 * and browsers may read the caching and rate-limit headers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

const EXPOSED = [
  'ETag',
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'WWW-Authenticate',
].join(', ')
const ALLOWED_HEADERS = 'X-API-Key, Authorization, If-None-Match, Content-Type'

/** The CORS fields of an API response to a cross-origin request, as a flat list of names and values. */
export const API_CORS_HEADERS: readonly string[] = Object.freeze(['access-control-allow-origin', '*', 'access-control-expose-headers', EXPOSED])

/**
 * Adds CORS headers to a /api/v1 response to a cross-origin request (one with an `Origin`
 * header; the answer does not depend on which origin, so no `Vary` is needed). Called by the
 * app's one onRequest hook for every request.
 */
export function addCorsHeaders(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.origin !== undefined && request.url.startsWith('/api/v1/')) {
    for (let i = 0; i < API_CORS_HEADERS.length; i += 2) reply.header(API_CORS_HEADERS[i] ?? '', API_CORS_HEADERS[i + 1] ?? '')
  }
}

/** The preflight answer for a path whose methods are `methods`. */
export function preflightHeaders(methods: readonly string[] = ['GET']): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '86400',
  }
}

/**
 * Registers the preflight of a contract route's path, answering 204 without credentials. The
 * preflights are not operations of the contract: its description states them once (CORS).
 */
export function registerPreflight(app: FastifyInstance, route: { readonly url: string }, methods: readonly string[]): void {
  const headers = preflightHeaders(methods)
  app.route({ method: 'OPTIONS', url: route.url, handler: (_request, reply) => reply.code(204).headers(headers).send() })
}
