/**
 * CORS for the public API: any origin may call it (credentials are headers, never cookies),
 * and browsers may read the caching and rate-limit headers.
 */
import type { FastifyInstance } from 'fastify'

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

/**
 * Adds CORS headers to /api/v1 responses to cross-origin requests (those with an `Origin`
 * header; the answer does not depend on which origin, so no `Vary` is needed).
 */
export function installCors(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request and needs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers.origin !== undefined && request.url.startsWith('/api/v1/')) {
      reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED)
    }
    done()
  })
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
