/**
 * Who is calling, from an identity provider's JWT (Supabase-style): every check a token must
 * pass lives here, so the Fastify plugin stays a thin adapter and both entry points (the
 * plugin's `request.identity()` and `IdentityVerifier.verify`) accept exactly the same tokens.
 *
 * Keys: an HS256 token is checked against AUTH_JWT_SECRET, an RS256/ES256 token against the
 * AUTH_JWKS_URL key its `kid` names. The header's algorithm only chooses which configured key
 * to try; it never makes a key usable with another algorithm (no algorithm confusion), and
 * `jku`/`x5u`/`jwk` headers are never read.
 *
 * Tokens without a `kid` are refused on the JWKS path even when the set holds a single key:
 * Supabase and OIDC providers always send one, and guessing would silently pick a different
 * key the moment the provider publishes a second (rotation).
 */
import { createDecoder, createVerifier, type Algorithm, type VerifierOptions } from 'fast-jwt'
import type { AuthConfig } from '../config.js'
import { AppError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors.js'
import { JwksCache, JwksError, type JwksAlgorithm } from './jwks.js'

/** The signed-in user a token names. */
export interface Identity {
  /** The token's `sub`: the provider's stable user id. */
  readonly accountId: string
  readonly email: string | undefined
  /** Whether the token carries the operator claim (AUTH's OPERATOR_CLAIM and OPERATOR_CLAIM_VALUE). */
  readonly operator: boolean
}

/** What the verifier needs besides configuration; all injectable for tests. */
export interface IdentityVerifierDeps {
  /** Milliseconds since the epoch; used for exp/nbf and the JWKS refetch interval. */
  readonly now: () => number
  readonly fetchTimeoutMs?: number
  readonly refetchIntervalMs?: number
}

/** The fast-jwt verifier options every identity token is checked with, apart from the clock. */
export type IdentityVerifyOptions = Pick<VerifierOptions, 'algorithms' | 'allowedAud' | 'allowedIss' | 'requiredClaims' | 'clockTolerance'>

/** Clock skew allowed between us and the provider for `exp` and `nbf`. */
export const CLOCK_TOLERANCE_MS = 30_000
// Account ids are stored and compared; a provider's user id is a UUID or similar, so anything
// this long is not one.
const MAX_SUBJECT_LENGTH = 255
const JWKS_ALGORITHMS: readonly JwksAlgorithm[] = ['RS256', 'ES256']
const SECRET_ALGORITHM = 'HS256'

const NOT_CONFIGURED_DETAIL =
  "Sign-in is not configured on this server. Set AUTH_JWKS_URL to your identity provider's JWKS URL " +
  "(e.g. https://<project>.supabase.co/auth/v1/.well-known/jwks.json), or AUTH_JWT_SECRET to the project's legacy JWT secret."

/** The algorithms the configuration allows: RS256/ES256 with a JWKS, HS256 with a secret. */
export function pinnedAlgorithms(config: AuthConfig): Algorithm[] {
  return [...(config.jwksUrl === undefined ? [] : JWKS_ALGORITHMS), ...(config.jwtSecret === undefined ? [] : ([SECRET_ALGORITHM] as const))]
}

/**
 * The verifier options for a configuration (used by the service and as @fastify/jwt's defaults).
 * fast-jwt skips a claim check when the claim is absent, so `aud` (and `iss` when an issuer is
 * configured) are also required claims: otherwise a token without an audience would pass.
 */
export function verifyOptionsFor(config: AuthConfig): IdentityVerifyOptions {
  return {
    algorithms: pinnedAlgorithms(config),
    allowedAud: config.audience,
    ...(config.issuer === undefined ? {} : { allowedIss: config.issuer }),
    requiredClaims: ['exp', 'sub', 'aud', ...(config.issuer === undefined ? [] : ['iss'])],
    clockTolerance: CLOCK_TOLERANCE_MS,
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Whether the claim at OPERATOR_CLAIM's path equals OPERATOR_CLAIM_VALUE, or is an array that
 * holds it (Keycloak's `realm_access.roles`, Auth0's namespaced role lists).
 */
function carriesOperatorClaim(claims: Record<string, unknown>, config: AuthConfig): boolean {
  if (config.operatorClaim === undefined) return false
  let value: unknown = claims
  for (const name of config.operatorClaim) value = isRecord(value) && Object.hasOwn(value, name) ? value[name] : undefined
  return Array.isArray(value) ? value.includes(config.operatorClaimValue) : value === config.operatorClaimValue
}

function invalid(detail: string): AppError {
  return new AppError('invalid_token', detail)
}

const MALFORMED = 'The token is malformed: a JWT is three base64url parts (header, payload, signature) whose header and payload are JSON objects.'

/** Verifies identity-provider tokens and turns them into identities. */
export class IdentityVerifier {
  readonly #config: AuthConfig
  readonly #now: () => number
  readonly #jwks: JwksCache | undefined
  readonly #options: IdentityVerifyOptions
  readonly #decode = createDecoder({ complete: true })

  constructor(config: AuthConfig, deps: IdentityVerifierDeps) {
    this.#config = config
    this.#now = deps.now
    this.#options = verifyOptionsFor(config)
    this.#jwks =
      config.jwksUrl === undefined
        ? undefined
        : new JwksCache({ url: config.jwksUrl, now: deps.now, fetchTimeoutMs: deps.fetchTimeoutMs, refetchIntervalMs: deps.refetchIntervalMs })
  }

  /** Whether a token source (JWKS URL or secret) is configured; without one, sign-in is off. */
  get configured(): boolean {
    return this.#config.jwksUrl !== undefined || this.#config.jwtSecret !== undefined
  }

  /**
   * Verifies a token end to end: header, key, signature, claims, role.
   * @throws AppError `sign_in_not_configured` (503) or `invalid_token` (401).
   */
  async verify(token: string): Promise<Identity> {
    const header = this.inspect(token)
    const key = await this.keyFor(header)
    let claims: unknown
    try {
      claims = createVerifier({ ...this.verifyOptions(), key })(token)
    } catch (error) {
      throw this.explain(error) ?? error
    }
    return this.toIdentity(claims)
  }

  /**
   * The bearer token of an `Authorization` header.
   * @throws AppError `missing_credentials` when there is no bearer token, `invalid_token` when
   *   the header holds more than one word after `Bearer`.
   */
  tokenFromAuthorization(authorization: string | undefined): string {
    const match = authorization === undefined ? null : /^Bearer(?:[ \t]+(.*))?$/i.exec(authorization.trim())
    const token = match?.[1]?.trim() ?? ''
    if (token === '') {
      throw new AppError('missing_credentials', "Sign in first: send the identity provider's access token as Authorization: Bearer <token>.")
    }
    if (/\s/.test(token)) throw invalid('The Authorization header must hold exactly one token after "Bearer".')
    return token
  }

  /**
   * Checks what can be checked before any key is needed: configuration, shape, algorithm.
   * @returns the token's (unverified) header.
   * @throws AppError `sign_in_not_configured` or `invalid_token`.
   */
  inspect(token: string): Record<string, unknown> {
    this.assertConfigured()
    let decoded: unknown
    try {
      decoded = this.#decode(token)
    } catch (error) {
      throw this.explain(error) ?? error
    }
    if (!isRecord(decoded) || !isRecord(decoded.header)) throw invalid(MALFORMED)
    this.#algorithmOf(decoded.header)
    return decoded.header
  }

  /**
   * The key to verify a token with, chosen by its header: HS256 → the shared secret, RS256/ES256
   * → the JWKS key its kid names (PEM, as fast-jwt and @fastify/jwt take keys as strings).
   * @throws AppError `sign_in_not_configured` or `invalid_token`.
   */
  async keyFor(header: unknown): Promise<string> {
    this.assertConfigured()
    if (!isRecord(header)) throw invalid(MALFORMED)
    const alg = this.#algorithmOf(header)
    if (alg === SECRET_ALGORITHM) {
      if (this.#config.jwtSecret === undefined) {
        // Also the algorithm-confusion case: an HS256 token "signed" with our public key.
        throw invalid(
          "The token is signed with HS256 (a shared secret), but this server verifies tokens with the identity provider's public keys (RS256/ES256) only.",
        )
      }
      return this.#config.jwtSecret
    }
    if (this.#jwks === undefined) {
      throw invalid(`The token is signed with ${alg}, but this server verifies tokens with a shared HS256 secret only (no AUTH_JWKS_URL is configured).`)
    }
    if (typeof header.kid !== 'string' || header.kid === '') {
      throw invalid('The token has no key id (kid), so no key of the identity provider can be chosen to verify it.')
    }
    try {
      return (await this.#jwks.getKey(header.kid, alg)).pem
    } catch (error) {
      // The provider being down says nothing about the token: a 503 to retry, not a 401 to sign in again.
      if (error instanceof JwksError && error.reason === 'unavailable') {
        throw new AppError('identity_provider_unavailable', error.message, { headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } })
      }
      if (error instanceof JwksError) throw invalid(error.message)
      throw error
    }
  }

  /** The verifier options for a check made now (the clock is fixed per fast-jwt verifier). */
  verifyOptions(): IdentityVerifyOptions & { clockTimestamp: number } {
    return { ...this.#options, clockTimestamp: this.#now() }
  }

  /**
   * The identity in verified claims, after the checks fast-jwt does not make: `sub` is a
   * non-empty string, and `role`, when present, is `authenticated`.
   * @throws AppError `invalid_token`.
   */
  toIdentity(claims: unknown): Identity {
    if (!isRecord(claims)) throw invalid(MALFORMED)
    // Already required by the verifier options; repeated so no caller can forget them.
    if (typeof claims.exp !== 'number') throw invalid('The token has no expiry (exp claim); tokens without one are not accepted.')
    const sub = claims.sub
    if (typeof sub !== 'string' || sub.trim() === '') {
      throw invalid("The token's subject (sub claim) is missing, empty or not a string, so it names no account.")
    }
    if (sub.length > MAX_SUBJECT_LENGTH) throw invalid(`The token's subject (sub claim) is longer than ${MAX_SUBJECT_LENGTH} characters.`)
    if (/[\u0000-\u001f\u007f]/.test(sub)) throw invalid("The token's subject (sub claim) contains control characters, so it names no account.")
    if (Object.hasOwn(claims, 'role') && claims.role !== 'authenticated') throw invalid(roleDetail(claims.role))
    return {
      accountId: sub,
      email: typeof claims.email === 'string' && claims.email !== '' ? claims.email : undefined,
      operator: carriesOperatorClaim(claims, this.#config),
    }
  }

  /**
   * An `invalid_token` AppError saying in plain words which check a token failed, for errors
   * from fast-jwt or @fastify/jwt (AppErrors pass through); undefined for anything else.
   */
  explain(error: unknown): AppError | undefined {
    if (error instanceof AppError) return error
    if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return undefined
    return describeFailure(error.code, error.message, this.#config)
  }

  /**
   * Refuses every token while no source is configured, saying how to configure one.
   * @throws AppError `sign_in_not_configured` (503).
   */
  assertConfigured(): void {
    if (!this.configured) throw new AppError('sign_in_not_configured', NOT_CONFIGURED_DETAIL)
  }

  #algorithmOf(header: Record<string, unknown>): JwksAlgorithm | typeof SECRET_ALGORITHM {
    const alg = header.alg
    if (typeof alg === 'string' && alg.toLowerCase() === 'none') {
      throw invalid('The token is unsigned (alg "none"); only signed tokens are accepted.')
    }
    // Any of the three passes here so that keyFor can say which configured source is missing
    // (e.g. an HS256 token when only a JWKS is configured); the verifier options still pin the
    // configured ones.
    if (alg !== SECRET_ALGORITHM && alg !== 'RS256' && alg !== 'ES256') {
      // The header's alg is attacker-chosen text, so it is not echoed.
      throw invalid(`The token's algorithm is not accepted; this server accepts ${(this.#options.algorithms ?? []).join(', ')}.`)
    }
    return alg
  }
}

function roleDetail(role: unknown): string {
  if (role === 'anon') return 'The token has role "anon": it is the project\'s public anon key, not a signed-in user\'s session.'
  if (role === 'service_role') return 'The token has role "service_role": it is a server key, not a signed-in user\'s session.'
  return 'The token\'s role claim is not "authenticated", so it is not a signed-in user\'s session.'
}

/**
 * Plain words for a fast-jwt TokenError code (FAST_JWT_*) or an @fastify/jwt error code
 * (FST_JWT_*). @fastify/jwt folds several fast-jwt failures into FST_JWT_AUTHORIZATION_TOKEN_INVALID
 * and keeps only the message (the plugin registers a message formatter that passes it through),
 * so claim failures are recognised by fast-jwt's message, which names the claim.
 */
function describeFailure(code: string, message: string, config: AuthConfig): AppError | undefined {
  switch (code) {
    case 'FAST_JWT_MALFORMED':
    case 'FAST_JWT_INVALID_PAYLOAD':
    case 'FAST_JWT_INVALID_TYPE':
      return invalid(MALFORMED)
    case 'FAST_JWT_EXPIRED':
    case 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED':
      return invalid('The token has expired (its exp is in the past); sign in again for a fresh one.')
    case 'FAST_JWT_INACTIVE':
      return invalid('The token is not valid yet (its nbf is in the future).')
    case 'FAST_JWT_MISSING_SIGNATURE':
      return invalid('The token is unsigned; only signed tokens are accepted.')
    case 'FAST_JWT_INVALID_ALGORITHM':
    case 'FAST_JWT_INVALID_KEY':
      return invalid(`The token's algorithm does not match the key it is checked with; this server accepts ${pinnedAlgorithms(config).join(', ')}.`)
    case 'FAST_JWT_INVALID_CRIT_HEADER':
      return invalid('The token lists a critical header extension (crit) that this server does not support.')
    case 'FST_JWT_NO_AUTHORIZATION_IN_HEADER':
      return new AppError('missing_credentials', "Sign in first: send the identity provider's access token as Authorization: Bearer <token>.")
    case 'FST_JWT_BAD_REQUEST':
      return invalid('The Authorization header must be "Bearer <token>".')
    case 'FAST_JWT_INVALID_SIGNATURE':
    case 'FAST_JWT_VERIFY_ERROR':
    case 'FAST_JWT_MISSING_REQUIRED_CLAIM':
    case 'FAST_JWT_INVALID_CLAIM_VALUE':
    case 'FAST_JWT_INVALID_CLAIM_TYPE':
    case 'FST_JWT_AUTHORIZATION_TOKEN_INVALID':
      return invalid(describeByMessage(message, config))
    default:
      return code.startsWith('FAST_JWT_') || code.startsWith('FST_JWT_') ? invalid('The token could not be verified.') : undefined
  }
}

function describeByMessage(message: string, config: AuthConfig): string {
  if (/signature/i.test(message)) return "The token's signature does not match the identity provider's key for its algorithm."
  if (/malformed|base64url|must be an object/i.test(message)) return MALFORMED
  const claim = /\b(exp|nbf|iat|sub|aud|iss)\b claim/.exec(message)?.[1]
  const missing = /is required/.test(message)
  switch (claim) {
    case 'exp':
      return missing ? 'The token has no expiry (exp claim); tokens without one are not accepted.' : "The token's expiry (exp claim) is not a number."
    case 'nbf':
      return "The token's not-before time (nbf claim) is not a number."
    case 'iat':
      return "The token's issued-at time (iat claim) is not a number."
    case 'sub':
      return 'The token has no subject (sub claim), so it names no account.'
    case 'aud':
      return missing
        ? `The token has no audience (aud claim); it must be "${config.audience}".`
        : `The token is for another audience: its aud claim is not "${config.audience}".`
    case 'iss':
      return missing
        ? `The token has no issuer (iss claim); it must be "${config.issuer ?? ''}".`
        : `The token was issued by someone else: its iss claim is not "${config.issuer ?? ''}".`
    default:
      return 'The token could not be verified.'
  }
}
