/**
 * The content revision: one token that every statement changing `verse_content` replaces with a
 * fresh random one (a statement-level trigger), so that what the server derives from the content
 * (the content pack in DATA_DIR/content) knows whether it is still current without reading the
 * content. A copied database (`create database ... template`, a copied PGlite folder) keeps the
 * token, which is right: its content is the same.
 */
import { sql, type Kysely } from 'kysely'

/** Creates the one-row table, its first token and the trigger. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_revision')
    // A boolean key that can only be true: the table holds one row at most.
    .addColumn('id', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`id`))
    .addColumn('token', 'text', (c) => c.notNull())
    .execute()
  await sql`insert into content_revision (id, token) values (true, gen_random_uuid()::text)`.execute(db)
  await sql`
    create function content_revision_bump() returns trigger language plpgsql as $$
    begin
      update content_revision set token = gen_random_uuid()::text;
      return null;
    end
    $$`.execute(db)
  // For each statement, truncate included: any change at all, even one touching no row (a
  // needless rebuild of the pack is cheap; a missed change would serve stale content).
  await sql`
    create trigger verse_content_revision after insert or update or delete or truncate on verse_content
    for each statement execute function content_revision_bump()`.execute(db)
}

/** Drops the trigger, its function and the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger verse_content_revision on verse_content`.execute(db)
  await sql`drop function content_revision_bump()`.execute(db)
  await db.schema.dropTable('content_revision').execute()
}
