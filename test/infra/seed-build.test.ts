/**
 * The seed work done at build time: the prepared verse content bundle and the seeded embedded
 * template (scripts/seed-bundle.ts, scripts/seeded-template.ts, run here into a temporary folder
 * as `make build` runs them into dist/), a first start that copies the template, and a seed that
 * uses a bundle only when it was made for the files as they are.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, statSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { DEFAULT_DATABASE_TIMEOUTS } from '../../src/config.js'
import { ContentRepository } from '../../src/content/content.repository.js'
import { ContentService } from '../../src/content/pipeline/content.service.js'
import type { StoredContent } from '../../src/content/content.store.js'
import { databaseLocation, openDatabase, pgliteSeededTemplateDir } from '../../src/infra/database.js'
import { projectPath } from '../../src/infra/paths.js'
import { writeContentBundle } from '../../src/seed/content-bundle.js'
import { dataDirSeedOptions, KJV_SEED_FILE, NARRATIVE_CONTENT_FILE, NARRATIVES_FILE, SEED_HASH_CACHE_FILE } from '../../src/seed/seed-files.js'
import { contentSeedHash, kjvSeedHash, seedDatabase, type SeedFiles } from '../../src/seed/seed.service.js'
import { loadStores, prepareDatabase } from '../../src/startup.js'
import { VerseStore } from '../../src/verses/verse.store.js'
import { VersesRepository } from '../../src/verses/verses.repository.js'
import { TestClock } from '../helpers/app.js'
import { openTestDatabase } from '../helpers/database.js'

const work = mkdtempSync(join(tmpdir(), 'pv-seed-build-'))
t.teardown(() => rmSync(work, { recursive: true, force: true }))
const bundle = join(work, 'seed-bundle', 'verse-content.jsonl')
const template = join(work, 'pglite-seeded')

/** Runs one of the build's seed steps as `make build` does, into the temporary folder. */
async function build(script: 'seed-bundle' | 'seeded-template'): Promise<string> {
  const args = script === 'seed-bundle' ? ['--out', bundle] : ['--out', template, '--bundle', bundle]
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', projectPath('scripts', `${script}.ts`), ...args], {
    cwd: projectPath(),
    encoding: 'utf8',
  })
  return stdout
}

/** Every verse content row and every seed hash, as one comparable digest (created_at aside). */
async function contentDigest(db: Kysely<Database>): Promise<{ rows: number; digest: string; seeds: string }> {
  const { rows } = await sql<{ rows: number; digest: string; seeds: string }>`
    select count(*)::int as rows,
           md5(string_agg(concat_ws('|', verse_id, style, method, model, prompt_version, simplified_text, bottom_line, historical_context, practical_reflection, content_hash), chr(30) order by verse_id, style, method)) as digest,
           (select string_agg(name || '=' || hash, ',' order by name) from seed_state) as seeds
    from verse_content`.execute(db)
  const row = rows[0]
  if (row === undefined) throw new Error('no digest')
  return row
}

t.test('the build prepares the bundle and the seeded template, and skips both when nothing changed', async (t) => {
  const made = await build('seed-bundle')
  t.match(made, /seed bundle: .*\(\d+ shipped and 31102 modernized rows\).*peak resident memory \d+ MiB/)
  const seeded = await build('seeded-template')
  t.match(seeded, /seeded PGlite template: .* \(verse content from the seed bundle\) in .*peak resident memory \d+ MiB/)
  t.ok(existsSync(join(template, 'PG_VERSION')), 'a database folder')
  t.notOk(existsSync(join(template, 'postmaster.pid')), 'closed: no lock file to copy')
  t.match(await build('seed-bundle'), /\(up to date\)/)
  t.match(await build('seeded-template'), /\(up to date\)/)
})

t.test('the seeded template holds what seeding from the files makes', async (t) => {
  const fromFiles = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => fromFiles.close())
  const dir = mkdtempSync(join(tmpdir(), 'pv-seeded-copy-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const fromBuild = await openDatabase({ kind: 'pglite', dir: join(dir, 'pglite'), seededTemplate: template })
  t.teardown(() => fromBuild.close())
  const expected = await contentDigest(fromFiles.db)
  t.ok(expected.rows > 90_000)
  t.same(await contentDigest(fromBuild.db), expected, 'the same rows, texts, hashes and seed records')
  // Vacuumed and analyzed once at build time (PGlite runs no autovacuum): a table never analyzed
  // has reltuples -1, and one never vacuumed has no all-visible pages.
  const { rows } = await sql<{ reltuples: number; allVisible: boolean }>`
    select reltuples::float8 as reltuples, relallvisible > 0 and relallvisible = relpages as "allVisible" from pg_class where relname = 'verses'`.execute(
    fromBuild.db,
  )
  t.same(rows, [{ reltuples: 31102, allVisible: true }], 'the verses table is analyzed and all-visible')
})

t.test('a first start on an empty DATA_DIR copies the seeded template and serves content (the server and CLI path)', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-first-start-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const location = databaseLocation({ databaseUrl: undefined, dataDir, databaseTimeouts: DEFAULT_DATABASE_TIMEOUTS })
  t.same(
    location,
    { kind: 'pglite', dir: join(dataDir, 'pglite'), seededTemplate: pgliteSeededTemplateDir() },
    "the server's and the CLI's location names the build's template",
  )
  if (location.kind !== 'pglite') return
  // This test's build stands in for dist/'s.
  const database = await openDatabase({ ...location, seededTemplate: template })
  t.teardown(() => database.close())
  const report = await prepareDatabase(database.db, dataDirSeedOptions(dataDir, new TestClock(new Date(Date.now() + 60_000))))
  t.same(report.migrations, [], 'already migrated')
  t.same(
    [report.seed.kjv.status, report.seed.content.status, report.seed.narrativeContent.status],
    ['unchanged', 'unchanged', 'unchanged'],
    'every seed data set already loaded',
  )
  t.ok(existsSync(join(dataDir, SEED_HASH_CACHE_FILE)), 'the seed files’ hashes are remembered for the next start')
  const stores = await loadStores(database.db, { packDir: join(dataDir, 'content') })
  t.teardown(() => stores.content.close())
  t.equal(stores.verses.size, 31102)
  t.equal(stores.content.get(43003016, 'faithful')?.method, 'curated', 'John 3:16 serves its curated text')
  t.equal(stores.content.get(43003016, 'casual')?.method, 'curated')
})

/** A content folder of three shipped chapter files, and the seed files that point at it. */
function contentFolder(): { dir: string; files: SeedFiles } {
  const dir = join(mkdtempSync(join(tmpdir(), 'pv-content-')), 'verses')
  mkdirSync(dir)
  for (const name of ['genesis-1.jsonl', 'john-3.jsonl', 'obadiah-1.jsonl']) copyFileSync(projectPath('db', 'content', 'verses', name), join(dir, name))
  return {
    dir,
    files: {
      kjv: projectPath(KJV_SEED_FILE),
      contentDir: dir,
      narratives: projectPath(NARRATIVES_FILE),
      narrativeContent: projectPath(NARRATIVE_CONTENT_FILE),
    },
  }
}

function lines(dir: string): number {
  return ['genesis-1.jsonl', 'john-3.jsonl', 'obadiah-1.jsonl'].reduce(
    (n, name) =>
      n +
      readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '').length,
    0,
  )
}

/** Drops the last line of a file (the shipped content loses an entry). */
function dropLastLine(file: string): void {
  const kept = readFileSync(file, 'utf8').trimEnd().split('\n').slice(0, -1)
  writeFileSync(file, `${kept.join('\n')}\n`)
}

const MARK = 'Written into the bundle, not the files.'

/**
 * A bundle of the folder's shipped rows, made for the folder's files as they are now, with one
 * text changed to show when the seed loaded it (and without modernized rows).
 */
async function markedBundle(db: Kysely<Database>, dir: string, file: string, rowsInHeader?: number): Promise<void> {
  const service = new ContentService(new ContentRepository(db), new VerseStore(await new VersesRepository(db).listAll()))
  const rows: StoredContent[] = []
  for (const name of ['genesis-1.jsonl', 'john-3.jsonl', 'obadiah-1.jsonl']) rows.push(...service.parse(readFileSync(join(dir, name), 'utf8')).rows)
  const [first, ...rest] = rows
  if (first === undefined) throw new Error('no rows')
  const curated = rows.filter((r) => r.method === 'curated').length
  const hash = contentSeedHash(dir, kjvSeedHash(projectPath(KJV_SEED_FILE)))
  await writeContentBundle(file, { hash, sources: 'test', curated, generated: (rowsInHeader ?? rows.length) - curated, modernized: 0 }, [
    { ...first, simplifiedText: MARK },
    ...rest,
  ])
}

async function shippedRows(db: Kysely<Database>): Promise<{ rows: number; marked: number }> {
  const { rows } = await sql<{ rows: number; marked: number }>`
    select count(*) filter (where method <> 'modernized')::int as rows, count(*) filter (where simplified_text = ${MARK})::int as marked from verse_content`.execute(
    db,
  )
  return rows[0] ?? { rows: -1, marked: -1 }
}

t.test('a bundle made for other files is not used, and the seed still loads; a current one is used', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  const { dir, files } = contentFolder()
  t.teardown(() => rmSync(join(dir, '..'), { recursive: true, force: true }))
  const file = join(dir, '..', 'bundle.jsonl')
  await markedBundle(database.db, dir, file)

  // The shipped content changes after the bundle was made: the bundle is stale.
  dropLastLine(join(dir, 'john-3.jsonl'))
  const stale = await seedDatabase(database.db, files, { contentBundle: file })
  t.equal(stale.content.status, 'loaded')
  t.equal(stale.content.modernized, 31102, 'made from the files: every verse modernized')
  t.equal(stale.content.curated + stale.content.generated, lines(dir))
  t.same(await shippedRows(database.db), { rows: lines(dir), marked: 0 }, 'the files’ rows only: nothing from the bundle, the dropped line deleted')

  // A bundle made for the files as they are now is loaded as it is.
  await markedBundle(database.db, dir, file)
  await sql`delete from seed_state where name = 'content'`.execute(database.db)
  const current = await seedDatabase(database.db, files, { contentBundle: file })
  t.same(
    current.content,
    { status: 'loaded', curated: current.content.curated, generated: lines(dir) - current.content.curated, modernized: 0 },
    "the bundle's counts",
  )
  t.same(await shippedRows(database.db), { rows: lines(dir), marked: 1 }, 'the rows came from the bundle')

  // A damaged bundle (fewer rows than its header says) fails the seed, which writes nothing.
  await markedBundle(database.db, dir, file, lines(dir) + 1)
  await sql`delete from seed_state where name = 'content'`.execute(database.db)
  await sql`update verse_content set simplified_text = 'before' where simplified_text = ${MARK}`.execute(database.db)
  await t.rejects(seedDatabase(database.db, files, { contentBundle: file }), /holds \d+ rows, its header says \d+/)
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from verse_content where simplified_text = 'before'`.execute(database.db)
  t.equal(rows[0]?.n, 1, 'rolled back')
})

t.test('with the hash cache, changing one file’s bytes (same size and time) is seen and seeded', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  const { dir, files } = contentFolder()
  t.teardown(() => rmSync(join(dir, '..'), { recursive: true, force: true }))
  const past = new Date(Date.now() - 3_600_000)
  for (const name of ['genesis-1.jsonl', 'john-3.jsonl', 'obadiah-1.jsonl']) utimesSync(join(dir, name), past, past)
  const options = { hashCache: { file: join(dir, '..', SEED_HASH_CACHE_FILE), clock: new TestClock(new Date(Date.now() + 60_000)) } }

  t.equal((await seedDatabase(database.db, files, options)).content.status, 'loaded')
  t.equal((await seedDatabase(database.db, files, options)).content.status, 'unchanged', 'the fingerprint matches')

  const john = join(dir, 'john-3.jsonl')
  const before = statSync(john)
  const text = readFileSync(john, 'utf8')
  // The first letter of the first simplified text becomes an X: one byte for one byte.
  const edited = text.replace(/"simplified_text":"[A-Za-z]/, '"simplified_text":"X')
  t.equal(Buffer.byteLength(edited), Buffer.byteLength(text), 'the same size')
  writeFileSync(john, edited)
  utimesSync(john, before.atime, before.mtime)
  const after = await seedDatabase(database.db, files, options)
  t.equal(after.content.status, 'loaded', 're-hashed from the bytes and re-seeded')
  const { rows } = await sql<{
    n: number
  }>`select count(*)::int as n from verse_content where verse_id between 43003001 and 43003036 and simplified_text like 'X%'`.execute(database.db)
  t.equal(rows[0]?.n, 1, 'the edited line is what the database holds')
})
