/**
 * The HTTP server's own limits, over raw sockets as a misbehaving client would use them:
 * bytes that are not HTTP, oversized headers and headers that never finish each get a
 * problem body with a stable code and a closed connection; the connection cap refuses the
 * connection beyond it; and the server keeps serving afterwards.
 */
import { connect, type Socket } from 'node:net'
import t, { type Test } from 'tap'
import { ERROR_CATALOGUE, type Problem } from '../../src/errors.js'
import { buildTestApp } from '../helpers/app.js'
import { contractViolations } from '../helpers/contract.js'
import { fetchChecked } from '../helpers/http.js'
import { listening } from '../helpers/mcp.js'

interface RawAnswer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
  /** Whether the server closed the connection. */
  readonly closed: boolean
}

/** Opens a socket to `base`, writes `chunks` (nothing more), and collects what comes back until the server closes. */
async function raw(base: string, chunks: readonly string[]): Promise<RawAnswer> {
  const { port } = new URL(base)
  const socket: Socket = connect(Number(port), '127.0.0.1')
  let received = ''
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk))
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  for (const chunk of chunks) socket.write(chunk)
  const closed = await new Promise<boolean>((resolve) => {
    socket.once('close', () => resolve(true))
    socket.once('error', () => resolve(true))
  })
  const [head = '', body = ''] = received.split('\r\n\r\n', 2)
  const [statusLine = '', ...headerLines] = head.split('\r\n')
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
  return { status: Number(statusLine.split(' ')[1]), headers, body, closed }
}

/** Checks an answer is the problem for `code`, valid against the contract, on a closed connection. */
function isProblem(t: Test, answer: RawAnswer, code: keyof typeof ERROR_CATALOGUE): void {
  t.equal(answer.status, ERROR_CATALOGUE[code].status, `status of ${code}`)
  t.equal(answer.headers['content-type'], 'application/problem+json')
  t.equal(answer.headers.connection, 'close')
  const problem = JSON.parse(answer.body) as Problem
  t.equal(problem.code, code)
  t.equal(problem.status, answer.status)
  t.equal(problem.title, ERROR_CATALOGUE[code].title)
  t.same(
    contractViolations({ method: 'GET', url: '/a/path/the/contract/lacks', status: answer.status, headers: answer.headers, body: answer.body }),
    [],
    'the generic problem of the contract',
  )
  t.ok(answer.closed, 'the connection is closed')
}

t.test('client errors before routing are problem documents, and the server keeps serving', async (t) => {
  const testApp = await buildTestApp(t, { env: { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '30000' } })
  const base = await listening(testApp.app)

  isProblem(t, await raw(base, ['NOT HTTP AT ALL\r\n\r\n']), 'malformed_request')
  isProblem(t, await raw(base, ['GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n']), 'malformed_request')
  isProblem(t, await raw(base, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`]), 'request_header_fields_too_large')
  // Headers that never finish: the server answers once HTTP_HEADERS_TIMEOUT_MS has passed.
  isProblem(t, await raw(base, ['GET /healthz HTTP/1.1\r\nHost: x\r\n']), 'request_timeout')

  const ok = await fetchChecked(t, base, '/healthz')
  t.equal(ok.status, 200, 'the server still answers')
})

t.test('a socket that reads and writes nothing for HTTP_IDLE_TIMEOUT_MS is closed; one that keeps sending is not', async (t) => {
  // Long enough that a request trickling in every 100 ms is not taken for silent even when a
  // loaded machine delays its timers by a good deal.
  const idleMs = 2_000
  // The headers and request timeouts far away, so that only the idle time can close these sockets.
  const testApp = await buildTestApp(t, { env: { HTTP_IDLE_TIMEOUT_MS: String(idleMs), HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '60000' } })
  const base = await listening(testApp.app)

  const started = performance.now()
  const silent = await raw(base, [])
  t.ok(silent.closed, 'a socket that sends nothing is closed')
  t.ok(performance.now() - started >= idleMs, 'not before the idle time')
  t.equal(silent.body, '', 'without an answer (there was no request)')

  // A request whose header lines arrive one every 100 ms for longer than the idle time: slow, never silent.
  const lines = ['GET /healthz HTTP/1.1\r\n', 'Host: x\r\n', ...Array.from({ length: 30 }, (_, n) => `X-Line-${n}: ${n}\r\n`), 'Connection: close\r\n\r\n']
  const { port } = new URL(base)
  const slow = connect(Number(port), '127.0.0.1')
  t.teardown(() => slow.destroy())
  let received = ''
  slow.setEncoding('utf8').on('data', (chunk: string) => (received += chunk))
  const closed = new Promise<void>((resolve) => slow.once('close', () => resolve()))
  await new Promise<void>((resolve, reject) => slow.once('connect', resolve).once('error', reject))
  for (const line of lines) {
    if (slow.destroyed) break
    slow.write(line)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await closed
  t.match(received, /^HTTP\/1\.1 200 /, 'the slow request was answered, not closed as idle')
})

t.test('connections beyond HTTP_MAX_CONNECTIONS are refused; the ones inside are served', async (t) => {
  const testApp = await buildTestApp(t, { env: { HTTP_MAX_CONNECTIONS: '2' } })
  const base = await listening(testApp.app)
  const { port } = new URL(base)
  const open: Socket[] = []
  t.teardown(() => open.forEach((s) => s.destroy()))
  for (let i = 0; i < 2; i++) {
    const socket = connect(Number(port), '127.0.0.1')
    await new Promise<void>((resolve) => socket.once('connect', resolve))
    open.push(socket)
  }
  // Node accepts the TCP connection and closes it at once; nothing is answered on it.
  const refused = await raw(base, ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'])
  t.ok(refused.closed, 'the third connection is closed')
  t.equal(refused.body, '', 'and not served')
  open.forEach((s) => s.destroy())
  // The server notices the closed sockets in its own time; then a new connection is served.
  let served = await raw(base, ['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'])
  while (served.body === '') {
    await new Promise((r) => setTimeout(r, 20))
    served = await raw(base, ['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'])
  }
  t.equal(served.status, 200, 'a connection under the cap is served')
  t.same(contractViolations({ method: 'GET', url: '/healthz', ...served }), [], 'and answered as the contract says')
})

t.test('the limits are configuration, validated at start-up', async (t) => {
  const { loadConfig } = await import('../../src/config.js')
  t.same(loadConfig({}).http, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, idleTimeoutMs: 60_000, maxConnections: 10_000 })
  t.throws(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000' }), /HTTP_HEADERS_TIMEOUT_MS/)
  t.throws(() => loadConfig({ HTTP_MAX_CONNECTIONS: '0' }), /HTTP_MAX_CONNECTIONS/)
})
