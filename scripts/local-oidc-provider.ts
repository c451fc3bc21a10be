/**
 * A local OpenID Connect provider (the `oidc-provider` package) for trying the dashboard on a
 * fresh clone and for the tests: any login name signs in (its development login form), access
 * tokens are JWTs (RS256, signed with a key made at start) for one resource indicator, the
 * audience the API checks. Names listed as operators get `app_metadata.role: operator`.
 * Never for production: it keeps everything in memory and asks for no password.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider'

/** What the provider is told about the dashboard it serves. */
export interface LocalProviderOptions {
  /** The dashboard's PUBLIC_BASE_URL (its redirect URI is `{base}/dashboard/callback`). */
  readonly dashboardBaseUrl: string
  /** The resource indicator and `aud` of access tokens (AUTH_AUDIENCE, OIDC_RESOURCE). */
  readonly audience: string
  /** Login names that carry the operator claim. */
  readonly operators?: readonly string[]
  /** 0: any free port. */
  readonly port?: number
  /** Access token lifetime in seconds (default an hour). */
  readonly accessTokenTtl?: number
}

/** A running provider. */
export interface LocalProvider {
  readonly issuer: string
  readonly jwksUrl: string
  readonly clientId: string
  /** The environment that points Plainverse at this provider. */
  readonly env: Readonly<Record<string, string>>
  close(): Promise<void>
}

export const LOCAL_CLIENT_ID = 'plainverse-dashboard'

/** Starts the provider on 127.0.0.1. */
export async function startLocalProvider(options: LocalProviderOptions): Promise<LocalProvider> {
  // The issuer names the port, so the server listens before the provider exists and hands requests over once it does.
  const route: { handler?: (req: IncomingMessage, res: ServerResponse) => void } = {}
  const server = createServer((req, res) => (route.handler === undefined ? res.writeHead(503).end() : route.handler(req, res)))
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const signingKey = {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    use: 'sig',
    alg: 'RS256',
  }
  const operators = new Set(options.operators ?? [])
  const base = options.dashboardBaseUrl.replace(/\/+$/, '')
  const resourceServer = {
    scope: 'openid email',
    audience: options.audience,
    accessTokenFormat: 'jwt' as const,
    accessTokenTTL: options.accessTokenTtl ?? 3600,
    jwt: { sign: { alg: 'RS256' as const } },
  }
  const configuration: Configuration = {
    clients: [
      {
        client_id: LOCAL_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        redirect_uris: [`${base}/dashboard/callback`],
        post_logout_redirect_uris: [`${base}/dashboard?notice=signed-out`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email'],
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, email: `${sub}@example.test`, email_verified: true }),
    }),
    // A local provider asks no consent: the dashboard is its only client.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const accountId = ctx.oidc.session?.accountId
      const clientId = ctx.oidc.client?.clientId
      if (accountId === undefined || clientId === undefined) return undefined
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId })
      grant.addOIDCScope('openid email')
      grant.addResourceScope(options.audience, 'openid email')
      await grant.save()
      return grant
    },
    extraTokenClaims: (_ctx, token) => {
      const accountId = 'accountId' in token ? token.accountId : undefined
      if (accountId === undefined) return undefined
      return { email: `${accountId}@example.test`, ...(operators.has(accountId) ? { app_metadata: { role: 'operator' } } : {}) }
    },
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: () => resourceServer,
      },
    },
  }
  const provider = new Provider(issuer, configuration)
  route.handler = provider.callback()
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    clientId: LOCAL_CLIENT_ID,
    env: {
      AUTH_JWKS_URL: `${issuer}/jwks`,
      AUTH_ISSUER: issuer,
      AUTH_AUDIENCE: options.audience,
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: LOCAL_CLIENT_ID,
      OIDC_RESOURCE: options.audience,
      OPERATOR_CLAIM: 'app_metadata.role',
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
