/**
 * The Origin rule of the MCP endpoint (DNS-rebinding protection, as the MCP transport
 * specification asks): a browser names the page's origin in `Origin` on every POST, so a
 * page that reached a local server through a rebound DNS name still shows its own origin.
 * Only the origin of PUBLIC_BASE_URL and MCP_ALLOWED_ORIGINS may call; requests without
 * `Origin` (MCP clients that are not browsers) pass. Allowed browser origins get CORS
 * headers naming them, never `*`.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { AppError } from '../errors.js'

/** Headers a browser may read from MCP responses. */
const EXPOSED = ['RateLimit', 'RateLimit-Policy', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'WWW-Authenticate'].join(
  ', ',
)
/** Request headers an MCP client in a browser sends. */
const ALLOWED_HEADERS = ['X-API-Key', 'Authorization', 'Content-Type', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'].join(', ')

/** The origins that may call the endpoint: PUBLIC_BASE_URL's and the configured ones. */
export function allowedOrigins(publicBaseUrl: string, configured: readonly string[]): ReadonlySet<string> {
  return new Set([new URL(publicBaseUrl).origin, ...configured])
}

/**
 * The onRequest hook: 403 `origin_not_allowed` for a browser origin that is not allowed; CORS
 * headers for one that is. Runs before authentication, so a rebinding page learns nothing.
 */
export function originHook(allowed: ReadonlySet<string>): (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  return (request, reply, done) => {
    const origin = request.headers.origin
    if (origin === undefined) return done()
    if (!allowed.has(serialized(origin))) {
      return done(
        new AppError(
          'origin_not_allowed',
          `Requests from the origin ${JSON.stringify(origin.slice(0, 200))} may not use the MCP endpoint; the server's operator can allow it in MCP_ALLOWED_ORIGINS.`,
        ),
      )
    }
    // The answer depends on the origin, so caches must keep them apart.
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin').header('access-control-expose-headers', EXPOSED)
    done()
  }
}

/** The origin in its serialized form (lower-case scheme and host, no default port); `null` and garbage stay as they are and match nothing. */
function serialized(origin: string): string {
  try {
    return new URL(origin).origin
  } catch {
    return origin
  }
}

/** The preflight answer (after `originHook` has accepted the origin, when there is one). */
export function mcpPreflightHeaders(): Record<string, string> {
  return {
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '86400',
  }
}
