/**
 * The database's tables as Kysely sees them. Migrations in `db/migrations/` create them;
 * keep the two in step.
 */
import type { ColumnType, Generated } from 'kysely'

/** One verse of the KJV; `id` is book * 1,000,000 + chapter * 1,000 + verse. */
export interface VersesTable {
  id: number
  book: number
  chapter: number
  verse: number
  text: string
  /** A KJV paragraph (pilcrow) starts at this verse. */
  paragraph: boolean
  /** Translators' added words (italics): [start, end) offsets into `text`. */
  italics: ColumnType<Array<[number, number]>, string, string>
  /** Words of Christ (red letter): [start, end) offsets into `text`. */
  words_of_christ: ColumnType<Array<[number, number]>, string, string>
  /** A heading the KJV prints before the verse (Psalm superscriptions, acrostic letters). */
  title: string | null
}

/** Derived text for one verse in one style, with how it was made. */
export interface VerseContentTable {
  verse_id: number
  style: 'faithful' | 'casual'
  method: 'curated' | 'generated' | 'modernized'
  model: string | null
  prompt_version: string
  simplified_text: string | null
  bottom_line: string | null
  historical_context: string | null
  practical_reflection: string | null
  content_hash: string
  created_at: ColumnType<Date, Date | string | undefined, never>
}

/** Which seed data set has been loaded, so seeding twice changes nothing. */
export interface SeedStateTable {
  name: string
  hash: string
  applied_at: Generated<Date>
}

/** The whole schema. */
export interface Database {
  verses: VersesTable
  verse_content: VerseContentTable
  seed_state: SeedStateTable
}
