/** A dashboard under test: the app listening on a local port and a real OpenID provider (oidc-provider) for it. */
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { startLocalProvider, type LocalProvider } from '../../scripts/local-oidc-provider.js'
import type { Clock } from '../../src/infra/clock.js'
import { buildTestApp, type Teardown, type TestApp } from './app.js'

/** The API's audience in these tests: the resource indicator the provider issues JWT access tokens for. */
export const TEST_AUDIENCE = 'https://api.plainverse.test'

/** A free TCP port on 127.0.0.1 (the app must know its public URL before it listens, for the redirect URI). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** The app (listening) and its provider. */
export interface DashboardUnderTest {
  readonly testApp: TestApp
  readonly provider: LocalProvider
  readonly baseUrl: string
  readonly port: number
}

/** Starts a provider and an app configured for it, listening on 127.0.0.1; both stop at teardown. */
export async function startDashboard(
  t: Teardown,
  options: { operators?: string[]; env?: Record<string, string>; accessTokenTtl?: number; clock?: Clock } = {},
): Promise<DashboardUnderTest> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const provider = await startLocalProvider({
    dashboardBaseUrl: baseUrl,
    audience: TEST_AUDIENCE,
    operators: options.operators ?? [],
    ...(options.accessTokenTtl === undefined ? {} : { accessTokenTtl: options.accessTokenTtl }),
  })
  t.teardown(() => provider.close())
  const testApp = await buildTestApp(t, {
    env: { ...provider.env, PUBLIC_BASE_URL: baseUrl, ...options.env },
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  })
  await testApp.app.listen({ port, host: '127.0.0.1' })
  return { testApp, provider, baseUrl, port }
}
