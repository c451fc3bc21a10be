/** HTTP routes for key management, signed in with an identity-provider token. */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { components, operations } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import type { QuotaConfig } from '../config.js'
import { registerPreflight } from '../http/cors.js'
import { keysWithQuota } from '../quotas/quota.report.js'
import type { QuotaService } from '../quotas/quota.service.js'
import { keyView } from './key-view.js'
import type { UsageService } from '../usage/usage.service.js'
import type { KeysService } from './keys.service.js'

type CreateKeyBody = components['schemas']['CreateKeyRequest']
type CreatedKey = components['schemas']['CreatedKey']
type KeyList = components['schemas']['KeyList']
type KeySummary = components['schemas']['KeySummary']
type RevokeParams = operations['revokeKey']['parameters']['path']
type UpdateKeyBody = components['schemas']['UpdateKeyRequest']

/** What the key routes need. */
export interface KeyRouteDeps {
  readonly keys: KeysService
  readonly quotas: QuotaService
  readonly quotaConfig: Pick<QuotaConfig, 'monthly'>
  readonly usage: Pick<UsageService, 'lastUsedDays'>
}

/** Registers POST/GET /api/v1/keys and PATCH/DELETE /api/v1/keys/{id}. */
export function registerKeyRoutes(app: FastifyInstance, deps: KeyRouteDeps): void {
  const { keys, quotas, quotaConfig, usage } = deps
  registerPreflight(app, routes.createKey, ['GET', 'POST'])
  registerPreflight(app, routes.revokeKey, ['PATCH', 'DELETE'])
  // Identity first: an unauthenticated caller learns nothing about the body's validity.
  const signedIn = async (request: FastifyRequest): Promise<void> => {
    await request.identity()
  }

  app.route<{ Body: CreateKeyBody }>({
    ...routes.createKey,
    onRequest: signedIn,
    async handler(request, reply) {
      const identity = await request.identity()
      const { record, key } = await keys.create({ accountId: identity.accountId, name: request.body.name, allowedDomains: request.body.allowed_domains ?? [] })
      const body: CreatedKey = { ...keyView(record, quotaConfig), key }
      return reply.code(201).send(body)
    },
  })

  app.route({
    ...routes.listKeys,
    onRequest: signedIn,
    async handler(request): Promise<KeyList> {
      const identity = await request.identity()
      return keysWithQuota(await keys.list(identity.accountId), quotas, quotaConfig, usage)
    },
  })

  app.route<{ Params: RevokeParams; Body: UpdateKeyBody }>({
    ...routes.updateKey,
    onRequest: signedIn,
    async handler(request): Promise<KeySummary> {
      const identity = await request.identity()
      const record = await keys.update(request.params.id, identity.accountId, { name: request.body.name, allowedDomains: request.body.allowed_domains })
      const [summary] = (await keysWithQuota([record], quotas, quotaConfig, usage)).data
      return summary as KeySummary
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
