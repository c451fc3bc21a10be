/** SQL for stored verse content. */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from '../../db/schema.js'
import { verseIdSlices } from '../verses/verse.store.js'
import { SHIPPED_PROMPT_PREFIX, type ContentMethod, type Style, type StoredContent, type StyleContent } from './content.store.js'

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters. */
const BATCH = 1_000

/**
 * "The seed owns this row" in SQL, for the verse or the narrative content table: the rule of
 * {@link isShipped} (curated, or generated with an editorial prompt version), written once.
 */
export function shippedRow(table: 'verse_content' | 'narrative_content'): RawBuilder<boolean> {
  const method = sql.ref(`${table}.method`)
  return sql<boolean>`(${method} = 'curated' or (${method} = 'generated' and ${sql.ref(`${table}.prompt_version`)} like ${`${SHIPPED_PROMPT_PREFIX}%`}))`
}

/** Reads and writes the `verse_content` table. */
export class ContentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Every stored row. Fetched a few books at a time, each slice as one string (fields separated
   * by ASCII unit separators, rows by record separators, NULL as a NAK character): decoding tens
   * of thousands of rows one by one would dominate start-up, and one string for the whole table
   * would make the embedded database grow its memory (which it never gives back) by several
   * times the table's size.
   */
  async listAll(): Promise<StyleContent[]> {
    const rows: StyleContent[] = []
    for await (const slice of this.slices(false)) rows.push(...slice)
    return rows
  }

  /**
   * The row that wins for each verse and style (curated, then generated, then modernized: the
   * rule of content.store.ts outranks), a few books at a time in verse order, for the content
   * pack: rows another one outranks (most modernized texts) are left in the database, and never
   * more than one slice is in memory.
   */
  effectiveSlices(): AsyncGenerator<StyleContent[]> {
    return this.slices(true)
  }

  /**
   * The content revision: a token that changes with every statement that changes verse content
   * (a trigger of migration 0007), so that what is derived from the content (the content pack)
   * can tell whether it is still current.
   */
  async revision(): Promise<string> {
    const row = await this.db.selectFrom('content_revision').select('token').executeTakeFirstOrThrow()
    return row.token
  }

  private async *slices(effectiveOnly: boolean): AsyncGenerator<StyleContent[]> {
    const field = (name: string) => sql`coalesce(${sql.ref(name)}, chr(21))`
    const value = (text: string | undefined): string | null => (text === undefined || text === '\u0015' ? null : text)
    for (const [from, to] of verseIdSlices()) {
      const slice = this.db.selectFrom('verse_content').selectAll().where('verse_id', '>=', from).where('verse_id', '<', to)
      const source = effectiveOnly
        ? slice
            .distinctOn(['verse_id', 'style'])
            .orderBy('verse_id')
            .orderBy('style')
            .orderBy(sql`case method when 'curated' then 0 when 'generated' then 1 else 2 end`)
        : slice
      const row = await this.db
        .selectFrom(source.as('slice'))
        .select(
          sql<
            string | null
          >`string_agg(concat_ws(chr(31), verse_id, style, method, ${field('model')}, prompt_version, ${field('simplified_text')}, ${field('bottom_line')}, ${field('historical_context')}, ${field('practical_reflection')}), chr(30) order by verse_id, style, method)`.as(
            'packed',
          ),
        )
        .executeTakeFirstOrThrow()
      if (row.packed === null) continue
      const rows: StyleContent[] = []
      for (const record of row.packed.split('\u001e')) {
        const [verseId, style, method, model, promptVersion, simplifiedText, bottomLine, historicalContext, practicalReflection] = record.split('\u001f')
        rows.push({
          verseId: Number(verseId),
          style: style as Style,
          method: method as ContentMethod,
          model: value(model),
          promptVersion: promptVersion ?? '',
          simplifiedText: value(simplifiedText),
          bottomLine: value(bottomLine),
          historicalContext: value(historicalContext),
          practicalReflection: value(practicalReflection),
        })
      }
      yield rows
    }
  }

  /** Rows of one method (and optionally one style), in canonical order, for export. */
  async listByMethod(methods: readonly ContentMethod[], style: Style | undefined): Promise<StyleContent[]> {
    return (await this.listAll()).filter((r) => methods.includes(r.method) && (style === undefined || r.style === style))
  }

  /**
   * Inserts or replaces rows (key: verse, style, method) inside the caller's transaction.
   * With `keepOperatorRows` (the seed), a row an operator imported or generated is never
   * replaced: only shipped rows (content.store.ts isShipped) are.
   */
  async upsertMany(rows: readonly StoredContent[], options: { readonly keepOperatorRows?: boolean } = {}): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH) {
      await this.db
        .insertInto('verse_content')
        .values(
          rows.slice(i, i + BATCH).map((r) => ({
            verse_id: r.verseId,
            style: r.style,
            method: r.method,
            model: r.model,
            prompt_version: r.promptVersion,
            simplified_text: r.simplifiedText,
            bottom_line: r.bottomLine,
            historical_context: r.historicalContext,
            practical_reflection: r.practicalReflection,
            content_hash: r.contentHash,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['verse_id', 'style', 'method'])
            .doUpdateSet((eb) => ({
              model: eb.ref('excluded.model'),
              prompt_version: eb.ref('excluded.prompt_version'),
              simplified_text: eb.ref('excluded.simplified_text'),
              bottom_line: eb.ref('excluded.bottom_line'),
              historical_context: eb.ref('excluded.historical_context'),
              practical_reflection: eb.ref('excluded.practical_reflection'),
              content_hash: eb.ref('excluded.content_hash'),
              created_at: sql<Date>`case when verse_content.content_hash = excluded.content_hash then verse_content.created_at else now() end`,
            }))
            .$call((update) => (options.keepOperatorRows === true ? update.where(shippedRow('verse_content')) : update)),
        )
        .execute()
    }
  }

  /**
   * Deletes the shipped rows (see {@link isShipped}) that `keep` no longer has: content the
   * seed loaded once and the repository has since dropped. Other rows are never touched.
   */
  async deleteShippedExcept(keep: readonly StyleContent[]): Promise<void> {
    const wanted = new Set(keep.map((r) => `${r.verseId}:${r.style}:${r.method}`))
    const existing = await this.db
      .selectFrom('verse_content')
      .select(['verse_id', 'style', 'method', 'prompt_version'])
      .where(shippedRow('verse_content'))
      .execute()
    for (const row of existing) {
      if (wanted.has(`${row.verse_id}:${row.style}:${row.method}`)) continue
      await this.db.deleteFrom('verse_content').where('verse_id', '=', row.verse_id).where('style', '=', row.style).where('method', '=', row.method).execute()
    }
  }

  /**
   * Verse ids whose content a generation run with this style and prompt version leaves alone:
   * those already generated with it (a resumed run) and those with shipped content.
   */
  async coveredVerseIds(style: Style, promptVersion: string): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('verse_content')
      .select('verse_id')
      .where('style', '=', style)
      .where((eb) =>
        eb.or([
          eb('method', '=', 'curated'),
          eb.and([
            eb('method', '=', 'generated'),
            eb.or([eb('prompt_version', '=', promptVersion), eb('prompt_version', 'like', `${SHIPPED_PROMPT_PREFIX}%`)]),
          ]),
        ]),
      )
      .execute()
    return new Set(rows.map((r) => r.verse_id))
  }

  /**
   * Runs `work` on one consistent view of the database (a repeatable-read transaction), with a
   * repository bound to it: what it reads in several statements belongs to one moment.
   */
  async snapshot<T>(work: (repository: ContentRepository) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => work(new ContentRepository(trx)))
  }

  /** Runs `work` in one transaction with a repository bound to it. */
  async transaction<T>(work: (repository: ContentRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new ContentRepository(trx)))
  }
}
