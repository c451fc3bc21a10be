/** GET /api/v1/usage: one key's usage (API key) or an account's (identity token). */
import type { FastifyInstance } from 'fastify'
import type { components } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { AppError } from '../errors.js'
import { registerPreflight } from '../http/cors.js'
import { checkKey } from '../keys/api-key.plugin.js'
import { credentialOf, WWW_AUTHENTICATE } from '../keys/credentials.js'
import type { KeyVerifier } from '../keys/key-verifier.js'
import type { QuotaService } from '../quotas/quota.service.js'
import { accountUsage, type AccountUsage, type AccountUsageDeps } from './usage.report.js'

type KeyUsage = components['schemas']['KeyUsage']

/** What the usage route needs. */
export interface UsageRouteDeps extends AccountUsageDeps {
  readonly quotas: QuotaService
  readonly verifier: KeyVerifier
}

/** Registers GET /api/v1/usage. */
export function registerUsageRoutes(app: FastifyInstance, deps: UsageRouteDeps): void {
  registerPreflight(app, routes.getUsage, ['GET'])
  app.route({
    ...routes.getUsage,
    async handler(request): Promise<KeyUsage | AccountUsage> {
      const credential = credentialOf(request.headers)
      if (credential === undefined) {
        throw new AppError(
          'missing_credentials',
          "Send an API key (X-API-Key) for that key's usage, or an identity-provider token (Authorization: Bearer) for your account's.",
          {
            headers: { 'www-authenticate': WWW_AUTHENTICATE },
          },
        )
      }
      if (credential.kind === 'api-key') {
        const key = await checkKey(request, deps.verifier, credential.value)
        const state = await deps.quotas.state(key)
        return {
          total_queries: state.used,
          limit: state.limit,
          tier: key.tier,
          remaining: state.remaining,
          period_start: state.period.start.toISOString(),
          period_end: state.period.end.toISOString(),
        }
      }
      const identity = await request.identity()
      return accountUsage(deps, identity.accountId)
    },
  })
}
