/**
 * Configuration: read from the environment once at start-up, validated, then frozen.
 * A bad value fails start-up with a message naming the variable.
 */
import { isIP } from 'node:net'

/** How long a PostgreSQL connection and a statement may take before they fail (and the request gets a 503). */
export interface DatabaseTimeouts {
  /** Getting a connection (a new one, or one from a busy pool). */
  readonly connectMs: number
  /** One statement, enforced by the server (`statement_timeout`); the client gives up a little later. */
  readonly statementMs: number
}

/** Reads the HTTP_* limits; the headers must be due before the whole request is. */
function httpLimits(env: Env): HttpLimits {
  const limits = {
    headersTimeoutMs: positiveInt(env, 'HTTP_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.headersTimeoutMs),
    requestTimeoutMs: positiveInt(env, 'HTTP_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.requestTimeoutMs),
    keepAliveTimeoutMs: positiveInt(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs),
    idleTimeoutMs: positiveInt(env, 'HTTP_IDLE_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.idleTimeoutMs),
    maxConnections: positiveInt(env, 'HTTP_MAX_CONNECTIONS', DEFAULT_HTTP_LIMITS.maxConnections),
  }
  // Node requires it: a headers timeout longer than the request timeout could never fire.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', `must not exceed HTTP_REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`)
  }
  return Object.freeze(limits)
}

/** Defaults of DATABASE_CONNECT_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS (also for tests and scripts). */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = Object.freeze({ connectMs: 5_000, statementMs: 15_000 })

/**
 * Bounds on every HTTP connection, so that slow or idle clients cannot hold the server's
 * sockets: a request's headers and the whole request must arrive in time, idle keep-alive
 * connections are closed, and the number of open connections is capped.
 */
export interface HttpLimits {
  /** HTTP_HEADERS_TIMEOUT_MS: the request headers must be complete within this time (else 408). */
  readonly headersTimeoutMs: number
  /** HTTP_REQUEST_TIMEOUT_MS: the whole request, body included, must arrive within this time (else 408). */
  readonly requestTimeoutMs: number
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this time. */
  readonly keepAliveTimeoutMs: number
  /** HTTP_IDLE_TIMEOUT_MS: a socket with no activity at all is closed after this time. */
  readonly idleTimeoutMs: number
  /** HTTP_MAX_CONNECTIONS: connections beyond this many are refused (closed at once). */
  readonly maxConnections: number
}

/** Defaults of the HTTP_* limits. */
export const DEFAULT_HTTP_LIMITS: HttpLimits = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 10_000,
})

/** Defaults of the RATE_LIMIT_* variables. */
export const DEFAULT_RATE_LIMITS: RateLimitConfig = Object.freeze({
  perKey: Object.freeze({ free: 10, developer: 100, scale: 1_000 }),
  perAddress: 100,
})

/** The validated, immutable configuration that every part of the app receives. */
export interface Config {
  readonly port: number
  /** PostgreSQL connect and statement bounds (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS). */
  readonly databaseTimeouts: DatabaseTimeouts
  /** Timeouts and the connection cap of the HTTP server (HTTP_*). */
  readonly http: HttpLimits
  readonly host: string
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  readonly publicBaseUrl: string
  readonly attributionSource: string
  readonly attributionLicense: string
  /** Where people write about the API (the AI plugin manifest, the usage terms). */
  readonly contactEmail: string
  /** The usage terms: the AI plugin manifest's `legal_info_url` and the API catalog's terms-of-service link. */
  readonly legalUrl: string
  /** Browser origins besides PUBLIC_BASE_URL's that may call the MCP endpoint (DNS-rebinding protection). */
  readonly mcpAllowedOrigins: readonly string[]
  readonly logLevel: LogLevel
  /** Redis for quota counters; without it, counters are in-process (single instance). */
  readonly redisUrl: string | undefined
  readonly auth: AuthConfig
  readonly quotas: QuotaConfig
  /** Per-second request limits (RATE_LIMIT_*). */
  readonly rateLimits: RateLimitConfig
  /**
   * TRUST_PROXY: whose X-Forwarded-For to believe for the client address (the per-address
   * rate limit): false (the socket's peer), true (any), a hop count, or addresses and CIDRs.
   */
  readonly trustProxy: boolean | number | readonly string[]
  /** Where /metrics is served, if anywhere (METRICS_TOKEN, METRICS_PORT, METRICS_HOST). */
  readonly metrics: MetricsConfig
  /** The dashboard's sign-in, when configured (OIDC_*). */
  readonly oidc: OidcConfig | undefined
}

/**
 * Where the Prometheus metrics are served. Neither the token nor the port set means nowhere:
 * nothing is recorded and /metrics is 404 like any unknown path.
 */
export interface MetricsConfig {
  /** METRICS_TOKEN: /metrics on the main port, to `Authorization: Bearer <token>` only. */
  readonly token: string | undefined
  /** METRICS_PORT: a listener of its own that serves /metrics without a token (0: any free port). */
  readonly port: number | undefined
  /** METRICS_HOST: the interface of that listener; loopback by default, as it asks for no token. */
  readonly host: string
}

/** Whether metrics are served anywhere, and so worth recording. */
export function metricsEnabled(metrics: MetricsConfig): boolean {
  return metrics.token !== undefined || metrics.port !== undefined
}

/**
 * Requests allowed per one-second window; 0 turns a limit off. Keys are limited by their
 * tier on the routes that take one; every other route is limited per client address.
 */
export interface RateLimitConfig {
  readonly perKey: Readonly<Record<Tier, number>>
  readonly perAddress: number
}

/** How identity-provider tokens are verified; neither source set means sign-in is off. */
export interface AuthConfig {
  /** A JWKS document (RS256/ES256), e.g. Supabase's or any OIDC provider's. */
  readonly jwksUrl: string | undefined
  /** A shared HS256 secret, e.g. Supabase's legacy JWT secret. */
  readonly jwtSecret: string | undefined
  /** Required `iss`, when set. */
  readonly issuer: string | undefined
  /** Required `aud`. */
  readonly audience: string
  /**
   * OPERATOR_CLAIM: the path of the claim that makes a token an operator's (dot-separated,
   * e.g. `app_metadata.role`, or one namespaced claim name such as `https://example.org/roles`);
   * undefined: nobody is an operator over HTTP (the CLI still is).
   */
  readonly operatorClaim: readonly string[] | undefined
  /** OPERATOR_CLAIM_VALUE: the value (or one element of an array claim) that marks an operator. */
  readonly operatorClaimValue: string
}

/**
 * The dashboard's sign-in (OpenID Connect Authorization Code with PKCE, by discovery); undefined
 * when OIDC_ISSUER is not set (the dashboard then explains how to configure it).
 */
export interface OidcConfig {
  /** OIDC_ISSUER: the provider's issuer; `{issuer}/.well-known/openid-configuration` is fetched. */
  readonly issuer: string
  /** OIDC_CLIENT_ID. */
  readonly clientId: string
  /** OIDC_CLIENT_SECRET: for a confidential client; unset, a public client (PKCE only). */
  readonly clientSecret: string | undefined
  /** OIDC_SCOPES: space-separated; always contains `openid`. */
  readonly scopes: string
  /** OIDC_RESOURCE: an RFC 8707 resource indicator sent with the request (the API's audience at providers that use it). */
  readonly resource: string | undefined
  /** OIDC_AUDIENCE: an `audience` parameter sent with the request (Auth0's way of naming the API). */
  readonly audience: string | undefined
}

export type Tier = 'free' | 'developer' | 'scale'
export const TIERS: readonly Tier[] = ['free', 'developer', 'scale']

/** Monthly allowances per tier and the per-account key limit. */
export interface QuotaConfig {
  readonly monthly: Readonly<Record<Tier, number>>
  readonly maxKeysPerAccount: number
}

/** Whether a string names a tier. */
export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value)
}

/** The monthly allowance of a tier: the one lookup that keys, quotas and reports share. */
export function monthlyAllowance(quotas: Pick<QuotaConfig, 'monthly'>, tier: Tier): number {
  return quotas.monthly[tier]
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

export const DEFAULT_ATTRIBUTION_LICENSE =
  'KJV text is in the public domain. Simplified translations and commentary are provided under the Plainverse API terms; use requires an active API subscription.'

/** Thrown for an invalid environment variable; the message names it. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`)
    this.name = 'ConfigError'
  }
}

type Env = Readonly<Record<string, string | undefined>>

function text(env: Env, name: string, fallback: string, maxLength = 2000): string {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = raw.trim()
  if (value === '') throw new ConfigError(name, 'must not be blank')
  if (value.length > maxLength) throw new ConfigError(name, `must be at most ${maxLength} characters`)
  return value
}

function port(env: Env, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(name, `must be an integer from 0 to 65535 (got ${JSON.stringify(raw)})`)
  }
  return Number(raw)
}

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > 2_000_000_000) {
    throw new ConfigError(name, `must be a whole number from 1 to 2000000000 (got ${JSON.stringify(raw)})`)
  }
  return Number(raw)
}

function nonNegativeInt(env: Env, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > 2_000_000_000) {
    throw new ConfigError(name, `must be a whole number from 0 to 2000000000 (got ${JSON.stringify(raw)})`)
  }
  return Number(raw)
}

/** TRUST_PROXY as Fastify's `trustProxy` takes it; see Config.trustProxy. */
function trustProxy(env: Env): boolean | number | readonly string[] {
  const raw = (env.TRUST_PROXY ?? '').trim()
  if (raw === '' || raw === 'false') return false
  if (raw === 'true') return true
  if (/^\d{1,3}$/.test(raw)) return Number(raw)
  const entries = raw.split(',').map((entry) => entry.trim())
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/')
    const version = isIP(address ?? '')
    const prefixOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 6 ? 128 : 32))
    if (version === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count or comma-separated IP addresses or CIDR ranges (got ${JSON.stringify(entry)})`)
    }
  }
  return Object.freeze(entries)
}

function url(env: Env, name: string, fallback: string | undefined, protocols: readonly string[]): string | undefined {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(name, `must be an absolute URL (got ${JSON.stringify(raw)})`)
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')} (got ${JSON.stringify(parsed.protocol)})`)
  }
  return raw
}

/** A DNS name or IPv4 address as it may follow the `@` of an address (no IP literals, no spaces). */
const MAIL_DOMAIN = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/

function email(env: Env, name: string, fallback: string): string {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = raw.trim()
  const at = value.lastIndexOf('@')
  // A deliberately loose shape check (local@domain): the address is published, never sent to.
  if (value.length > 254 || at < 1 || !/^[^\s@<>()",;:]+$/.test(value.slice(0, at)) || !MAIL_DOMAIN.test(value.slice(at + 1))) {
    throw new ConfigError(name, `must be an email address such as api@example.org (got ${JSON.stringify(raw)})`)
  }
  return value
}

/** `api@` the host of the public base URL; a host that cannot follow an `@` (an IPv6 literal) gives `api@localhost`. */
function defaultContactEmail(base: URL): string {
  return MAIL_DOMAIN.test(base.hostname) ? `api@${base.hostname}` : 'api@localhost'
}

/** A comma-separated list of origins (`scheme://host[:port]`), each stored in its serialized form. */
function origins(env: Env, name: string): readonly string[] {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return Object.freeze([])
  const list = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  return Object.freeze(
    list.map((entry) => {
      let parsed: URL
      try {
        parsed = new URL(entry)
      } catch {
        throw new ConfigError(name, `must list origins such as https://app.example.org, separated by commas (got ${JSON.stringify(entry)})`)
      }
      // An origin has no path, query, fragment or credentials; anything more is probably a mistake.
      if (
        !['http:', 'https:'].includes(parsed.protocol) ||
        parsed.username !== '' ||
        parsed.password !== '' ||
        parsed.pathname !== '/' ||
        parsed.search !== '' ||
        parsed.hash !== ''
      ) {
        throw new ConfigError(name, `must list origins (http or https scheme, host and optional port, nothing else) (got ${JSON.stringify(entry)})`)
      }
      return parsed.origin
    }),
  )
}

/** Shortest METRICS_TOKEN: long enough that it cannot be guessed over the network. */
const MIN_METRICS_TOKEN_LENGTH = 16

/** METRICS_TOKEN, reported without its value when bad (it is a secret). */
function metricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN
  if (raw === undefined || raw === '') return undefined
  // A Bearer value is one run of visible ASCII (RFC 6750's b64token is narrower; this is lenient on purpose).
  if (!/^[\x21-\x7e]+$/.test(raw)) throw new ConfigError('METRICS_TOKEN', 'must be visible ASCII characters without spaces')
  if (raw.length < MIN_METRICS_TOKEN_LENGTH || raw.length > 1024) {
    throw new ConfigError('METRICS_TOKEN', `must be ${MIN_METRICS_TOKEN_LENGTH} to 1024 characters long (e.g. openssl rand -hex 32)`)
  }
  return raw
}

/** Reads METRICS_*. */
function metricsConfig(env: Env, mainPort: number): MetricsConfig {
  const metricsPort = env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? undefined : port(env, 'METRICS_PORT', 0)
  // Port 0 asks the system for a free port, so two zeros never collide.
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === mainPort) throw new ConfigError('METRICS_PORT', `must differ from PORT (${mainPort})`)
  // A host without a port would silently serve nothing.
  if (metricsPort === undefined && env.METRICS_HOST !== undefined && env.METRICS_HOST !== '') {
    throw new ConfigError('METRICS_HOST', 'is set but METRICS_PORT is not (METRICS_HOST is the interface of the METRICS_PORT listener)')
  }
  return Object.freeze({ token: metricsToken(env), port: metricsPort, host: text(env, 'METRICS_HOST', '127.0.0.1', 255) })
}

function authSecret(env: Env): string | undefined {
  const raw = env.AUTH_JWT_SECRET
  if (raw === undefined || raw === '') return undefined
  // HS256 with a short secret is brute-forceable; RFC 7518 asks for at least 256 bits.
  if (raw.length < 32) throw new ConfigError('AUTH_JWT_SECRET', 'must be at least 32 characters')
  return raw
}

/** Whether a host name is this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]'
}

/** OPERATOR_CLAIM as a path of claim names (`app_metadata.role` -> ['app_metadata', 'role']). */
function operatorClaim(env: Env): readonly string[] | undefined {
  const raw = (env.OPERATOR_CLAIM ?? '').trim()
  if (raw === '') return undefined
  // A namespaced claim (Auth0 asks for URLs, e.g. https://plainverse.example/roles) is one top-level name.
  if (/^https?:\/\/[\x21-\x7e]+$/.test(raw) && raw.length <= 200) return Object.freeze([raw])
  const parts = raw.split('.')
  if (raw.length > 200 || parts.some((part) => !/^[A-Za-z0-9_:/-]+$/.test(part))) {
    throw new ConfigError('OPERATOR_CLAIM', `must be a claim name or a dot-separated path such as app_metadata.role (got ${JSON.stringify(raw.slice(0, 200))})`)
  }
  return Object.freeze(parts)
}

/** OIDC_*: all of issuer and client id, or none; the rest only with them. */
function oidcConfig(env: Env): OidcConfig | undefined {
  const issuer = url(env, 'OIDC_ISSUER', undefined, ['http:', 'https:'])
  const clientId = env.OIDC_CLIENT_ID === undefined || env.OIDC_CLIENT_ID === '' ? undefined : text(env, 'OIDC_CLIENT_ID', '', 500)
  if (issuer === undefined && clientId === undefined) {
    for (const name of ['OIDC_CLIENT_SECRET', 'OIDC_SCOPES', 'OIDC_RESOURCE', 'OIDC_AUDIENCE']) {
      if (env[name] !== undefined && env[name] !== '') throw new ConfigError(name, 'is set but OIDC_ISSUER and OIDC_CLIENT_ID are not')
    }
    return undefined
  }
  if (issuer === undefined) throw new ConfigError('OIDC_ISSUER', 'must be set with OIDC_CLIENT_ID (the issuer URL of your identity provider)')
  // Tokens travel to and from the provider: plain http only to one on this machine (a local provider, tests).
  if (issuer.startsWith('http:') && !isLoopback(new URL(issuer).hostname)) {
    throw new ConfigError('OIDC_ISSUER', `must use https unless the provider runs on this machine (got ${JSON.stringify(issuer)})`)
  }
  if (clientId === undefined) throw new ConfigError('OIDC_CLIENT_ID', 'must be set with OIDC_ISSUER (the client id of the dashboard at your identity provider)')
  // One identity path: the dashboard's access token is checked exactly as POST /api/v1/keys checks one.
  if ((env.AUTH_JWKS_URL ?? '') === '' && (env.AUTH_JWT_SECRET ?? '') === '') {
    throw new ConfigError(
      'OIDC_ISSUER',
      "is set but neither AUTH_JWKS_URL nor AUTH_JWT_SECRET is: the dashboard's access tokens are checked like the API's (set AUTH_JWKS_URL to the provider's jwks_uri, AUTH_ISSUER to its issuer, AUTH_AUDIENCE to its access tokens' audience)",
    )
  }
  const scopes = text(env, 'OIDC_SCOPES', 'openid email', 1000).split(/\s+/)
  if (scopes.some((scope) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))) throw new ConfigError('OIDC_SCOPES', 'must be space-separated scope names')
  return Object.freeze({
    issuer,
    clientId,
    clientSecret: env.OIDC_CLIENT_SECRET === undefined || env.OIDC_CLIENT_SECRET === '' ? undefined : env.OIDC_CLIENT_SECRET,
    scopes: [...new Set(['openid', ...scopes])].join(' '),
    resource: url(env, 'OIDC_RESOURCE', undefined, ['http:', 'https:', 'urn:']),
    audience: env.OIDC_AUDIENCE === undefined || env.OIDC_AUDIENCE === '' ? undefined : text(env, 'OIDC_AUDIENCE', '', 2000),
  })
}

/**
 * PUBLIC_BASE_URL when it is not set: this machine on the port the server listens on, so that
 * setting PORT alone keeps attribution links and the MCP endpoint's own origin right. PORT=0
 * (a port the system picks at start) cannot be known here: the default is then port 8080's.
 * @example defaultPublicBaseUrl(3000) // 'http://localhost:3000'
 */
export function defaultPublicBaseUrl(port: number): string {
  return `http://localhost:${port === 0 ? 8080 : port}`
}

/**
 * Parses and validates the environment.
 * @throws ConfigError naming the first bad variable.
 * @example loadConfig({ PORT: '3000' }).port // 3000
 */
export function loadConfig(env: Env = process.env): Config {
  const logLevel = (env.LOG_LEVEL ?? 'info').trim().toLowerCase()
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(env.LOG_LEVEL)})`)
  }
  const mainPort = port(env, 'PORT', 8080)
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL', defaultPublicBaseUrl(mainPort), ['http:', 'https:']) as string
  const base = new URL(publicBaseUrl)
  if (base.search !== '' || base.hash !== '') {
    throw new ConfigError('PUBLIC_BASE_URL', 'must not have a query or a fragment')
  }
  // Stored without a trailing slash so that `${publicBaseUrl}/john/3/16` is always right.
  const baseUrl = publicBaseUrl.replace(/\/+$/, '')
  return Object.freeze({
    port: mainPort,
    host: text(env, 'HOST', '0.0.0.0', 255),
    dataDir: text(env, 'DATA_DIR', './var', 4096),
    databaseUrl: url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:']),
    databaseTimeouts: Object.freeze({
      connectMs: positiveInt(env, 'DATABASE_CONNECT_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUTS.connectMs),
      statementMs: positiveInt(env, 'DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUTS.statementMs),
    }),
    http: httpLimits(env),
    publicBaseUrl: baseUrl,
    attributionSource: text(env, 'ATTRIBUTION_SOURCE', 'Plainverse', 200),
    attributionLicense: text(env, 'ATTRIBUTION_LICENSE', DEFAULT_ATTRIBUTION_LICENSE),
    contactEmail: email(env, 'CONTACT_EMAIL', defaultContactEmail(base)),
    legalUrl: url(env, 'LEGAL_URL', `${baseUrl}/terms`, ['http:', 'https:']) as string,
    mcpAllowedOrigins: origins(env, 'MCP_ALLOWED_ORIGINS'),
    logLevel: logLevel as LogLevel,
    redisUrl: url(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']),
    auth: Object.freeze({
      jwksUrl: url(env, 'AUTH_JWKS_URL', undefined, ['http:', 'https:']),
      jwtSecret: authSecret(env),
      issuer: env.AUTH_ISSUER === undefined || env.AUTH_ISSUER === '' ? undefined : text(env, 'AUTH_ISSUER', '', 2000),
      audience: text(env, 'AUTH_AUDIENCE', 'authenticated', 2000),
      operatorClaim: operatorClaim(env),
      operatorClaimValue: text(env, 'OPERATOR_CLAIM_VALUE', 'operator', 200),
    }),
    oidc: oidcConfig(env),
    quotas: Object.freeze({
      monthly: Object.freeze({
        free: positiveInt(env, 'QUOTA_FREE', 500),
        developer: positiveInt(env, 'QUOTA_DEVELOPER', 50_000),
        scale: positiveInt(env, 'QUOTA_SCALE', 3_000_000),
      }),
      maxKeysPerAccount: positiveInt(env, 'MAX_KEYS_PER_ACCOUNT', 25),
    }),
    metrics: metricsConfig(env, mainPort),
    rateLimits: Object.freeze({
      perKey: Object.freeze({
        free: nonNegativeInt(env, 'RATE_LIMIT_FREE', DEFAULT_RATE_LIMITS.perKey.free),
        developer: nonNegativeInt(env, 'RATE_LIMIT_DEVELOPER', DEFAULT_RATE_LIMITS.perKey.developer),
        scale: nonNegativeInt(env, 'RATE_LIMIT_SCALE', DEFAULT_RATE_LIMITS.perKey.scale),
      }),
      perAddress: nonNegativeInt(env, 'RATE_LIMIT_ADDRESS', DEFAULT_RATE_LIMITS.perAddress),
    }),
    trustProxy: trustProxy(env),
  })
}
