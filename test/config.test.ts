import t from 'tap'
import { ConfigError, DEFAULT_ATTRIBUTION_LICENSE, loadConfig } from '../src/config.js'

t.test('defaults', async (t) => {
  const config = loadConfig({})
  t.same(config, {
    port: 8080,
    host: '0.0.0.0',
    dataDir: './var',
    databaseUrl: undefined,
    publicBaseUrl: 'http://localhost:8080',
    attributionSource: 'Plainverse',
    attributionLicense: DEFAULT_ATTRIBUTION_LICENSE,
    logLevel: 'info',
    redisUrl: undefined,
    auth: { jwksUrl: undefined, jwtSecret: undefined, issuer: undefined, audience: 'authenticated' },
    quotas: { monthly: { free: 500, developer: 50000, scale: 3000000 }, maxKeysPerAccount: 25 },
  })
  t.ok(Object.isFrozen(config))
  t.match(DEFAULT_ATTRIBUTION_LICENSE, /active API subscription is required|requires an active API subscription/)
})

t.test('values are read and normalised', async (t) => {
  const config = loadConfig({ PORT: '3000', PUBLIC_BASE_URL: 'https://bible.example.org/api/', DATABASE_URL: 'postgres://u@h:5432/db', LOG_LEVEL: 'WARN' })
  t.equal(config.port, 3000)
  t.equal(config.publicBaseUrl, 'https://bible.example.org/api')
  t.equal(config.databaseUrl, 'postgres://u@h:5432/db')
  t.equal(config.logLevel, 'warn')
  const quotas = loadConfig({ QUOTA_FREE: '10', QUOTA_DEVELOPER: '20', QUOTA_SCALE: '30', MAX_KEYS_PER_ACCOUNT: '3' }).quotas
  t.same(quotas, { monthly: { free: 10, developer: 20, scale: 30 }, maxKeysPerAccount: 3 })
})

t.test('bad values name the variable', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ PORT: 'abc' }, 'PORT'],
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
  ]
  for (const [env, variable] of cases) {
    t.throws(() => loadConfig(env), { name: 'ConfigError', variable, message: new RegExp(variable) }, JSON.stringify(env).slice(0, 60))
  }
  t.ok(new ConfigError('X', 'y') instanceof Error)
})
