/**
 * Which credential a request carries: `X-API-Key`, or a Bearer value starting with `pv_`,
 * is an API key; any other Bearer value is an identity-provider token.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { KEY_PREFIX } from './key-format.js'

/** A credential found in the headers. */
export type Credential = { readonly kind: 'api-key'; readonly value: string } | { readonly kind: 'token'; readonly value: string }

/** The credential of a request, if any. */
export function credentialOf(headers: IncomingHttpHeaders): Credential | undefined {
  const header = headers['x-api-key']
  const apiKey = Array.isArray(header) ? header[0] : header
  if (apiKey !== undefined && apiKey.trim() !== '') return { kind: 'api-key', value: apiKey.trim() }
  const authorization = headers.authorization
  const match = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  const bearer = match?.[1]
  if (bearer === undefined) return undefined
  return bearer.startsWith(KEY_PREFIX) ? { kind: 'api-key', value: bearer } : { kind: 'token', value: bearer }
}

/** The challenge sent with 401 responses. */
export const WWW_AUTHENTICATE = 'Bearer realm="plainverse", ApiKey realm="plainverse", header="X-API-Key"'
