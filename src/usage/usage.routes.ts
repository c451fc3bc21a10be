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
import { bookAt } from '../verses/books.js'
import { verseReference, verseSlug } from '../verses/slug.js'
import type { UsageService } from './usage.service.js'

type KeyUsage = components['schemas']['KeyUsage']
type AccountUsage = components['schemas']['AccountUsage']

/** How many verses `top_verses` lists. */
const TOP_VERSES = 20

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
  const attributions = await deps.usage.attributions(all.map((r) => r.id), period.id, TOP_VERSES)
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
    by_client: { ...attributions.byClient },
    top_verses: attributions.topVerses.flatMap(({ verseId, serves }) => {
      const described = describeVerse(verseId)
      return described === undefined ? [] : [{ ...described, queries: serves }]
    }),
  }
}

/** The slug and reference of a verse id (book * 1,000,000 + chapter * 1,000 + verse). */
function describeVerse(id: number): { slug: string; reference: string } | undefined {
  const book = bookAt(Math.floor(id / 1_000_000))
  if (book === undefined) return undefined
  const chapter = Math.floor(id / 1_000) % 1_000
  const verse = id % 1_000
  return { slug: verseSlug(book, chapter, verse), reference: verseReference(book, chapter, verse) }
}
