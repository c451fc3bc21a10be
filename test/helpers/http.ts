/**
 * Requests that are checked against the contract: `call()` for app.inject() and
 * `fetchChecked()` for a real listening server.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { contractViolations } from './contract.js'

/** The subset of tap's Test used here, so helpers work with any test object. */
export interface Asserter {
  fail(message: string): void
  pass(message: string): void
}

/**
 * Injects a request and fails the test if the response departs from the contract.
 * @example const res = await call(t, app, { url: '/api/v1/verse/john-3-16' })
 */
export async function call(t: Asserter, app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  const response = await app.inject(options)
  const violations = contractViolations({
    method: options.method ?? 'GET',
    url: typeof options.url === 'string' ? options.url : String(options.path ?? '/'),
    status: response.statusCode,
    headers: response.headers,
    body: response.body,
  })
  if (violations.length > 0) t.fail(`contract: ${violations.join('; ')}`)
  return response
}

/** A response from a real server, with its body read as text. */
export interface FetchedResponse {
  readonly status: number
  readonly headers: Headers
  readonly body: string
  json<T>(): T
}

/** Fails the test with every way a fetched response departs from the contract. */
function checkFetched(t: Asserter, method: string, url: URL, response: Response, body: string): void {
  const violations = contractViolations({
    method,
    url: `${url.pathname}${url.search}`,
    status: response.status,
    headers: Object.fromEntries(response.headers.entries()),
    body,
  })
  if (violations.length > 0) t.fail(`contract: ${violations.join('; ')}`)
}

/** fetch() against a listening server, checked against the contract. */
export async function fetchChecked(t: Asserter, baseUrl: string, path: string, init: RequestInit = {}): Promise<FetchedResponse> {
  const url = new URL(path, baseUrl)
  const response = await fetch(url, init)
  const body = await response.text()
  checkFetched(t, init.method ?? 'GET', url, response, body)
  return { status: response.status, headers: response.headers, body, json: <T>() => JSON.parse(body) as T }
}

/**
 * A fetch() whose every response is checked against the contract, for clients that make their
 * own requests (the MCP SDK's transport: `new StreamableHTTPClientTransport(url, { fetch })`).
 * The body is read whole, then handed on unchanged.
 */
export function checkedFetch(t: Asserter): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init = {}) => {
    const url = new URL(input)
    const response = await fetch(url, init)
    const body = await response.text()
    checkFetched(t, init.method ?? 'GET', url, response, body)
    const empty = response.status === 204 || response.status === 304 || (init.method ?? 'GET').toUpperCase() === 'HEAD'
    return new Response(empty ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}

/** What {@link checkPageResponses} reads of a browser page (playwright-core's Page). */
interface BrowserPage {
  on(event: 'response', listener: (response: BrowserResponse) => void): unknown
}
interface BrowserResponse {
  url(): string
  status(): number
  headers(): Record<string, string>
  text(): Promise<string>
  request(): { method(): string }
}

/**
 * Checks every response a browser page receives from `baseUrl` (navigations, form posts,
 * scripts, styles) against the contract. Returns a function that resolves, once the page is
 * done, to the violations found (read bodies included), for the test to assert empty.
 */
export function checkPageResponses(page: BrowserPage, baseUrl: string): () => Promise<string[]> {
  const pending: Array<Promise<string[]>> = []
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (url.origin !== new URL(baseUrl).origin) return
    const status = response.status()
    const method = response.request().method()
    // A browser keeps no body of a redirect; the contract declares none for them either.
    const body = status >= 300 && status < 400 ? Promise.resolve('') : response.text().catch(() => '')
    pending.push(body.then((text) => contractViolations({ method, url: `${url.pathname}${url.search}`, status, headers: response.headers(), body: text })))
  })
  return async () => (await Promise.all(pending)).flat()
}
