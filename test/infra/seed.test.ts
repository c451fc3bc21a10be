/** Migrations and seeding on every backend: idempotent, complete, and the store loads them. */
import t from 'tap'
import { sql } from 'kysely'
import { migrations } from '../../db/migrations/index.js'
import { prepareDatabase, loadStores } from '../../src/startup.js'
import { availableKinds, openTestDatabase } from '../helpers/database.js'

for (const { kind, skip } of availableKinds()) {
  t.test(`migrate and seed on ${kind}`, { skip }, async (t) => {
    const database = await openTestDatabase(kind, { seeded: false })
    t.teardown(() => database.close())

    const first = await prepareDatabase(database.db)
    t.same(first.migrations, Object.keys(migrations), 'every migration runs once, in order')
    t.same(first.seed.kjv, { status: 'loaded', verses: 31102 })
    t.same(first.seed.content, { status: 'loaded', curated: 2076, modernized: 31102 }, 'curated content for 1,038 verses in both styles, a modernized faithful text for every verse')
    t.same(first.seed.narrativeContent, { status: 'loaded', curated: 702 }, 'every line of db/content/narratives.jsonl')

    const snapshot = async (): Promise<string> => {
      const { rows } = await sql<{ digest: string; n: number; content: string }>`
        select md5(string_agg(id::text || text || paragraph::text || italics::text || words_of_christ::text || coalesce(title, ''), '|' order by id)) as digest,
               count(*)::int as n,
               (select md5(string_agg(verse_id::text || style || method || content_hash || created_at::text, '|' order by verse_id, style, method)) from verse_content) as content
        from verses`.execute(database.db)
      return `${rows[0]?.n}:${rows[0]?.digest}:${rows[0]?.content}`
    }
    const before = await snapshot()

    const second = await prepareDatabase(database.db)
    t.same(second.migrations, [], 'no migration runs twice')
    t.same(second.seed.kjv, { status: 'unchanged', verses: 31102 }, 'seeding twice changes nothing')
    t.equal(second.seed.content.status, 'unchanged')
    t.same(second.seed.narrativeContent, { status: 'unchanged', curated: 0 })
    t.equal(await snapshot(), before)

    // A damaged row is repaired when the seed is applied again (e.g. after the seed file changes).
    await sql`update verses set text = 'tampered' where id = 43003016`.execute(database.db)
    await sql`delete from seed_state`.execute(database.db)
    const third = await prepareDatabase(database.db)
    t.equal(third.seed.kjv.status, 'loaded')
    t.equal(await snapshot(), before, 'reseeding restores the committed text')

    const stores = await loadStores(database.db)
    t.equal(stores.verses.size, 31102)
    t.equal(stores.content.get(43003016, 'faithful')?.method, 'curated', 'curated wins over modernized')
    t.equal(stores.content.get(3011004, 'faithful')?.method, 'modernized')
    t.equal(stores.content.get(3011004, 'casual'), undefined)
    t.equal(stores.intros.size, 66)
    t.equal(stores.narrativeContent.size, 702, 'narrative content is served from the database')
    t.equal(stores.narrativeContent.get('matthew-josephs-dream-and-the-birth-of-jesus:faithful')?.method, 'curated')
    t.equal(stores.verses.get(43, 11, 35)?.text, 'Jesus wept.')
    t.equal(stores.verses.get(64, 1, 15), undefined, '3 John 1:15 does not exist')
  })
}
