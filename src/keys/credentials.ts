/**
 * Which credential a request carries: `X-API-Key`, or a Bearer value starting with `pv_`,
 * is an API key; any other Bearer value is an identity-provider token.
 *
 * Both headers at once (some generated clients send their one credential in both): the same
 * value twice is one credential, recognised by its shape; two different values make
 * `X-API-Key` the credential and the Bearer value is ignored (the contract's "Both headers at
 * once").
 */
import type { IncomingHttpHeaders } from 'node:http'
import { KEY_PREFIX } from './key-format.js'

/** A credential found in the headers. */
export type Credential = { readonly kind: 'api-key'; readonly value: string } | { readonly kind: 'token'; readonly value: string }

function byShape(value: string): Credential {
  return value.startsWith(KEY_PREFIX) ? { kind: 'api-key', value } : { kind: 'token', value }
}

/** The credential of a request, if any. */
export function credentialOf(headers: IncomingHttpHeaders): Credential | undefined {
  const header = headers['x-api-key']
  return credentialFrom(Array.isArray(header) ? header[0] : header, headers.authorization)
}

/** The credential of a request from its `X-API-Key` and `Authorization` values, if any. */
export function credentialFrom(apiKeyHeader: string | undefined, authorization: string | undefined): Credential | undefined {
  const apiKey = apiKeyHeader?.trim()
  const bearer = (authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization))?.[1]
  if (apiKey === undefined || apiKey === '') return bearer === undefined ? undefined : byShape(bearer)
  return apiKey === bearer ? byShape(apiKey) : { kind: 'api-key', value: apiKey }
}

/** The challenge sent with 401 responses where an API key is wanted. */
export const WWW_AUTHENTICATE = 'Bearer realm="plainverse", ApiKey realm="plainverse", header="X-API-Key"'
