/** SQL for the seed bookkeeping table. */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'

/** Records which version (hash) of each seed data set is loaded. */
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
}
