import t from 'tap'
import { ConfigError, DEFAULT_ATTRIBUTION_LICENSE, loadConfig, metricsEnabled } from '../src/config.js'

t.test('defaults', async (t) => {
  const config = loadConfig({})
  t.same(config, {
    port: 8080,
    host: '0.0.0.0',
    dataDir: './var',
    databaseUrl: undefined,
    databaseTimeouts: { connectMs: 5000, statementMs: 15000 },
    http: { headersTimeoutMs: 10000, requestTimeoutMs: 30000, keepAliveTimeoutMs: 5000, idleTimeoutMs: 60000, maxConnections: 10000 },
    publicBaseUrl: 'http://localhost:8080',
    attributionSource: 'Plainverse',
    attributionLicense: DEFAULT_ATTRIBUTION_LICENSE,
    contactEmail: 'api@localhost',
    legalUrl: 'http://localhost:8080/terms',
    mcpAllowedOrigins: [],
    logLevel: 'info',
    redisUrl: undefined,
    auth: { jwksUrl: undefined, jwtSecret: undefined, issuer: undefined, audience: 'authenticated', operatorClaim: undefined, operatorClaimValue: 'operator' },
    quotas: { monthly: { free: 500, developer: 50000, scale: 3000000 }, maxKeysPerAccount: 25 },
    metrics: { token: undefined, port: undefined, host: '127.0.0.1' },
    rateLimits: { perKey: { free: 10, developer: 100, scale: 1000 }, perAddress: 100 },
    trustProxy: false,
    oidc: undefined,
  })
  t.ok(Object.isFrozen(config))
  t.notOk(metricsEnabled(config.metrics), 'metrics are off by default')
  t.match(DEFAULT_ATTRIBUTION_LICENSE, /active API subscription is required|requires an active API subscription/)
})

t.test('values are read and normalised', async (t) => {
  const config = loadConfig({ PORT: '3000', PUBLIC_BASE_URL: 'https://bible.example.org/api/', DATABASE_URL: 'postgres://u@h:5432/db', LOG_LEVEL: 'WARN' })
  t.equal(config.port, 3000)
  t.equal(config.publicBaseUrl, 'https://bible.example.org/api')
  t.equal(config.databaseUrl, 'postgres://u@h:5432/db')
  t.same(loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '250', DATABASE_STATEMENT_TIMEOUT_MS: '60000' }).databaseTimeouts, { connectMs: 250, statementMs: 60000 })
  t.equal(config.logLevel, 'warn')
  const quotas = loadConfig({ QUOTA_FREE: '10', QUOTA_DEVELOPER: '20', QUOTA_SCALE: '30', MAX_KEYS_PER_ACCOUNT: '3' }).quotas
  t.same(quotas, { monthly: { free: 10, developer: 20, scale: 30 }, maxKeysPerAccount: 3 })
})

t.test('the public base URL follows PORT unless set', async (t) => {
  t.equal(loadConfig({}).publicBaseUrl, 'http://localhost:8080')
  const moved = loadConfig({ PORT: '3000' })
  t.equal(moved.publicBaseUrl, 'http://localhost:3000', 'PORT alone moves attribution links and the MCP origin with it')
  t.equal(moved.legalUrl, 'http://localhost:3000/terms')
  t.equal(loadConfig({ PORT: '0' }).publicBaseUrl, 'http://localhost:8080', 'PORT=0: the port is not known before listening')
  t.equal(loadConfig({ PORT: '3000', PUBLIC_BASE_URL: 'https://bible.example.org' }).publicBaseUrl, 'https://bible.example.org', 'a set value wins')
})

t.test('contact email and legal URL follow the public base URL unless set', async (t) => {
  const derived = loadConfig({ PUBLIC_BASE_URL: 'https://bible.example.org/api/' })
  t.equal(derived.contactEmail, 'api@bible.example.org')
  t.equal(derived.legalUrl, 'https://bible.example.org/api/terms')
  t.equal(loadConfig({ PUBLIC_BASE_URL: 'http://[::1]:8080' }).contactEmail, 'api@localhost', 'an IPv6 host cannot follow an @')
  const set = loadConfig({ CONTACT_EMAIL: ' sales+api@example.org ', LEGAL_URL: 'https://example.org/legal' })
  t.equal(set.contactEmail, 'sales+api@example.org')
  t.equal(set.legalUrl, 'https://example.org/legal')
})

t.test('MCP allowed origins are a comma-separated list, stored serialized', async (t) => {
  const config = loadConfig({ MCP_ALLOWED_ORIGINS: ' https://App.Example.org , http://localhost:3000/,https://x.example.org:443 ' })
  t.same(config.mcpAllowedOrigins, ['https://app.example.org', 'http://localhost:3000', 'https://x.example.org'])
  t.ok(Object.isFrozen(config.mcpAllowedOrigins))
  t.same(loadConfig({ MCP_ALLOWED_ORIGINS: ' ' }).mcpAllowedOrigins, [])
})

t.test('metrics: a token for the main port, a port (and host) of their own, or both', async (t) => {
  const token = 'a'.repeat(16)
  const withToken = loadConfig({ METRICS_TOKEN: token })
  t.same(withToken.metrics, { token, port: undefined, host: '127.0.0.1' })
  t.ok(metricsEnabled(withToken.metrics))
  const withPort = loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })
  t.same(withPort.metrics, { token: undefined, port: 9464, host: '0.0.0.0' })
  t.ok(metricsEnabled(withPort.metrics))
  t.equal(loadConfig({ PORT: '0', METRICS_PORT: '0' }).metrics.port, 0, 'two system-chosen ports never collide')
  t.ok(Object.isFrozen(withPort.metrics))
})

t.test('a bad METRICS_TOKEN is refused without printing it', async (t) => {
  for (const secret of ['short-secret', 'has a space in it somewhere', `tab\there-long-enough-xx`, 'é'.repeat(20)]) {
    const error = t.throws(() => loadConfig({ METRICS_TOKEN: secret }), { name: 'ConfigError', variable: 'METRICS_TOKEN' })
    t.notMatch(String((error as Error | undefined)?.message), secret, 'the message does not contain the value')
  }
})

t.test('bad values name the variable', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_CONNECT_TIMEOUT_MS: '0' }, 'DATABASE_CONNECT_TIMEOUT_MS'],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: 'soon' }, 'DATABASE_STATEMENT_TIMEOUT_MS'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PUBLIC_BASE_URL: 'not a url' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'ftp://x.org' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'https://x.org/?a=1' }, 'PUBLIC_BASE_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: '::' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ HOST: '   ' }, 'HOST'],
    [{ ATTRIBUTION_SOURCE: 'x'.repeat(500) }, 'ATTRIBUTION_SOURCE'],
    [{ REDIS_URL: 'http://localhost:6379' }, 'REDIS_URL'],
    [{ AUTH_JWKS_URL: 'jwks.json' }, 'AUTH_JWKS_URL'],
    [{ AUTH_JWT_SECRET: 'short' }, 'AUTH_JWT_SECRET'],
    [{ QUOTA_FREE: '0' }, 'QUOTA_FREE'],
    [{ QUOTA_DEVELOPER: '1.5' }, 'QUOTA_DEVELOPER'],
    [{ QUOTA_SCALE: 'lots' }, 'QUOTA_SCALE'],
    [{ MAX_KEYS_PER_ACCOUNT: '-3' }, 'MAX_KEYS_PER_ACCOUNT'],
    [{ CONTACT_EMAIL: 'nobody' }, 'CONTACT_EMAIL'],
    [{ CONTACT_EMAIL: '@example.org' }, 'CONTACT_EMAIL'],
    [{ CONTACT_EMAIL: 'api@' }, 'CONTACT_EMAIL'],
    [{ CONTACT_EMAIL: 'api team@example.org' }, 'CONTACT_EMAIL'],
    [{ CONTACT_EMAIL: 'api@exa mple.org' }, 'CONTACT_EMAIL'],
    [{ CONTACT_EMAIL: 'Api <api@example.org>' }, 'CONTACT_EMAIL'],
    [{ LEGAL_URL: '/terms' }, 'LEGAL_URL'],
    [{ LEGAL_URL: 'mailto:legal@example.org' }, 'LEGAL_URL'],
    [{ MCP_ALLOWED_ORIGINS: 'app.example.org' }, 'MCP_ALLOWED_ORIGINS'],
    [{ MCP_ALLOWED_ORIGINS: 'https://app.example.org/path' }, 'MCP_ALLOWED_ORIGINS'],
    [{ MCP_ALLOWED_ORIGINS: 'https://ok.example.org, ftp://files.example.org' }, 'MCP_ALLOWED_ORIGINS'],
    [{ MCP_ALLOWED_ORIGINS: 'https://user@app.example.org' }, 'MCP_ALLOWED_ORIGINS'],
    [{ METRICS_TOKEN: 'x'.repeat(15) }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 'x'.repeat(1025) }, 'METRICS_TOKEN'],
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '65536' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '8080' }, 'METRICS_PORT'],
    [{ PORT: '3000', METRICS_PORT: '3000' }, 'METRICS_PORT'],
    [{ METRICS_HOST: '0.0.0.0' }, 'METRICS_HOST'],
    [{ METRICS_PORT: '9464', METRICS_HOST: '  ' }, 'METRICS_HOST'],
  ]
  for (const [env, variable] of cases) {
    t.throws(() => loadConfig(env), { name: 'ConfigError', variable, message: new RegExp(variable) }, JSON.stringify(env).slice(0, 60))
  }
  t.ok(new ConfigError('X', 'y') instanceof Error)
})

t.test('dashboard sign-in (OIDC_*) and the operator claim', async (t) => {
  const auth = { AUTH_JWKS_URL: 'https://id.example.org/jwks', AUTH_ISSUER: 'https://id.example.org', AUTH_AUDIENCE: 'https://api.example.org' }
  const config = loadConfig({
    ...auth,
    OIDC_ISSUER: 'https://id.example.org',
    OIDC_CLIENT_ID: 'dash',
    OIDC_SCOPES: 'email  profile',
    OIDC_RESOURCE: 'https://api.example.org',
  })
  t.same(config.oidc, {
    issuer: 'https://id.example.org',
    clientId: 'dash',
    clientSecret: undefined,
    scopes: 'openid email profile',
    resource: 'https://api.example.org',
    audience: undefined,
  })
  t.same(loadConfig({ OPERATOR_CLAIM: 'app_metadata.role' }).auth.operatorClaim, ['app_metadata', 'role'])
  t.equal(loadConfig({ OPERATOR_CLAIM_VALUE: 'admin' }).auth.operatorClaimValue, 'admin')
  t.same(
    loadConfig({ OPERATOR_CLAIM: 'https://plainverse.example/roles' }).auth.operatorClaim,
    ['https://plainverse.example/roles'],
    'a namespaced claim is one name',
  )
  const bad: Array<[Record<string, string>, string]> = [
    [{ ...auth, OIDC_ISSUER: 'https://id.example.org' }, 'OIDC_CLIENT_ID'],
    [{ ...auth, OIDC_CLIENT_ID: 'dash' }, 'OIDC_ISSUER'],
    [{ ...auth, OIDC_ISSUER: 'ftp://id.example.org', OIDC_CLIENT_ID: 'dash' }, 'OIDC_ISSUER'],
    [{ ...auth, OIDC_ISSUER: 'not a url', OIDC_CLIENT_ID: 'dash' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'https://id.example.org', OIDC_CLIENT_ID: 'dash' }, 'OIDC_ISSUER'],
    [{ ...auth, OIDC_SCOPES: 'openid' }, 'OIDC_SCOPES'],
    [{ ...auth, OIDC_ISSUER: 'https://id.example.org', OIDC_CLIENT_ID: 'dash', OIDC_SCOPES: 'openid "x"' }, 'OIDC_SCOPES'],
    [{ ...auth, OIDC_ISSUER: 'https://id.example.org', OIDC_CLIENT_ID: 'dash', OIDC_RESOURCE: 'nope' }, 'OIDC_RESOURCE'],
    [{ OPERATOR_CLAIM: 'app metadata.role' }, 'OPERATOR_CLAIM'],
    [{ OPERATOR_CLAIM: 'a..b' }, 'OPERATOR_CLAIM'],
  ]
  for (const [env, variable] of bad) t.throws(() => loadConfig(env), { name: 'ConfigError', variable }, JSON.stringify(env).slice(0, 80))
})
