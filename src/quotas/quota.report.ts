/** A key list with each key's quota this month: GET /api/v1/keys. */
import type { components } from '../../generated/api-types.js'
import type { QuotaConfig } from '../config.js'
import { keyView } from '../keys/key-view.js'
import type { KeyRecord } from '../keys/keys.repository.js'
import type { UsageService } from '../usage/usage.service.js'
import type { QuotaService } from './quota.service.js'

type KeyList = components['schemas']['KeyList']

/**
 * The keys with their usage this month, each from `QuotaService.state`: the same used and
 * remaining that the key's own responses and GET /usage report.
 */
export async function keysWithQuota(
  records: readonly KeyRecord[],
  quotas: QuotaService,
  config: Pick<QuotaConfig, 'monthly'>,
  usage: Pick<UsageService, 'lastUsedDays'>,
): Promise<KeyList> {
  const states = await Promise.all(records.map((record) => quotas.state(record)))
  const lastUsed = await usage.lastUsedDays(records.map((record) => record.id))
  return {
    data: records.map((record, i) => {
      const state = states[i] as NonNullable<(typeof states)[number]>
      return {
        ...keyView(record, config),
        last_used_on: lastUsed.get(record.id) ?? null,
        usage: {
          period_start: state.period.start.toISOString(),
          period_end: state.period.end.toISOString(),
          total_queries: state.used,
          remaining: state.remaining,
        },
      }
    }),
  }
}
