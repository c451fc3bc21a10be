/**
 * Authentication of API-key requests: find the key, verify it (cache first), enforce its
 * domain restriction. Runs before request validation, as the check order requires. The one
 * owner of the `request.apiKey` decoration: `registerApiKeyAuth` declares it and gives routes
 * the hook that sets it and `requireApiKey` that reads it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { AppError } from '../errors.js'
import { credentialOf, WWW_AUTHENTICATE } from './credentials.js'
import { hostAllowed, hostOf } from './domains.js'
import type { KeyCheck, KeyVerifier } from './key-verifier.js'
import type { KeyRecord } from './keys.repository.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified API key, on routes that authenticate one. */
    apiKey?: KeyRecord
  }
}

const REASONS = {
  malformed: 'The API key is malformed: keys look like pv_ followed by 36 letters and digits.',
  unknown: 'The API key is not known.',
  revoked: 'The API key has been revoked.',
} as const

/**
 * The verified key of a request, without a promise when the answer is in memory (the common
 * case); undefined when the database must be asked (use `authenticateApiKey`).
 * @throws AppError missing_credentials (401), invalid_api_key or domain_not_allowed (403).
 */
function authenticateApiKeyCached(request: FastifyRequest, verifier: KeyVerifier): KeyRecord | undefined {
  const presented = presentedKey(request)
  const result = verifier.verifyCached(presented)
  return result === undefined ? undefined : accept(request, result)
}

/**
 * The verified key of a request.
 * @throws AppError missing_credentials (401), invalid_api_key or domain_not_allowed (403).
 */
async function authenticateApiKey(request: FastifyRequest, verifier: KeyVerifier): Promise<KeyRecord> {
  return checkKey(request, verifier, presentedKey(request))
}

function presentedKey(request: FastifyRequest): string {
  const credential = credentialOf(request.headers)
  if (credential === undefined) {
    throw new AppError('missing_credentials', 'An API key is required: send X-API-Key: <key> or Authorization: Bearer <key>.', {
      headers: { 'www-authenticate': WWW_AUTHENTICATE },
    })
  }
  if (credential.kind !== 'api-key') throw new AppError('invalid_api_key', REASONS.malformed)
  return credential.value
}

/** Verifies a presented key and its domain restriction. */
export async function checkKey(request: FastifyRequest, verifier: KeyVerifier, presented: string): Promise<KeyRecord> {
  return accept(request, await verifier.verify(presented))
}

/** Turns a verification result into the key, enforcing its domain restriction. */
function accept(request: FastifyRequest, result: KeyCheck): KeyRecord {
  if (!result.ok) throw new AppError('invalid_api_key', REASONS[result.reason])
  const key = result.key
  if (key.allowedDomains.length > 0) {
    const origin = request.headers.origin
    const host = hostOf(origin ?? (Array.isArray(request.headers.referer) ? undefined : request.headers.referer))
    if (host === undefined || !hostAllowed(host, key.allowedDomains)) {
      throw new AppError(
        'domain_not_allowed',
        host === undefined
          ? 'This key is restricted to some domains and the request has no usable Origin or Referer header.'
          : `This key may not be used from ${host}.`,
      )
    }
  }
  return key
}

/** What routes get from the plugin. */
export interface ApiKeyAuth {
  /**
   * The onRequest hook of routes that need an API key: a callback hook with a synchronous
   * fast path, so that a cached key costs no promise. It sets `request.apiKey`.
   */
  readonly authenticate: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
  /**
   * The fast path of `authenticate` alone: the verified key when memory can answer (it sets
   * `request.apiKey`), undefined when the database must be asked (use `authenticate`).
   * @throws AppError missing_credentials (401), invalid_api_key or domain_not_allowed (403).
   */
  readonly authenticateNow: (request: FastifyRequest) => KeyRecord | undefined
}

/**
 * Declares `request.apiKey` on the app (once, up front: V8 deoptimizes request objects that
 * gain properties later, which costs the hot path dearly) and returns the hook that sets it.
 * @example const auth = registerApiKeyAuth(app, services.keyVerifier); app.route({ ..., onRequest: auth.authenticate })
 */
export function registerApiKeyAuth(app: FastifyInstance, verifier: KeyVerifier): ApiKeyAuth {
  app.decorateRequest('apiKey', undefined)
  const authenticateNow = (request: FastifyRequest): KeyRecord | undefined => {
    const cached = authenticateApiKeyCached(request, verifier)
    if (cached !== undefined) request.apiKey = cached
    return cached
  }
  return {
    authenticateNow,
    authenticate(request, _reply, done) {
      let cached: KeyRecord | undefined
      try {
        cached = authenticateNow(request)
      } catch (error) {
        return done(error as Error)
      }
      if (cached !== undefined) return done()
      authenticateApiKey(request, verifier).then(
        (key) => {
          request.apiKey = key
          done()
        },
        (error: Error) => done(error),
      )
    },
  }
}

/**
 * The key that the `authenticate` hook verified. A route that reads it without the hook is a
 * programming error, reported as one (500), never as a client's fault.
 */
export function requireApiKey(request: FastifyRequest): KeyRecord {
  const key = request.apiKey
  if (key === undefined) throw new Error(`${request.method} ${request.routeOptions.url ?? ''}: the route reads the API key without the authenticate hook`)
  return key
}
