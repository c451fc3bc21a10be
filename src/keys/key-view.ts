/** The public fields of a key, as the API, the CLI and the admin socket show it (never the key or its hash). */
import type { components } from '../../generated/api-types.js'
import { monthlyAllowance, type QuotaConfig } from '../config.js'
import type { KeyRecord } from './keys.repository.js'

/** A key without its secret. */
export type KeyView = Omit<components['schemas']['CreatedKey'], 'key'>

/** The public view of a key record. */
export function keyView(record: KeyRecord, quotas: Pick<QuotaConfig, 'monthly'>): KeyView {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    tier: record.tier,
    rate_limit_monthly: monthlyAllowance(quotas, record.tier),
    allowed_domains: [...record.allowedDomains],
    created_at: record.createdAt.toISOString(),
  }
}
