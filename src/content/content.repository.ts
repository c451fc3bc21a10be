/** SQL for stored verse content. */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import type { StyleContent } from './content.store.js'

/** Reads and writes the `verse_content` table. */
export class ContentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every stored row, for the in-memory store. */
  async listAll(): Promise<StyleContent[]> {
    const rows = await this.db
      .selectFrom('verse_content')
      .select([
        'verse_id', 'style', 'method', 'model', 'prompt_version', 'simplified_text', 'bottom_line',
        'historical_context', 'practical_reflection', 'content_hash',
      ])
      .orderBy('verse_id')
      .execute()
    return rows.map((r) => ({
      verseId: r.verse_id,
      style: r.style,
      method: r.method,
      model: r.model,
      promptVersion: r.prompt_version,
      simplifiedText: r.simplified_text,
      bottomLine: r.bottom_line,
      historicalContext: r.historical_context,
      practicalReflection: r.practical_reflection,
      contentHash: r.content_hash,
    }))
  }
}
