/**
 * Start-up steps shared by the server, the CLI and the tests: bring the database up to
 * date and load what the hot path serves from memory.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.js'
import { ContentRepository } from './content/content.repository.js'
import { ContentStore } from './content/content.store.js'
import { migrateToLatest } from './infra/database.js'
import { projectPath } from './infra/paths.js'
import { KJV_SEED_FILE } from './seed/kjv-seed.js'
import { seedDatabase, type SeedReport } from './seed/seed.service.js'
import { VerseStore } from './verses/verse.store.js'
import { VersesRepository } from './verses/verses.repository.js'

/** What preparing the database did. */
export interface PrepareReport {
  readonly migrations: readonly string[]
  readonly seed: SeedReport
}

/** Runs pending migrations, then the (idempotent) seed. */
export async function prepareDatabase(db: Kysely<Database>): Promise<PrepareReport> {
  const migrations = await migrateToLatest(db)
  const seed = await seedDatabase(db, projectPath(KJV_SEED_FILE))
  return { migrations, seed }
}

/** The in-memory stores the hot path reads. */
export interface Stores {
  readonly verses: VerseStore
  readonly content: ContentStore
}

/** Loads every verse and every piece of content into memory. */
export async function loadStores(db: Kysely<Database>): Promise<Stores> {
  const [verses, content] = await Promise.all([new VersesRepository(db).listAll(), new ContentRepository(db).listAll()])
  return { verses: new VerseStore(verses), content: new ContentStore(content) }
}
