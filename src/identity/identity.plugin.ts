/**
 * The Fastify adapter for identity tokens: registers @fastify/jwt with a key function that
 * chooses the key by the token's header, and gives every request `identity()`.
 *
 * The checks themselves live in IdentityVerifier; this file only wires them into @fastify/jwt:
 * - `secret` is the verifier's `keyFor` (HS256 → the secret, RS256/ES256 → the JWKS key by kid);
 * - the verify options are the verifier's (pinned algorithms, aud, iss, required claims,
 *   tolerance), passed on every call because fast-jwt fixes the clock when a verifier is built
 *   and ours is injectable. A per-call options object also makes @fastify/jwt build a fresh
 *   verifier each time instead of caching one per key string in a map that never shrinks;
 * - the token is read by the verifier's own `Authorization` parsing, and the header is checked
 *   (shape, alg) before @fastify/jwt runs, so its errors are only ever signature/claim failures,
 *   which the verifier turns into plain-worded AppErrors.
 * The plugin is registered under its own namespace so another use of @fastify/jwt in the app
 * (e.g. signing something) cannot collide with it or inherit these options.
 */
import fastifyJwt, { type JwtVerifyFunction } from '@fastify/jwt'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AuthConfig } from '../config.js'
import { verifyOptionsFor, type Identity, type IdentityVerifier } from './identity.service.js'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in user named by `Authorization: Bearer <token>`.
     * @throws AppError `missing_credentials`, `invalid_token` (401) or `sign_in_not_configured` (503).
     */
    identity(): Promise<Identity>
    /** @fastify/jwt's verify, under the identity namespace; use `identity()` instead. */
    identityJwtVerify: JwtVerifyFunction
  }
}

const NAMESPACE = 'identity'

/**
 * Registers @fastify/jwt for identity tokens and decorates requests with `identity()`.
 * @param config the same AuthConfig the verifier was built from; it sets @fastify/jwt's default
 *   verify options, so even a direct `request.identityJwtVerify()` is pinned.
 */
export async function registerIdentity(app: FastifyInstance, verifier: IdentityVerifier, config: AuthConfig): Promise<void> {
  await app.register(fastifyJwt, {
    namespace: NAMESPACE,
    jwtVerify: 'identityJwtVerify',
    // Keeps @fastify/jwt off `request.user`, which other auth code may want.
    decoratorName: 'identityClaims',
    // The key function needs the header (alg, kid), which @fastify/jwt passes only when it
    // decodes the complete token.
    decode: { complete: true },
    secret: (_request: FastifyRequest, decoded: unknown) => verifier.keyFor(isRecord(decoded) ? decoded.header : undefined),
    verify: {
      ...verifyOptionsFor(config),
      extractToken: (request: FastifyRequest) => verifier.tokenFromAuthorization(request.headers.authorization),
    },
    // Without this @fastify/jwt prefixes its own wording and the verifier cannot tell which
    // claim failed; the message is fast-jwt's, which never contains the token.
    messages: { authorizationTokenInvalid: (error: Error) => error.message },
  })

  app.decorateRequest('identity', async function identity(this: FastifyRequest): Promise<Identity> {
    // Each step throws the AppError for its failure; the order decides which one a client sees
    // first: not configured (503), then no credentials, then anything wrong with the token.
    verifier.assertConfigured()
    const token = verifier.tokenFromAuthorization(this.headers.authorization)
    verifier.inspect(token)
    let claims: unknown
    try {
      claims = await this.identityJwtVerify({ decode: { complete: true }, verify: verifier.verifyOptions() })
    } catch (error) {
      throw verifier.explain(error) ?? error
    }
    return verifier.toIdentity(claims)
  })
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
