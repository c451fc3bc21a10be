/**
 * Flush heartbeats: each instance counts its completed flushes and when it last flushed, so
 * that an instance rebuilding a lost shared counter (Redis) can wait until every live
 * instance has written what it journalled to the ledger (QuotaService.rebuild).
 */
import { sql, type Kysely } from 'kysely'

/** Adds the columns. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('usage_journal_state').addColumn('flushes', 'bigint', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('usage_journal_state').addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`)).execute()
}

/** Drops the columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('usage_journal_state').dropColumn('heartbeat_at').execute()
  await db.schema.alterTable('usage_journal_state').dropColumn('flushes').execute()
}
