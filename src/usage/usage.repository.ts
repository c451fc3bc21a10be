/** SQL for the usage ledger and the journal bookkeeping. */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'

/** Queries to add to the ledger for one key, period, endpoint and style. */
export interface LedgerIncrement {
  readonly keyId: string
  readonly period: string
  readonly endpoint: string
  readonly style: string
  readonly queries: number
}

/** One ledger row. */
export interface LedgerRow extends LedgerIncrement {}

/** Reads and writes `usage_ledger` and `usage_journal_state`. */
export class UsageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The highest sequence of a journal already in the ledger (0 if none). */
  async appliedSeq(journalId: string): Promise<number> {
    const row = await this.db.selectFrom('usage_journal_state').select('applied_seq').where('journal_id', '=', journalId).executeTakeFirst()
    return row === undefined ? 0 : Number(row.applied_seq)
  }

  /**
   * Adds increments and advances the journal's applied sequence in one transaction, so a
   * batch is applied exactly once. Entries at or below the stored sequence are ignored by
   * the caller; this re-checks under a row lock so that two flushers cannot both apply.
   * @returns false when the batch had already been applied.
   */
  async applyBatch(journalId: string, fromSeq: number, toSeq: number, increments: readonly LedgerIncrement[]): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('usage_journal_state')
        .values({ journal_id: journalId, applied_seq: 0 })
        .onConflict((oc) => oc.column('journal_id').doNothing())
        .execute()
      const state = await trx
        .selectFrom('usage_journal_state')
        .select('applied_seq')
        .where('journal_id', '=', journalId)
        .forUpdate()
        .executeTakeFirstOrThrow()
      if (Number(state.applied_seq) >= toSeq) return false
      if (Number(state.applied_seq) >= fromSeq) throw new Error(`journal ${journalId}: batch ${fromSeq}-${toSeq} overlaps applied ${state.applied_seq}`)
      for (const inc of increments) {
        await trx
          .insertInto('usage_ledger')
          .values({ key_id: inc.keyId, period: inc.period, endpoint: inc.endpoint, style: inc.style, queries: inc.queries })
          .onConflict((oc) =>
            oc.columns(['key_id', 'period', 'endpoint', 'style']).doUpdateSet({ queries: sql<number>`usage_ledger.queries + excluded.queries` }),
          )
          .execute()
      }
      await trx
        .updateTable('usage_journal_state')
        .set({ applied_seq: toSeq, updated_at: sql<Date>`now()` })
        .where('journal_id', '=', journalId)
        .execute()
      return true
    })
  }

  /** Total queries of one key in one period. */
  async keyTotal(keyId: string, period: string): Promise<number> {
    const row = await this.db
      .selectFrom('usage_ledger')
      .select(sql<string | null>`sum(queries)`.as('total'))
      .where('key_id', '=', keyId)
      .where('period', '=', period)
      .executeTakeFirst()
    return Number(row?.total ?? 0)
  }

  /** Every ledger row of some keys in one period. */
  async rowsFor(keyIds: readonly string[], period: string): Promise<LedgerRow[]> {
    if (keyIds.length === 0) return []
    const rows = await this.db
      .selectFrom('usage_ledger')
      .select(['key_id', 'period', 'endpoint', 'style', 'queries'])
      .where('key_id', 'in', keyIds)
      .where('period', '=', period)
      .execute()
    return rows.map((r) => ({ keyId: r.key_id, period: r.period, endpoint: r.endpoint, style: r.style, queries: Number(r.queries) }))
  }
}
