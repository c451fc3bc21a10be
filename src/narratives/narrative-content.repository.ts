/** SQL for stored narrative content: the only module that touches `narrative_content`. */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { SHIPPED_PROMPT_PREFIX } from '../content/content.store.js'
import { shippedRow } from '../content/content.repository.js'

/** The styles a narrative is told in. */
export type NarrativeStyle = 'faithful' | 'casual'
/** How a narrative's content was made (no modernized text: there is no KJV narrative text to modernize). */
export type NarrativeMethod = 'curated' | 'generated'

/** One stored row. */
export interface StoredNarrativeContent {
  readonly slug: string
  readonly style: NarrativeStyle
  readonly method: NarrativeMethod
  readonly model: string | null
  readonly promptVersion: string
  readonly summary: string
  readonly bottomLine: string
  readonly contentHash: string
}

/** Reads and writes the `narrative_content` table. */
export class NarrativeContentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every stored row, ordered by narrative, style and method (a few thousand at most). */
  async listAll(): Promise<StoredNarrativeContent[]> {
    // One JSON text for all rows, parsed natively: decoding a thousand rows of long texts field
    // by field through the embedded database was most of this query's time at every start.
    const packed = await sql<{ packed: string | null }>`
      select json_agg(json_build_array(narrative_slug, style, method, model, prompt_version, summary, bottom_line, content_hash)
                      order by narrative_slug, style, method)::text as packed
      from narrative_content`
      .execute(this.db)
      .then((result) => result.rows[0]?.packed ?? null)
    // json_agg over no rows is null.
    if (packed === null) return []
    const rows = JSON.parse(packed) as Array<[string, NarrativeStyle, NarrativeMethod, string | null, string, string, string, string]>
    return rows.map(([slug, style, method, model, promptVersion, summary, bottomLine, contentHash]) => ({
      slug,
      style,
      method,
      model,
      promptVersion,
      summary,
      bottomLine,
      contentHash,
    }))
  }

  /** Inserts or replaces rows (key: narrative, style, method). */
  async upsertMany(rows: readonly StoredNarrativeContent[], options: { readonly keepOperatorRows?: boolean } = {}): Promise<void> {
    if (rows.length === 0) return
    await this.db
      .insertInto('narrative_content')
      .values(
        rows.map((r) => ({
          narrative_slug: r.slug,
          style: r.style,
          method: r.method,
          model: r.model,
          prompt_version: r.promptVersion,
          summary: r.summary,
          bottom_line: r.bottomLine,
          content_hash: r.contentHash,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['narrative_slug', 'style', 'method'])
          .doUpdateSet((eb) => ({
            model: eb.ref('excluded.model'),
            prompt_version: eb.ref('excluded.prompt_version'),
            summary: eb.ref('excluded.summary'),
            bottom_line: eb.ref('excluded.bottom_line'),
            content_hash: eb.ref('excluded.content_hash'),
            // Unchanged text keeps its date, so re-importing the same file changes nothing.
            created_at: sql<Date>`case when narrative_content.content_hash = excluded.content_hash then narrative_content.created_at else now() end`,
          }))
          // The seed replaces only rows it owns: an operator's imported or generated row stays.
          .$call((update) => (options.keepOperatorRows === true ? update.where(shippedRow('narrative_content')) : update)),
      )
      .execute()
  }

  /**
   * Slugs whose content a generation run with this style and prompt version leaves alone:
   * those already generated with it (a resumed run) and those with shipped content.
   */
  async coveredSlugs(style: NarrativeStyle, promptVersion: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('narrative_content')
      .select('narrative_slug')
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
    return new Set(rows.map((r) => r.narrative_slug))
  }

  /** Deletes the shipped rows (curated, or generated with an editorial prompt) that `keep` no longer has. */
  async deleteShippedExcept(keep: readonly StoredNarrativeContent[]): Promise<void> {
    const wanted = new Set(keep.map((r) => `${r.slug}:${r.style}:${r.method}`))
    const existing = await this.db
      .selectFrom('narrative_content')
      .select(['narrative_slug', 'style', 'method'])
      .where(shippedRow('narrative_content'))
      .execute()
    for (const row of existing) {
      if (wanted.has(`${row.narrative_slug}:${row.style}:${row.method}`)) continue
      await this.db
        .deleteFrom('narrative_content')
        .where('narrative_slug', '=', row.narrative_slug)
        .where('style', '=', row.style)
        .where('method', '=', row.method)
        .execute()
    }
  }

  /** Runs `work` in one transaction with a repository bound to it. */
  async transaction<T>(work: (repository: NarrativeContentRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new NarrativeContentRepository(trx)))
  }
}
