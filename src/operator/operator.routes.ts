/** The operator's HTTP API: identity token with the operator claim, else 403 operator_only. */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { components } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { AppError } from '../errors.js'
import type { Identity } from '../identity/identity.service.js'
import type { AccountSort, OperatorService } from './operator.service.js'

type KeyParams = { id: string }
type SetTierBody = components['schemas']['SetTierRequest']

/**
 * The signed-in operator, or an error: the identity's own (401/503) first, then `operator_only`.
 * @throws AppError operator_only (403) for a valid token without the operator claim.
 */
export async function requireOperator(request: FastifyRequest): Promise<Identity> {
  const identity = await request.identity()
  if (!identity.operator) {
    throw new AppError(
      'operator_only',
      "This operation is for operators: the token is valid but does not carry the operator claim (OPERATOR_CLAIM, OPERATOR_CLAIM_VALUE) this server's operators have.",
    )
  }
  return identity
}

/** Registers /api/v1/operator/*. */
export function registerOperatorRoutes(app: FastifyInstance, deps: { readonly operator: OperatorService }): void {
  const { operator } = deps
  // Identity and the claim first: a caller who is not an operator learns nothing about the input's validity.
  const operatorOnly = async (request: FastifyRequest): Promise<void> => {
    await requireOperator(request)
  }

  app.route<{ Querystring: { sort?: AccountSort } }>({
    ...routes.listOperatorAccounts,
    onRequest: operatorOnly,
    handler: (request) => operator.accounts(request.query.sort ?? 'usage'),
  })

  app.route({
    ...routes.getServiceUsage,
    onRequest: operatorOnly,
    handler: () => operator.serviceUsage(),
  })

  app.route<{ Params: KeyParams; Body: SetTierBody }>({
    ...routes.setKeyTier,
    onRequest: operatorOnly,
    handler: (request) => operator.setTier(request.params.id, request.body.tier),
  })

  app.route<{ Params: KeyParams }>({
    ...routes.revokeAnyKey,
    onRequest: operatorOnly,
    async handler(request, reply) {
      await operator.revoke(request.params.id)
      return reply.code(204).send()
    },
  })
}
