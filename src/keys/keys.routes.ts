/** HTTP routes for key management, signed in with an identity-provider token. */
import type { FastifyInstance } from 'fastify'
import type { components, operations } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { registerPreflight } from '../http/cors.js'
import { monthPeriod } from '../quotas/counter.js'
import type { Clock } from '../infra/clock.js'
import type { UsageService } from '../usage/usage.service.js'
import type { KeyRecord } from './keys.repository.js'
import type { KeysService } from './keys.service.js'

type CreateKeyBody = components['schemas']['CreateKeyRequest']
type CreatedKey = components['schemas']['CreatedKey']
type KeyList = components['schemas']['KeyList']
type RevokeParams = operations['revokeKey']['parameters']['path']

/** What the key routes need. */
export interface KeyRouteDeps {
  readonly keys: KeysService
  readonly usage: UsageService
  readonly clock: Clock
}

/** Registers POST/GET /api/v1/keys and DELETE /api/v1/keys/{id}. */
export function registerKeyRoutes(app: FastifyInstance, deps: KeyRouteDeps): void {
  const { keys, usage, clock } = deps
  registerPreflight(app, routes.preflightKeys, ['GET', 'POST'])
  registerPreflight(app, routes.preflightKey, ['DELETE'])
  // Identity first: an unauthenticated caller learns nothing about the body's validity.
  const signedIn = async (request: import('fastify').FastifyRequest): Promise<void> => {
    await request.identity()
  }

  app.route<{ Body: CreateKeyBody }>({
    ...routes.createKey,
    onRequest: signedIn,
    async handler(request, reply) {
      const identity = await request.identity()
      const { record, key } = await keys.create({ accountId: identity.accountId, name: request.body.name, allowedDomains: request.body.allowed_domains ?? [] })
      const body: CreatedKey = { ...recordView(record, keys), key }
      return reply.code(201).send(body)
    },
  })

  app.route({
    ...routes.listKeys,
    onRequest: signedIn,
    async handler(request): Promise<KeyList> {
      const identity = await request.identity()
      const period = monthPeriod(clock.now())
      const records = await keys.list(identity.accountId)
      const { byKey } = await usage.breakdown(records.map((r) => r.id), period.id)
      return {
        data: records.map((record) => {
          const used = byKey.get(record.id) ?? 0
          return {
            ...recordView(record, keys),
            usage: {
              period_start: period.start.toISOString(),
              period_end: period.end.toISOString(),
              total_queries: used,
              remaining: Math.max(0, keys.limitOf(record.tier) - used),
            },
          }
        }),
      }
    },
  })

  app.route<{ Params: RevokeParams }>({
    ...routes.revokeKey,
    onRequest: signedIn,
    async handler(request, reply) {
      const identity = await request.identity()
      await keys.revoke(request.params.id, identity.accountId)
      return reply.code(204).send()
    },
  })
}

/** The public fields of a key record. */
export function recordView(record: KeyRecord, keys: Pick<KeysService, 'limitOf'>): Omit<CreatedKey, 'key'> {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    tier: record.tier,
    rate_limit_monthly: keys.limitOf(record.tier),
    allowed_domains: [...record.allowedDomains],
    created_at: record.createdAt.toISOString(),
  }
}
