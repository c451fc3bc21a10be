/**
 * The app's node:http server, made here rather than by Fastify (its `serverFactory`) so that
 * a handler can stand in front of Fastify's: the verse lane (verses/verse.lane.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { HttpLimits } from '../config.js'

/** A handler in front of Fastify's: answers a request itself or passes it to `next`. */
export type FrontHandler = (request: IncomingMessage, response: ServerResponse, next: (request: IncomingMessage, response: ServerResponse) => void) => void

/** Hands every request to Fastify. */
export const NO_FRONT: FrontHandler = (request, response, next) => next(request, response)

/**
 * Fastify's `serverFactory`: a server with the limits Fastify would set from its own options
 * (see HttpLimits), `front` before Fastify's handler. Fastify calls it once per address it
 * listens on.
 * @example Fastify({ serverFactory: serverFactory(lane.handle, config.http) })
 */
export function serverFactory(front: FrontHandler, limits: HttpLimits): (handler: (request: IncomingMessage, response: ServerResponse) => void) => Server {
  return (handler) => {
    const server = createServer(
      // Node checks the headers and request timeouts on this interval (30 s by default, longer than the limits themselves).
      { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs) },
      (request, response) => front(request, response, handler),
    )
    // Slow or idle clients cannot hold sockets: see HttpLimits.
    server.keepAliveTimeout = limits.keepAliveTimeoutMs
    server.requestTimeout = limits.requestTimeoutMs
    server.setTimeout(limits.idleTimeoutMs)
    server.maxConnections = limits.maxConnections
    return server
  }
}
