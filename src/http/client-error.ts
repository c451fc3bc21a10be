/**
 * The answer to bytes that never became a request (a malformed request line or header,
 * headers too large, a request that did not arrive in time): the same RFC 9457 problem body
 * as every other error, written straight to the socket because no request object exists,
 * then the connection is closed, as HTTP requires after a framing error.
 */
import type { Duplex } from 'node:stream'
import { STATUS_CODES } from 'node:http'
import { problemBody, type ErrorCode } from '../errors.js'

/** The problem code for a client error raised by Node's HTTP parser or server. */
function codeOf(error: Error & { code?: string }): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'request_header_fields_too_large'
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout'
  return 'malformed_request'
}

/**
 * Writes the problem response for a client error and closes the socket.
 * @example fastify({ clientErrorHandler: (error, socket) => writeClientError(socket, error, baseUrl) })
 */
export function writeClientError(socket: Duplex, error: Error & { code?: string }, baseUrl: string): void {
  // A peer that reset or already closed the connection cannot be answered.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const code = codeOf(error)
  const detail =
    code === 'request_timeout'
      ? 'The request did not arrive in time.'
      : code === 'request_header_fields_too_large'
        ? 'The request headers are too large.'
        : 'The request is not valid HTTP/1.1.'
  const problem = problemBody(baseUrl, code, detail)
  const body = JSON.stringify(problem)
  const status = problem.status
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  )
}
