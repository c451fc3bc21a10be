/** Verses, their per-style content with provenance, and the seed bookkeeping. */
import { sql, type Kysely } from 'kysely'

/** Creates the tables. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('verses')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('book', 'smallint', (c) => c.notNull().check(sql`book between 1 and 66`))
    .addColumn('chapter', 'smallint', (c) => c.notNull().check(sql`chapter >= 1`))
    .addColumn('verse', 'smallint', (c) => c.notNull().check(sql`verse >= 1`))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('paragraph', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('italics', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('words_of_christ', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('title', 'text')
    .addUniqueConstraint('verses_book_chapter_verse_key', ['book', 'chapter', 'verse'])
    .execute()

  await db.schema
    .createTable('verse_content')
    .addColumn('verse_id', 'integer', (c) => c.notNull().references('verses.id').onDelete('cascade'))
    .addColumn('style', 'text', (c) => c.notNull().check(sql`style in ('faithful', 'casual')`))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('curated', 'generated', 'modernized')`))
    .addColumn('model', 'text')
    .addColumn('prompt_version', 'text', (c) => c.notNull())
    .addColumn('simplified_text', 'text')
    .addColumn('bottom_line', 'text')
    .addColumn('historical_context', 'text')
    .addColumn('practical_reflection', 'text')
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // One row per verse, style and method: precedence between methods is applied when reading.
    .addPrimaryKeyConstraint('verse_content_pkey', ['verse_id', 'style', 'method'])
    .execute()

  await db.schema
    .createTable('seed_state')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

/** Drops the tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('seed_state').execute()
  await db.schema.dropTable('verse_content').execute()
  await db.schema.dropTable('verses').execute()
}
