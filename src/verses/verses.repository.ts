/** SQL for the verses table. */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { SeedRepository } from '../seed/seed.repository.js'
import { parseVerseRecords } from './verse.file.js'
import { verseIdSlices, type StructuredVerse, type VerseRecord } from './verse.store.js'

/** Ids per DELETE: large enough to be quick, small enough for PostgreSQL's 65,535 parameters. */
const BATCH = 1_000

/** Verses per upsert statement (each column is one array parameter). */
const UNNEST_BATCH = 5_000

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
      if (row.packed !== null) parseVerseRecords(row.packed, verses)
    }
    return verses
  }

  /**
   * Runs `work` on one consistent view of the database (a repeatable-read transaction), with a
   * repository bound to it, and the KJV seed hash recorded in that same view.
   */
  async snapshot<T>(work: (repository: VersesRepository, seedHash: string | undefined) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => work(new VersesRepository(trx), await new SeedRepository(trx).loadedHash('kjv')))
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
   * seed either lands whole or not at all. Each column goes as one array parameter and `unnest`
   * makes the rows: thousands of verses per statement, a few parameters instead of nine per row.
   */
  async upsertMany(verses: readonly StructuredVerse[]): Promise<void> {
    for (let i = 0; i < verses.length; i += UNNEST_BATCH) {
      const batch = verses.slice(i, i + UNNEST_BATCH)
      const column = <T>(pick: (verse: StructuredVerse) => T): T[] => batch.map(pick)
      // The ranges go as JSON text, cast in SQL: drivers disagree on how to send a jsonb[].
      await sql`
        insert into verses (id, book, chapter, verse, text, paragraph, italics, words_of_christ, title)
        select id, book, chapter, verse, text, paragraph, italics::jsonb, words_of_christ::jsonb, title
        from unnest(
          ${column((v) => v.id)}::int[], ${column((v) => v.book)}::int[], ${column((v) => v.chapter)}::int[], ${column((v) => v.verse)}::int[],
          ${column((v) => v.text)}::text[], ${column((v) => v.paragraph)}::boolean[], ${column((v) => JSON.stringify(v.italics))}::text[],
          ${column((v) => JSON.stringify(v.wordsOfChrist))}::text[], ${column((v) => v.title)}::text[])
          as v(id, book, chapter, verse, text, paragraph, italics, words_of_christ, title)
        on conflict (id) do update set
          text = excluded.text,
          paragraph = excluded.paragraph,
          italics = excluded.italics,
          words_of_christ = excluded.words_of_christ,
          title = excluded.title`.execute(this.db)
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
