/**
 * Attribution of counted MCP tool calls: which AI client called which tool, and which verses
 * were served, per key and month. Filled from the usage journal in the same transaction as
 * the ledger, so both stay exact together.
 */
import { sql, type Kysely } from 'kysely'

/** Creates the tables. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_clients')
    .addColumn('key_id', 'uuid', (c) => c.notNull().references('api_keys.id'))
    .addColumn('period', 'text', (c) => c.notNull())
    // `name/version` from the client's clientInfo, else its User-Agent, else `unknown`.
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('queries', 'bigint', (c) => c.notNull().check(sql`queries >= 0`))
    .addPrimaryKeyConstraint('usage_clients_pkey', ['key_id', 'period', 'client', 'tool'])
    .execute()

  await db.schema
    .createTable('usage_verses')
    .addColumn('key_id', 'uuid', (c) => c.notNull().references('api_keys.id'))
    .addColumn('period', 'text', (c) => c.notNull())
    // No foreign key to verses: the ids are the stable book/chapter/verse numbering, and usage
    // must never hold up a change to the text tables.
    .addColumn('verse_id', 'integer', (c) => c.notNull())
    .addColumn('serves', 'bigint', (c) => c.notNull().check(sql`serves >= 0`))
    .addPrimaryKeyConstraint('usage_verses_pkey', ['key_id', 'period', 'verse_id'])
    .execute()
}

/** Drops the tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_verses').execute()
  await db.schema.dropTable('usage_clients').execute()
}
