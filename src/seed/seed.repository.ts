/** SQL for the seed bookkeeping table, and the seed's bulk writes of verse content. */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { shippedRow } from '../content/content.repository.js'
import type { StoredContent } from '../content/content.store.js'

/** Records which version (hash) of each seed data set is loaded, and writes the seed's verse content. */
export class SeedRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The hash of the loaded data set, if any. */
  async loadedHash(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('seed_state').select('hash').where('name', '=', name).executeTakeFirst()
    return row?.hash
  }

  /** Marks a data set as loaded. */
  async markLoaded(name: string, hash: string): Promise<void> {
    await this.db
      .insertInto('seed_state')
      .values({ name, hash })
      .onConflict((oc) => oc.column('name').doUpdateSet({ hash, applied_at: new Date() }))
      .execute()
  }

  /**
   * Inserts or replaces the seed's verse content rows (shipped and modernized), in one statement
   * per call: each column goes as one array parameter and `unnest` makes the rows, so thousands of
   * rows cost one round trip and a few parameters instead of ten per row. A row an operator
   * imported or generated is never replaced (the rule of ContentRepository.upsertMany with
   * `keepOperatorRows`); only a changed text gets a new `created_at`.
   */
  async upsertContent(rows: readonly StoredContent[]): Promise<void> {
    if (rows.length === 0) return
    const column = <T>(pick: (row: StoredContent) => T): T[] => rows.map(pick)
    await sql`
      insert into verse_content (verse_id, style, method, model, prompt_version, simplified_text, bottom_line, historical_context, practical_reflection, content_hash)
      select * from unnest(
        ${column((r) => r.verseId)}::int[], ${column((r) => r.style)}::text[], ${column((r) => r.method)}::text[], ${column((r) => r.model)}::text[],
        ${column((r) => r.promptVersion)}::text[], ${column((r) => r.simplifiedText)}::text[], ${column((r) => r.bottomLine)}::text[],
        ${column((r) => r.historicalContext)}::text[], ${column((r) => r.practicalReflection)}::text[], ${column((r) => r.contentHash)}::text[])
      on conflict (verse_id, style, method) do update set
        model = excluded.model,
        prompt_version = excluded.prompt_version,
        simplified_text = excluded.simplified_text,
        bottom_line = excluded.bottom_line,
        historical_context = excluded.historical_context,
        practical_reflection = excluded.practical_reflection,
        content_hash = excluded.content_hash,
        created_at = case when verse_content.content_hash = excluded.content_hash then verse_content.created_at else now() end
      where ${shippedRow('verse_content')} or verse_content.method = 'modernized'`.execute(this.db)
  }

  /**
   * Deletes the shipped verse content rows (content.store.ts isShipped) whose key is not among
   * `keep`: content the seed loaded once and the repository has since dropped. Other rows are
   * never touched.
   */
  async deleteShippedContentExcept(keep: {
    readonly verseIds: readonly number[]
    readonly styles: readonly string[]
    readonly methods: readonly string[]
  }): Promise<void> {
    await sql`
      delete from verse_content
      where ${shippedRow('verse_content')}
        and not exists (
          select 1 from unnest(${keep.verseIds}::int[], ${keep.styles}::text[], ${keep.methods}::text[]) as kept(verse_id, style, method)
          where kept.verse_id = verse_content.verse_id and kept.style = verse_content.style and kept.method = verse_content.method)`.execute(this.db)
  }
}
