/**
 * Part of `make build`, after scripts/pglite-template.ts and scripts/seed-bundle.ts: the embedded
 * database migrated and seeded once, in dist/pglite-seeded/<PGlite version>/. A server's (or
 * the CLI's) first start on an empty DATA_DIR copies it (src/infra/database.ts) and finds every
 * seed data set loaded, instead of seeding in its own process. Skipped when the stamp beside it
 * says it was made from the same schema, seed data, code and bundle.
 *
 * Options: --out <folder> (default dist/pglite-seeded/<PGlite version>), --bundle <file>
 * (default dist/seed-bundle/verse-content.jsonl), --force.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { openDatabase, pgliteSeededTemplateDir, pgliteVersion } from '../src/infra/database.js'
import { limitHeapGrowth } from '../src/infra/heap.js'
import { projectPath } from '../src/infra/paths.js'
import { readContentBundleHeader } from '../src/seed/content-bundle.js'
import { CONTENT_BUNDLE_FILE, KJV_SEED_FILE, VERSE_CONTENT_DIR } from '../src/seed/seed-files.js'
import { contentSeedHash, kjvSeedHash } from '../src/seed/seed.service.js'
import { prepareDatabase } from '../src/startup.js'
import { option, peakResidentMiB, sourcesStamp } from './build-stamp.js'

/** The schema, the seed data, and the code that migrates, reads, checks and derives them. */
const SOURCES = ['db', 'src/content', 'src/text', 'src/seed', 'src/narratives', 'src/verses', 'src/infra']
/**
 * What this script does to the database after the seed, in the stamp so that a template made
 * before a change here is made again. 2: vacuumed and analyzed.
 */
const TEMPLATE_STEPS = 'steps 2'

// Its peak is the seeding's (make bench): the heap grows by little over what survives, as the server's does.
limitHeapGrowth()
const started = performance.now()
const out = option('out') ?? pgliteSeededTemplateDir()
const bundle = option('bundle') ?? projectPath(CONTENT_BUNDLE_FILE)
const header = readContentBundleHeader(bundle)
const stampFile = `${out}.stamp`
const stamp = sourcesStamp(SOURCES, `${pgliteVersion()}\n${header?.hash ?? ''}\n${header?.sources ?? ''}\n${TEMPLATE_STEPS}`)
const recorded = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : undefined
if (!process.argv.includes('--force') && recorded === stamp && existsSync(join(out, 'PG_VERSION'))) {
  console.log(`seeded PGlite template: ${out} (up to date)`)
} else {
  mkdirSync(dirname(out), { recursive: true })
  const building = `${out}.building-${process.pid}`
  rmSync(building, { recursive: true, force: true })
  // An empty folder starts from the initialized template of scripts/pglite-template.ts.
  const handle = await openDatabase({ kind: 'pglite', dir: building })
  const report = await prepareDatabase(handle.db, { contentBundle: bundle })
  // Every copy starts from here: with the visibility map set and the statistics gathered once,
  // each start's queries read the indexes alone (the verse count, for one, no longer scans the
  // table) and plan from real row counts. The embedded database runs no autovacuum to do it later.
  await sql`vacuum (analyze)`.execute(handle.db)
  await handle.close()
  rmSync(join(building, 'postmaster.pid'), { force: true })
  rmSync(stampFile, { force: true })
  rmSync(out, { recursive: true, force: true })
  renameSync(building, out)
  writeFileSync(stampFile, `${stamp}\n`)
  const current = contentSeedHash(projectPath(VERSE_CONTENT_DIR), kjvSeedHash(projectPath(KJV_SEED_FILE)))
  const from = report.seed.content.status === 'loaded' && header?.hash === current ? ' (verse content from the seed bundle)' : ''
  console.log(
    `seeded PGlite template: ${out}${from} in ${((performance.now() - started) / 1000).toFixed(1)} s, peak resident memory ${peakResidentMiB().toFixed(0)} MiB`,
  )
}
