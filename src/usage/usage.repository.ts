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
export type LedgerRow = LedgerIncrement

/** Counted MCP tool calls to add for one key, period, AI client and tool. */
export interface ClientIncrement {
  readonly keyId: string
  readonly period: string
  readonly client: string
  readonly tool: string
  readonly queries: number
}

/** Serves to add for one key, period and verse. */
export interface VerseIncrement {
  readonly keyId: string
  readonly period: string
  readonly verseId: number
  readonly serves: number
}

/** The attribution side of a batch: who was served (clients) and what (verses). */
export interface AttributionIncrements {
  readonly clients: readonly ClientIncrement[]
  readonly verses: readonly VerseIncrement[]
}

/** Counted queries to add for one key on one day (UTC, `YYYY-MM-DD`). */
export interface DailyIncrement {
  readonly keyId: string
  readonly day: string
  readonly queries: number
}

/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters. */
const INSERT_CHUNK = 1_000

/** Reads and writes `usage_ledger`, the attribution tables and `usage_journal_state`. */
export class UsageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The highest sequence of a journal already in the ledger (0 if none). */
  async appliedSeq(journalId: string): Promise<number> {
    const row = await this.db.selectFrom('usage_journal_state').select('applied_seq').where('journal_id', '=', journalId).executeTakeFirst()
    return row === undefined ? 0 : Number(row.applied_seq)
  }

  /**
   * Adds increments (ledger and attributions) and advances the journal's applied sequence in
   * one transaction, so a batch is applied exactly once. Entries at or below the stored
   * sequence are ignored by the caller; this re-checks under a row lock so that two flushers
   * cannot both apply.
   * @param increments each (key, period, endpoint, style) at most once.
   * @param attributions each (key, period, client, tool) and (key, period, verse) at most once.
   * @returns false when the batch had already been applied.
   */
  async applyBatch(
    journalId: string,
    fromSeq: number,
    toSeq: number,
    increments: readonly LedgerIncrement[],
    attributions: AttributionIncrements = { clients: [], verses: [] },
    daily: readonly DailyIncrement[] = [],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('usage_journal_state')
        // Not a heartbeat: only a serving instance's periodic flush says it is alive.
        .values({ journal_id: journalId, applied_seq: 0, heartbeat_at: new Date(0) })
        .onConflict((oc) => oc.column('journal_id').doNothing())
        .execute()
      const state = await trx.selectFrom('usage_journal_state').select('applied_seq').where('journal_id', '=', journalId).forUpdate().executeTakeFirstOrThrow()
      if (Number(state.applied_seq) >= toSeq) return false
      if (Number(state.applied_seq) >= fromSeq) throw new Error(`journal ${journalId}: batch ${fromSeq}-${toSeq} overlaps applied ${state.applied_seq}`)
      // One statement for many rows, like the tables below: with the embedded database every
      // statement of a flush runs on the event loop, which the responses waiting behind it feel.
      for (let i = 0; i < increments.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('usage_ledger')
          .values(
            increments
              .slice(i, i + INSERT_CHUNK)
              .map((inc) => ({ key_id: inc.keyId, period: inc.period, endpoint: inc.endpoint, style: inc.style, queries: inc.queries })),
          )
          .onConflict((oc) =>
            oc.columns(['key_id', 'period', 'endpoint', 'style']).doUpdateSet({ queries: sql<number>`usage_ledger.queries + excluded.queries` }),
          )
          .execute()
      }
      for (let i = 0; i < attributions.clients.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('usage_clients')
          .values(
            attributions.clients
              .slice(i, i + INSERT_CHUNK)
              .map((c) => ({ key_id: c.keyId, period: c.period, client: c.client, tool: c.tool, queries: c.queries })),
          )
          .onConflict((oc) =>
            oc.columns(['key_id', 'period', 'client', 'tool']).doUpdateSet({ queries: sql<number>`usage_clients.queries + excluded.queries` }),
          )
          .execute()
      }
      for (let i = 0; i < attributions.verses.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('usage_verses')
          .values(attributions.verses.slice(i, i + INSERT_CHUNK).map((v) => ({ key_id: v.keyId, period: v.period, verse_id: v.verseId, serves: v.serves })))
          .onConflict((oc) => oc.columns(['key_id', 'period', 'verse_id']).doUpdateSet({ serves: sql<number>`usage_verses.serves + excluded.serves` }))
          .execute()
      }
      for (let i = 0; i < daily.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('usage_daily')
          .values(daily.slice(i, i + INSERT_CHUNK).map((d) => ({ key_id: d.keyId, day: d.day, queries: d.queries })))
          .onConflict((oc) => oc.columns(['key_id', 'day']).doUpdateSet({ queries: sql<number>`usage_daily.queries + excluded.queries` }))
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

  /**
   * Records a completed flush of a journal: everything it held when the flush began is in
   * the ledger now. Other instances wait on these (see `journalStates`).
   */
  async heartbeat(journalId: string): Promise<void> {
    await this.db
      .insertInto('usage_journal_state')
      .values({ journal_id: journalId, applied_seq: 0, flushes: 1 })
      .onConflict((oc) => oc.column('journal_id').doUpdateSet({ flushes: sql<number>`usage_journal_state.flushes + 1`, heartbeat_at: sql<Date>`now()` }))
      .execute()
  }

  /** Marks a journal's instance as stopped: nothing waits for its flushes any more. */
  async retire(journalId: string): Promise<void> {
    await this.db
      .updateTable('usage_journal_state')
      .set({ heartbeat_at: new Date(0) })
      .where('journal_id', '=', journalId)
      .execute()
  }

  /** Every journal's flush count and how long ago (by the database's clock) it last flushed. */
  async journalStates(): Promise<Array<{ journalId: string; flushes: number; silentMs: number }>> {
    const rows = await this.db
      .selectFrom('usage_journal_state')
      .select(['journal_id', 'flushes', sql<string>`floor(extract(epoch from (now() - heartbeat_at)) * 1000)`.as('silent_ms')])
      .execute()
    return rows.map((r) => ({ journalId: r.journal_id, flushes: Number(r.flushes), silentMs: Number(r.silent_ms) }))
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

  /** Counted MCP tool calls of some keys in one period, per AI client (all tools together). */
  async clientTotals(keyIds: readonly string[], period: string): Promise<Array<{ client: string; queries: number }>> {
    if (keyIds.length === 0) return []
    const rows = await this.db
      .selectFrom('usage_clients')
      .select(['client', sql<string>`sum(queries)`.as('queries')])
      .where('key_id', 'in', keyIds)
      .where('period', '=', period)
      .groupBy('client')
      .execute()
    return rows.map((r) => ({ client: r.client, queries: Number(r.queries) }))
  }

  /** How often MCP tool calls of some keys served each verse in one period (every verse served, unordered). */
  async verseTotals(keyIds: readonly string[], period: string): Promise<Array<{ verseId: number; serves: number }>> {
    if (keyIds.length === 0) return []
    const rows = await this.db
      .selectFrom('usage_verses')
      .select(['verse_id', sql<string>`sum(serves)`.as('serves')])
      .where('key_id', 'in', keyIds)
      .where('period', '=', period)
      .groupBy('verse_id')
      .execute()
    return rows.map((r) => ({ verseId: Number(r.verse_id), serves: Number(r.serves) }))
  }

  /** Counted queries of some keys per day from `from` to `to` (inclusive, `YYYY-MM-DD`); days without queries are absent. */
  async dailyTotals(keyIds: readonly string[], from: string, to: string): Promise<Array<{ day: string; queries: number }>> {
    if (keyIds.length === 0) return []
    const rows = await this.db
      .selectFrom('usage_daily')
      .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), sql<string>`sum(queries)`.as('queries')])
      .where('key_id', 'in', keyIds)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('day')
      .execute()
    return rows.map((r) => ({ day: r.day, queries: Number(r.queries) }))
  }

  /** The last day (`YYYY-MM-DD`) each of some keys had a counted query; keys never used are absent. */
  async lastUsedDays(keyIds: readonly string[]): Promise<Map<string, string>> {
    if (keyIds.length === 0) return new Map()
    const rows = await this.db
      .selectFrom('usage_daily')
      .select(['key_id', sql<string>`to_char(max(day), 'YYYY-MM-DD')`.as('day')])
      .where('key_id', 'in', keyIds)
      .groupBy('key_id')
      .execute()
    return new Map(rows.map((r) => [r.key_id, r.day]))
  }
}
