/**
 * Usage reports: the account form of GET /api/v1/usage, also what the operator's CLI prints
 * (every account, or one), from the ledger plus what is journalled but not yet flushed.
 */
import type { components } from '../../generated/api-types.js'
import { monthlyAllowance, type QuotaConfig } from '../config.js'
import type { Clock } from '../infra/clock.js'
import type { KeysService } from '../keys/keys.service.js'
import { bookAt } from '../verses/books.js'
import { verseReference, verseSlug } from '../verses/slug.js'
import { monthPeriod } from './period.js'
import type { UsageService } from './usage.service.js'

/** The account form of usage. */
export type AccountUsage = components['schemas']['AccountUsage']

/** How many verses `top_verses` lists. */
const TOP_VERSES = 20

/** What the account report reads. */
export interface AccountUsageDeps {
  readonly usage: UsageService
  readonly keys: Pick<KeysService, 'listWithRevoked'>
  readonly quotaConfig: Pick<QuotaConfig, 'monthly'>
  readonly clock: Clock
}

/**
 * The account form of usage, also used by the operator CLI (`accountId` undefined: every
 * account). Keys revoked this month still count: their queries were made.
 */
export async function accountUsage(deps: AccountUsageDeps, accountId: string | undefined): Promise<AccountUsage> {
  const period = monthPeriod(deps.clock.now())
  const all = await deps.keys.listWithRevoked(accountId)
  const breakdown = await deps.usage.breakdown(
    all.map((r) => r.id),
    period.id,
  )
  const attributions = await deps.usage.attributions(
    all.map((r) => r.id),
    period.id,
    TOP_VERSES,
  )
  const daily = await deps.usage.daily(
    all.map((r) => r.id),
    period.id,
  )
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
      limit: monthlyAllowance(deps.quotaConfig, r.tier),
      total_queries: breakdown.byKey.get(r.id) ?? 0,
    })),
    by_client: { ...attributions.byClient },
    top_verses: attributions.topVerses.flatMap(({ verseId, serves }) => {
      const described = describeVerse(verseId)
      return described === undefined ? [] : [{ ...described, queries: serves }]
    }),
    daily,
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
