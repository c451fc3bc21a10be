/**
 * The app's node:http server, made here rather than by Fastify (its `serverFactory`) so that
 * a handler can stand in front of Fastify's: the verse lane (verses/verse.lane.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
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
    closeIdleSockets(server, limits.idleTimeoutMs)
    server.maxConnections = limits.maxConnections
    return server
  }
}

/** How often, in parts of the idle time, the idle sockets are looked for. */
const SWEEPS_PER_IDLE_TIME = 4

/**
 * Closes the server's sockets that have read and written nothing for `idleMs`
 * (HTTP_IDLE_TIMEOUT_MS), looking at their byte counts every quarter of that time: a silent
 * socket closes between `idleMs` and 1.25 × `idleMs` after its last byte.
 *
 * Why not `server.setTimeout(idleMs)`, which does the same with a timer per socket: Node then
 * arms that timer again for every request and refreshes it on every read and write, about half
 * a microsecond of each verse lookup (README, Benchmark); a look at the counters every few
 * seconds costs nothing per request. Keep-alive connections waiting for their next request
 * still close after HTTP_KEEP_ALIVE_TIMEOUT_MS, by Node's own timer.
 */
function closeIdleSockets(server: Server, idleMs: number): void {
  /** Per open socket: its bytes read and written when last looked at, and since when they have not changed. */
  const seen = new Map<Socket, { bytes: number; quietSince: number }>()
  server.on('connection', (socket: Socket) => {
    seen.set(socket, { bytes: 0, quietSince: performance.now() })
    socket.once('close', () => seen.delete(socket))
  })
  const sweep = (): void => {
    const now = performance.now()
    for (const [socket, last] of seen) {
      const bytes = socket.bytesRead + socket.bytesWritten
      if (bytes !== last.bytes) {
        last.bytes = bytes
        last.quietSince = now
      } else if (now - last.quietSince >= idleMs) socket.destroy()
    }
  }
  let timer: NodeJS.Timeout | undefined
  server.on('listening', () => {
    clearInterval(timer)
    timer = setInterval(sweep, Math.max(1, Math.ceil(idleMs / SWEEPS_PER_IDLE_TIME))).unref()
  })
  server.on('close', () => clearInterval(timer))
}
