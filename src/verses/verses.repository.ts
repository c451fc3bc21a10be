/** SQL for the verses table. */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import type { VerseRecord } from './verse.store.js'

/** Rows per INSERT: large enough to be quick, small enough for PostgreSQL's 65,535 parameters. */
const BATCH = 1_000

/** Reads and writes the `verses` table. */
export class VersesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every verse in canonical order. */
  async listAll(): Promise<VerseRecord[]> {
    const rows = await this.db
      .selectFrom('verses')
      .select(['id', 'book', 'chapter', 'verse', 'text', 'paragraph', 'italics', 'words_of_christ', 'title'])
      .orderBy('id')
      .execute()
    return rows.map((r) => ({
      id: r.id,
      book: r.book,
      chapter: r.chapter,
      verse: r.verse,
      text: r.text,
      paragraph: r.paragraph,
      italics: r.italics,
      wordsOfChrist: r.words_of_christ,
      title: r.title,
    }))
  }

  /** Number of stored verses. */
  async count(): Promise<number> {
    const row = await this.db.selectFrom('verses').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /**
   * Inserts or corrects verses (upsert by id) inside the caller's transaction, so a
   * seed either lands whole or not at all.
   */
  async upsertMany(verses: readonly VerseRecord[]): Promise<void> {
    for (let i = 0; i < verses.length; i += BATCH) {
      await this.db
        .insertInto('verses')
        .values(
          verses.slice(i, i + BATCH).map((v) => ({
            id: v.id,
            book: v.book,
            chapter: v.chapter,
            verse: v.verse,
            text: v.text,
            paragraph: v.paragraph,
            italics: JSON.stringify(v.italics),
            words_of_christ: JSON.stringify(v.wordsOfChrist),
            title: v.title,
          })),
        )
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            text: eb.ref('excluded.text'),
            paragraph: eb.ref('excluded.paragraph'),
            italics: eb.ref('excluded.italics'),
            words_of_christ: eb.ref('excluded.words_of_christ'),
            title: eb.ref('excluded.title'),
          })),
        )
        .execute()
    }
  }

  /** Deletes verses whose ids are not in the list (a corrected seed dropped them). */
  async deleteExcept(ids: readonly number[]): Promise<number> {
    const keep = new Set(ids)
    const existing = await this.db.selectFrom('verses').select('id').execute()
    const stale = existing.map((r) => r.id).filter((id) => !keep.has(id))
    for (let i = 0; i < stale.length; i += BATCH) {
      await this.db.deleteFrom('verses').where('id', 'in', stale.slice(i, i + BATCH)).execute()
    }
    return stale.length
  }
}
