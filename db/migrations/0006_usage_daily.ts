/**
 * Daily usage: counted queries per key and day (UTC), written by the same ledger flush as
 * `usage_ledger` (so the request path is untouched), for the dashboard's daily chart and a
 * key's last day of use.
 */
import { sql, type Kysely } from 'kysely'

/** Creates the table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_daily')
    .addColumn('key_id', 'uuid', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('queries', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_daily_pkey', ['key_id', 'day'])
    .execute()
  // The service-wide chart reads by day across keys.
  await sql`create index usage_daily_day on usage_daily (day)`.execute(db)
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_daily').execute()
}
