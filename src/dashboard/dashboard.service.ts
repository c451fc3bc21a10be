/**
 * What the dashboard does for a signed-in person, over the same services as the API: the
 * session's access token is checked by the same IdentityVerifier as POST /api/v1/keys (one
 * identity path), and keys and usage come from the key and usage services.
 */
import type { components } from '../../generated/api-types.js'
import type { QuotaConfig } from '../config.js'
import type { Clock } from '../infra/clock.js'
import type { Identity, IdentityVerifier } from '../identity/identity.service.js'
import type { KeysService } from '../keys/keys.service.js'
import { keysWithQuota } from '../quotas/quota.report.js'
import type { QuotaService } from '../quotas/quota.service.js'
import { accountUsage } from '../usage/usage.report.js'
import type { UsageService } from '../usage/usage.service.js'

type KeySummary = components['schemas']['KeySummary']
type AccountUsage = components['schemas']['AccountUsage']

/** What the dashboard service is built from. */
export interface DashboardServiceDeps {
  readonly identity: Pick<IdentityVerifier, 'verify'>
  readonly keys: KeysService
  readonly quotas: QuotaService
  readonly usage: UsageService
  readonly quotaConfig: QuotaConfig
  readonly clock: Clock
}

/** Dashboard operations for a signed-in account. */
export class DashboardService {
  constructor(private readonly deps: DashboardServiceDeps) {}

  /**
   * The identity of a session's access token, checked like any API call's.
   * @throws AppError invalid_token (expired, or not accepted), identity_provider_unavailable.
   */
  identify(accessToken: string): Promise<Identity> {
    return this.deps.identity.verify(accessToken)
  }

  /** The account's active keys with usage this month and last use. */
  async keys(accountId: string): Promise<KeySummary[]> {
    return (await keysWithQuota(await this.deps.keys.list(accountId), this.deps.quotas, this.deps.quotaConfig, this.deps.usage)).data
  }

  /** One active key of the account, or undefined. */
  async key(accountId: string, id: string): Promise<KeySummary | undefined> {
    return (await this.keys(accountId)).find((k) => k.id === id.toLowerCase())
  }

  /** The account form of usage (as GET /api/v1/usage). */
  usage(accountId: string): Promise<AccountUsage> {
    return accountUsage({ usage: this.deps.usage, keys: this.deps.keys, quotaConfig: this.deps.quotaConfig, clock: this.deps.clock }, accountId)
  }

  /**
   * Creates a key from the form's fields.
   * @throws AppError invalid_parameter, key_limit_reached.
   */
  async create(accountId: string, name: string, domains: string): Promise<{ key: string; name: string }> {
    const { record, key } = await this.deps.keys.create({ accountId, name, allowedDomains: domainList(domains) })
    return { key, name: record.name }
  }

  /**
   * Renames a key and sets its domains from the form's fields.
   * @throws AppError invalid_parameter, key_not_found.
   */
  async update(accountId: string, id: string, name: string, domains: string): Promise<void> {
    await this.deps.keys.update(id, accountId, { name, allowedDomains: domainList(domains) })
  }

  /**
   * Revokes one of the account's keys.
   * @throws AppError key_not_found.
   */
  async revoke(accountId: string, id: string): Promise<void> {
    await this.deps.keys.revoke(id, accountId)
  }
}

/** The textarea's domains: one per line (commas and spaces also separate). */
export function domainList(text: string): string[] {
  return text.split(/[\s,]+/).filter((entry) => entry !== '')
}
