/**
 * The security headers of the pages, worked out once by helmet for a route's options. Helmet's
 * Fastify plugin builds a new middleware from the options on every request and adds two hooks
 * (one of them async) to every route of the app, the API's included; the headers only depend
 * on the options, so they are computed at start-up and written by a hook on the page routes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { onRequestHookHandler } from 'fastify'
import helmet, { type HelmetOptions } from 'helmet'

/** The headers helmet sets for these options, by lower-case name. */
export function securityHeaders(options: Readonly<HelmetOptions>): ReadonlyMap<string, string> {
  const headers = new Map<string, string>()
  // Helmet's middleware only sets and removes response headers; with static options it reads nothing of the request.
  const response = {
    setHeader(name: string, value: string | number | readonly string[]): void {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value))
    },
    removeHeader(name: string): void {
      headers.delete(name.toLowerCase())
    },
  }
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error !== undefined && error !== null) throw error
  })
  return headers
}

/** An onRequest hook that writes the security headers for these options on every answer of its route. */
export function securityHeadersHook(options: Readonly<HelmetOptions>): onRequestHookHandler {
  const headers = [...securityHeaders(options)]
  return (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value)
    done()
  }
}
