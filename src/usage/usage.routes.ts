/** GET /api/v1/usage: one key's usage (API key) or an account's (identity token). */
import type { FastifyInstance } from 'fastify'
import type { components } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { AppError } from '../errors.js'
import { registerPreflight } from '../http/cors.js'
import type { Clock } from '../infra/clock.js'
import { checkKey } from '../keys/api-key.auth.js'
import { credentialOf, WWW_AUTHENTICATE } from '../keys/credentials.js'
import type { KeyVerifier } from '../keys/key-verifier.js'
import type { KeysService } from '../keys/keys.service.js'
import { monthPeriod } from '../quotas/counter.js'
import type { QuotaService } from '../quotas/quota.service.js'
import type { UsageService } from './usage.service.js'

type KeyUsage = components['schemas']['KeyUsage']
type AccountUsage = components['schemas']['AccountUsage']

/** What the usage route needs. */
export interface UsageRouteDeps {
  readonly usage: UsageService
  readonly quotas: QuotaService
  readonly keys: KeysService
  readonly verifier: KeyVerifier
  readonly clock: Clock
}

/** Registers GET /api/v1/usage. */
export function registerUsageRoutes(app: FastifyInstance, deps: UsageRouteDeps): void {
  registerPreflight(app, routes.preflightUsage, ['GET'])
  app.route({
    ...routes.getUsage,
    async handler(request): Promise<KeyUsage | AccountUsage> {
      const credential = credentialOf(request.headers)
      if (credential === undefined) {
        throw new AppError('missing_credentials', 'Send an API key (X-API-Key) for that key\'s usage, or an identity-provider token (Authorization: Bearer) for your account\'s.', {
          headers: { 'www-authenticate': WWW_AUTHENTICATE },
        })
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

/**
 * The account form of usage, also used by the operator CLI (`accountId` undefined: every
 * account). Keys revoked this month still count: their queries were made.
 */
export async function accountUsage(deps: Pick<UsageRouteDeps, 'usage' | 'keys' | 'clock'>, accountId: string | undefined): Promise<AccountUsage> {
  const period = monthPeriod(deps.clock.now())
  const all = await deps.keys.listWithRevoked(accountId)
  const breakdown = await deps.usage.breakdown(all.map((r) => r.id), period.id)
  const records = all.filter((r) => r.revokedAt === null || (breakdown.byKey.get(r.id) ?? 0) > 0)
  return {
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    total_queries: breakdown.total,
    by_endpoint: { ...breakdown.byEndpoint },
    by_style: { faithful: 0, casual: 0, all: 0, ...breakdown.byStyle },
    keys: records.map((r) => ({
      id: r.id,
      name: r.name,
      prefix: r.prefix,
      tier: r.tier,
      limit: deps.keys.limitOf(r.tier),
      total_queries: breakdown.byKey.get(r.id) ?? 0,
    })),
  }
}
