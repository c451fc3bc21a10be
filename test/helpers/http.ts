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

/** fetch() against a listening server, checked against the contract. */
export async function fetchChecked(t: Asserter, baseUrl: string, path: string, init: RequestInit = {}): Promise<FetchedResponse> {
  const response = await fetch(new URL(path, baseUrl), init)
  const body = await response.text()
  const violations = contractViolations({
    method: init.method ?? 'GET',
    url: path,
    status: response.status,
    headers: Object.fromEntries(response.headers.entries()),
    body,
  })
  if (violations.length > 0) t.fail(`contract: ${violations.join('; ')}`)
  return { status: response.status, headers: response.headers, body, json: <T>() => JSON.parse(body) as T }
}
