/**
 * Request ids: the one a caller or a proxy sent in `X-Request-Id` when it is safe to echo and
 * to log (1 to 128 characters of a small alphabet, so no log or header injection), otherwise
 * a random UUID.
 */
import { randomUUID } from 'node:crypto'

const SANE = /^[A-Za-z0-9._:-]{1,128}$/u

/**
 * The id of a request, from its X-Request-Id header value.
 * @example requestIdOf('abc-123') // 'abc-123'; requestIdOf('a b') // a random UUID
 */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE.test(header) ? header : randomUUID()
}
