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

/** A narrative's summary and bottom line in one style, with how it was made. */
export interface NarrativeContentTable {
  narrative_slug: string
  style: 'faithful' | 'casual'
  method: 'curated' | 'generated'
  model: string | null
  prompt_version: string
  summary: string
  bottom_line: string
  content_hash: string
  created_at: ColumnType<Date, Date | string | undefined, never>
}

/** Which seed data set has been loaded, so seeding twice changes nothing. */
export interface SeedStateTable {
  name: string
  hash: string
  applied_at: Generated<Date>
}

/** An API key: only its hash is stored. */
export interface ApiKeysTable {
  id: string
  account_id: string
  name: string
  key_hash: string
  prefix: string
  tier: 'free' | 'developer' | 'scale'
  allowed_domains: ColumnType<string[], string, string>
  created_at: ColumnType<Date, Date | undefined, never>
  revoked_at: Date | null
  updated_at: ColumnType<Date, Date | undefined, Date>
}

/** Counted queries per key, month, endpoint and style: the durable record of usage. */
export interface UsageLedgerTable {
  key_id: string
  period: string
  endpoint: string
  style: string
  /** bigint: PostgreSQL returns it as a string. */
  queries: ColumnType<string, number, number>
}

/** Counted MCP tool calls per key, month, AI client and tool. */
export interface UsageClientsTable {
  key_id: string
  period: string
  client: string
  tool: string
  /** bigint: PostgreSQL returns it as a string. */
  queries: ColumnType<string, number, number>
}

/** How often counted MCP tool calls served each verse, per key and month. */
export interface UsageVersesTable {
  key_id: string
  period: string
  verse_id: number
  /** bigint: PostgreSQL returns it as a string. */
  serves: ColumnType<string, number, number>
}

/** Counted queries per key and day (UTC), dated by the flush that recorded them. */
export interface UsageDailyTable {
  key_id: string
  /** `YYYY-MM-DD`; read back as a string (see the repository's cast). */
  day: ColumnType<string, string, string>
  /** bigint: PostgreSQL returns it as a string. */
  queries: ColumnType<string, number, number>
}

/** How far each instance's usage journal has been applied to the ledger. */
export interface UsageJournalStateTable {
  journal_id: string
  applied_seq: ColumnType<string, number, number>
  updated_at: ColumnType<Date, Date | undefined, Date>
  /** Completed flushes of the instance (bigint: PostgreSQL returns it as a string). */
  flushes: ColumnType<string, number | undefined, number>
  /** When the instance last completed a flush, even one with nothing to add. */
  heartbeat_at: ColumnType<Date, Date | undefined, Date>
}

/** The whole schema. */
/**
 * One row: a token replaced by every statement that changes `verse_content` (migration 0007's
 * trigger), naming the content's revision (ContentRepository.revision).
 */
export interface ContentRevisionTable {
  id: Generated<boolean>
  token: string
}

export interface Database {
  verses: VersesTable
  verse_content: VerseContentTable
  content_revision: ContentRevisionTable
  narrative_content: NarrativeContentTable
  seed_state: SeedStateTable
  api_keys: ApiKeysTable
  usage_ledger: UsageLedgerTable
  usage_journal_state: UsageJournalStateTable
  usage_clients: UsageClientsTable
  usage_verses: UsageVersesTable
  usage_daily: UsageDailyTable
}
