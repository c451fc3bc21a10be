/**
 * Loads the committed seed data into the database. Idempotent: a data set whose hash is
 * already recorded is skipped, and a changed one is applied whole in one transaction.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { VersesRepository } from '../verses/verses.repository.js'
import { readKjvSeed } from './kjv-seed.js'
import { SeedRepository } from './seed.repository.js'

/** What a seed run did, per data set. */
export interface SeedReport {
  readonly kjv: { readonly status: 'unchanged' | 'loaded'; readonly verses: number }
}

/**
 * Seeds the KJV from `kjvFile`.
 * @example await seedDatabase(db, projectPath(KJV_SEED_FILE))
 */
export async function seedDatabase(db: Kysely<Database>, kjvFile: string): Promise<SeedReport> {
  const seed = readKjvSeed(kjvFile)
  const loaded = await new SeedRepository(db).loadedHash('kjv')
  if (loaded === seed.hash) {
    return { kjv: { status: 'unchanged', verses: seed.verses.length } }
  }
  await db.transaction().execute(async (trx) => {
    const verses = new VersesRepository(trx)
    await verses.upsertMany(seed.verses)
    await verses.deleteExcept(seed.verses.map((v) => v.id))
    await new SeedRepository(trx).markLoaded('kjv', seed.hash)
  })
  return { kjv: { status: 'loaded', verses: seed.verses.length } }
}
