/** SQL for the verses table. */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { verseIdSlices, type StructuredVerse, type VerseRecord } from './verse.store.js'

/** Rows per INSERT: large enough to be quick, small enough for PostgreSQL's 65,535 parameters. */
const BATCH = 1_000

/** Reads and writes the `verses` table. */
export class VersesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Every verse in canonical order, without the structure the API does not serve. The rows
   * come back as one string (id and text, separated by ASCII unit and record separators):
   * decoding 31,102 rows one by one is otherwise most of start-up.
   */
  async listAll(): Promise<VerseRecord[]> {
    const verses: VerseRecord[] = []
    // A few books per query: see ContentRepository.listAll.
    for (const [from, to] of verseIdSlices()) {
      const row = await this.db
        .selectFrom('verses')
        .select(sql<string | null>`string_agg(id::text || chr(31) || text, chr(30) order by id)`.as('packed'))
        .where('id', '>=', from)
        .where('id', '<', to)
        .executeTakeFirstOrThrow()
      if (row.packed === null) continue
      for (const record of row.packed.split('\u001e')) {
        const separator = record.indexOf('\u001f')
        const id = Number(record.slice(0, separator))
        verses.push({
          id,
          book: Math.floor(id / 1_000_000),
          chapter: Math.floor(id / 1_000) % 1_000,
          verse: id % 1_000,
          text: record.slice(separator + 1),
        })
      }
    }
    return verses
  }

  /** Number of stored verses. */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('verses')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /**
   * Inserts or corrects verses (upsert by id) inside the caller's transaction, so a
   * seed either lands whole or not at all.
   */
  async upsertMany(verses: readonly StructuredVerse[]): Promise<void> {
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
      await this.db
        .deleteFrom('verses')
        .where('id', 'in', stale.slice(i, i + BATCH))
        .execute()
    }
    return stale.length
  }
}
