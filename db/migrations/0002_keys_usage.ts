/** API keys, the durable usage ledger, and the journal bookkeeping that makes it exact. */
import { sql, type Kysely } from 'kysely'

/** Creates the tables. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // SHA-256 of the whole key: the key itself is never stored.
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull().defaultTo('free').check(sql`tier in ('free', 'developer', 'scale')`))
    .addColumn('allowed_domains', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    // Every change bumps updated_at, so other instances can pick changes up by polling.
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('api_keys_account_idx').on('api_keys').columns(['account_id', 'created_at']).execute()
  await db.schema.createIndex('api_keys_updated_idx').on('api_keys').column('updated_at').execute()

  await db.schema
    .createTable('usage_ledger')
    .addColumn('key_id', 'uuid', (c) => c.notNull().references('api_keys.id'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('style', 'text', (c) => c.notNull())
    .addColumn('queries', 'bigint', (c) => c.notNull().check(sql`queries >= 0`))
    .addPrimaryKeyConstraint('usage_ledger_pkey', ['key_id', 'period', 'endpoint', 'style'])
    .execute()

  await db.schema
    .createTable('usage_journal_state')
    .addColumn('journal_id', 'text', (c) => c.primaryKey())
    // The highest journal sequence number already added to the ledger.
    .addColumn('applied_seq', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

/** Drops the tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_journal_state').execute()
  await db.schema.dropTable('usage_ledger').execute()
  await db.schema.dropTable('api_keys').execute()
}
