/**
 * The operator's view of the service: every account and key with this month's usage, tier
 * changes and revocation of any key, and service-wide totals. Reads the keys and the usage
 * ledger through their services (the operator has no SQL of its own).
 */
import type { components } from '../../generated/api-types.js'
import { monthlyAllowance, type QuotaConfig } from '../config.js'
import type { Clock } from '../infra/clock.js'
import type { KeyRecord } from '../keys/keys.repository.js'
import type { KeysService } from '../keys/keys.service.js'
import { monthPeriod } from '../usage/period.js'
import type { UsageService } from '../usage/usage.service.js'

export type OperatorKey = components['schemas']['OperatorKey']
export type OperatorAccounts = components['schemas']['OperatorAccounts']
export type ServiceUsage = components['schemas']['ServiceUsage']
/** How the account list is ordered. */
export type AccountSort = 'usage' | 'account' | 'created'

/** What the operator service reads and changes. */
export interface OperatorServiceDeps {
  readonly keys: Pick<KeysService, 'listWithRevoked' | 'setTier' | 'revoke'>
  readonly usage: Pick<UsageService, 'breakdown' | 'attributions' | 'daily' | 'keyTotal'>
  readonly quotaConfig: Pick<QuotaConfig, 'monthly'>
  readonly clock: Clock
}

/** Operator operations, shared by the HTTP API and the dashboard's operator section. */
export class OperatorService {
  constructor(private readonly deps: OperatorServiceDeps) {}

  /**
   * Every account with its keys (active ones, and revoked ones used this month) and usage this
   * month, ordered by `sort`.
   */
  async accounts(sort: AccountSort): Promise<OperatorAccounts> {
    const period = monthPeriod(this.deps.clock.now())
    const all = await this.deps.keys.listWithRevoked(undefined)
    const { byKey } = await this.deps.usage.breakdown(
      all.map((r) => r.id),
      period.id,
    )
    const accounts = new Map<string, { keys: OperatorKey[]; total: number; active: number; newest: string }>()
    for (const record of all) {
      const used = byKey.get(record.id) ?? 0
      if (record.revokedAt !== null && used === 0) continue
      const account = accounts.get(record.accountId) ?? { keys: [], total: 0, active: 0, newest: '' }
      const view = this.view(record, used)
      account.keys.push(view)
      account.total += used
      if (record.revokedAt === null) account.active += 1
      if (view.created_at > account.newest) account.newest = view.created_at
      accounts.set(record.accountId, account)
    }
    const rows = [...accounts].map(([accountId, a]) => ({ accountId, ...a }))
    const byAccount = (a: { accountId: string }, b: { accountId: string }): number => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0)
    rows.sort((a, b) => {
      if (sort === 'usage') return b.total - a.total || byAccount(a, b)
      if (sort === 'created') return (b.newest > a.newest ? 1 : b.newest < a.newest ? -1 : 0) || byAccount(a, b)
      return byAccount(a, b)
    })
    return {
      period_start: period.start.toISOString(),
      period_end: period.end.toISOString(),
      data: rows.map((row) => ({ account_id: row.accountId, total_queries: row.total, active_keys: row.active, keys: row.keys })),
    }
  }

  /** Usage of every key this month by endpoint, style, AI client and day. */
  async serviceUsage(): Promise<ServiceUsage> {
    const period = monthPeriod(this.deps.clock.now())
    const all = await this.deps.keys.listWithRevoked(undefined)
    const ids = all.map((r) => r.id)
    const breakdown = await this.deps.usage.breakdown(ids, period.id)
    const attributions = await this.deps.usage.attributions(ids, period.id, 0)
    const active = all.filter((r) => r.revokedAt === null)
    return {
      period_start: period.start.toISOString(),
      period_end: period.end.toISOString(),
      total_queries: breakdown.total,
      accounts: new Set(active.map((r) => r.accountId)).size,
      active_keys: active.length,
      by_endpoint: { ...breakdown.byEndpoint },
      by_style: { ...breakdown.byStyle },
      by_client: { ...attributions.byClient },
      daily: await this.deps.usage.daily(ids, period.id),
    }
  }

  /**
   * Changes any active key's tier.
   * @throws AppError key_not_found or invalid_parameter.
   */
  async setTier(id: string, tier: string): Promise<OperatorKey> {
    const record = await this.deps.keys.setTier(id, tier)
    return this.view(record, await this.deps.usage.keyTotal(record.id, monthPeriod(this.deps.clock.now()).id))
  }

  /**
   * Revokes any active key.
   * @throws AppError key_not_found.
   */
  async revoke(id: string): Promise<void> {
    await this.deps.keys.revoke(id, undefined)
  }

  private view(record: KeyRecord, used: number): OperatorKey {
    return {
      id: record.id,
      account_id: record.accountId,
      name: record.name,
      prefix: record.prefix,
      tier: record.tier,
      limit: monthlyAllowance(this.deps.quotaConfig, record.tier),
      allowed_domains: [...record.allowedDomains],
      created_at: record.createdAt.toISOString(),
      revoked_at: record.revokedAt === null ? null : record.revokedAt.toISOString(),
      total_queries: used,
    }
  }
}
