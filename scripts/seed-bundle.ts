/**
 * Part of `make build`: the prepared verse content seed (src/seed/content-bundle.ts). Parses and
 * validates every shipped line of db/content/verses/ and modernizes every verse, as the seed
 * would, and writes the rows under the seed hash of the files, so that a seed (a first start on
 * PostgreSQL, the seeded embedded template, a release's new content) loads them instead of
 * redoing the work. Skipped when the bundle was made from the same files and code.
 *
 * Options: --out <file> (default dist/seed-bundle/verse-content.jsonl), --force.
 */
import { performance } from 'node:perf_hooks'
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely'
import type { Database } from '../db/schema.js'
import { ContentRepository } from '../src/content/content.repository.js'
import { ContentService } from '../src/content/pipeline/content.service.js'
import { limitHeapGrowth } from '../src/infra/heap.js'
import { projectPath } from '../src/infra/paths.js'
import { writeContentBundle, readContentBundleHeader } from '../src/seed/content-bundle.js'
import { readKjvSeed } from '../src/seed/kjv-seed.js'
import { CONTENT_BUNDLE_FILE, KJV_SEED_FILE, VERSE_CONTENT_DIR } from '../src/seed/seed-files.js'
import { contentSeedHash, kjvSeedHash, makeVerseContentRows } from '../src/seed/seed.service.js'
import { VerseStore } from '../src/verses/verse.store.js'
import { option, peakResidentMiB, sourcesStamp } from './build-stamp.js'

/** The code that parses, validates and modernizes (the data is in the seed hash). */
const CODE = ['src/content', 'src/text', 'src/seed', 'src/verses']

// Its peak is the seeding's (make bench): the heap grows by little over what survives, as the server's does.
limitHeapGrowth()
const started = performance.now()
const out = option('out') ?? projectPath(CONTENT_BUNDLE_FILE)
const contentDir = projectPath(VERSE_CONTENT_DIR)
const kjvFile = projectPath(KJV_SEED_FILE)
// The hash alone says whether the bundle is current; the KJV is parsed only to build one.
const hash = contentSeedHash(contentDir, kjvSeedHash(kjvFile))
const sources = sourcesStamp(CODE, '')
const existing = readContentBundleHeader(out)
if (!process.argv.includes('--force') && existing?.hash === hash && existing.sources === sources) {
  console.log(`seed bundle: ${out} (up to date)`)
} else {
  // Parsing never queries: the service's repository sits on a Kysely with no database behind it.
  const offline = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  })
  const service = new ContentService(new ContentRepository(offline), new VerseStore(readKjvSeed(kjvFile).verses))
  const { shipped, modernized } = makeVerseContentRows(service, contentDir)
  const curated = shipped.filter((r) => r.method === 'curated').length
  await writeContentBundle(out, { hash, sources, curated, generated: shipped.length - curated, modernized: modernized.length }, [...shipped, ...modernized])
  console.log(
    `seed bundle: ${out} (${shipped.length} shipped and ${modernized.length} modernized rows) in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
      `peak resident memory ${peakResidentMiB().toFixed(0)} MiB`,
  )
}
