/**
 * Narrative content (a summary and a bottom line per narrative and style) with the same
 * provenance as verse content, so that generated narratives can be stored, resumed and
 * exported like verses instead of living only in a committed file.
 */
import { sql, type Kysely } from 'kysely'

/** Creates the table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('narrative_content')
    // No foreign key: narratives live in db/narratives/narratives.json, not in the database.
    .addColumn('narrative_slug', 'text', (c) => c.notNull())
    .addColumn('style', 'text', (c) => c.notNull().check(sql`style in ('faithful', 'casual')`))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('curated', 'generated')`))
    .addColumn('model', 'text')
    .addColumn('prompt_version', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('bottom_line', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // One row per narrative, style and method: precedence (curated first) is applied when reading.
    .addPrimaryKeyConstraint('narrative_content_pkey', ['narrative_slug', 'style', 'method'])
    .execute()
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('narrative_content').execute()
}
