/**
 * Loads the committed seed data into the database. Idempotent: a data set whose hash is
 * already recorded is skipped, and a changed one is applied whole in one transaction.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { VersesRepository } from '../verses/verses.repository.js'
import { parseKjvSeed, readKjvSeedFile } from './kjv-seed.js'
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
  // Hashing the file is cheap; parsing 31,102 lines is not, so it happens only when needed.
  const file = readKjvSeedFile(kjvFile)
  const loaded = await new SeedRepository(db).loadedHash('kjv')
  if (loaded === file.hash) {
    return { kjv: { status: 'unchanged', verses: await new VersesRepository(db).count() } }
  }
  const verses = parseKjvSeed(file.compressed)
  await db.transaction().execute(async (trx) => {
    const repository = new VersesRepository(trx)
    await repository.upsertMany(verses)
    await repository.deleteExcept(verses.map((v) => v.id))
    await new SeedRepository(trx).markLoaded('kjv', file.hash)
  })
  return { kjv: { status: 'loaded', verses: verses.length } }
}
