/**
 * `make oidc`: a local OpenID Connect provider for trying the dashboard (see README, "Dashboard").
 * Any login name signs in with any password; the names in LOCAL_OIDC_OPERATORS (default `admin`)
 * carry the operator claim. Prints the environment that points `make run` at it, and runs until
 * Ctrl-C. Development only: nothing it issues survives a restart.
 *
 * Environment: PUBLIC_BASE_URL (the dashboard's, default http://localhost:8080), LOCAL_OIDC_PORT
 * (default 9090).
 */
import { startLocalProvider } from './local-oidc-provider.js'

const base = (process.env.PUBLIC_BASE_URL ?? 'http://localhost:8080').replace(/\/+$/, '')
const port = Number(process.env.LOCAL_OIDC_PORT ?? '9090')
const operators = (process.env.LOCAL_OIDC_OPERATORS ?? 'admin').split(',').map((name) => name.trim())
const provider = await startLocalProvider({ dashboardBaseUrl: base, audience: `${base}/api`, operators, port })
const env = Object.entries(provider.env)
  .map(([name, value]) => `${name}=${value}`)
  .join(' \\\n')
process.stdout.write(
  `Local OpenID provider on ${provider.issuer} (any login and password; operators: ${operators.join(', ')}).\n\n` +
    `In another terminal, start Plainverse with:\n\n${env} \\\nmake run\n\nthen open ${base}/dashboard. Ctrl-C stops the provider.\n`,
)
process.on('SIGINT', () => {
  void provider.close().then(() => process.exit(0))
})
