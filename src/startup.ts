/**
 * Start-up steps shared by the server, the CLI and the tests: bring the database up to
 * date and load what the hot path serves from memory.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.js'
import { readBookIntros, type BookIntroduction } from './content/book-intros.js'
import { ContentRepository } from './content/content.repository.js'
import { ContentStore } from './content/content.store.js'
import { ContentPack, writeContentPack } from './content/content.pack.js'
import { migrateToLatest } from './infra/database.js'
import { projectPath } from './infra/paths.js'
import { seedDatabase, type SeedOptions, type SeedReport } from './seed/seed.service.js'
import { VerseStore, type VerseRecord } from './verses/verse.store.js'
import { findBook, type BookInfo } from './verses/books.js'
import { readNarratives, type NarrativeStore } from './narratives/narrative.store.js'
import { NarrativeContentRepository } from './narratives/narrative-content.repository.js'
import { servedNarrativeContent } from './narratives/narrative-content.store.js'
import type { NarrativeContent } from './narratives/narratives.service.js'
import { VersesRepository } from './verses/verses.repository.js'
import { readVerseFile, writeVerseFile } from './verses/verse.file.js'
import { SeedRepository } from './seed/seed.repository.js'
import { KJV_SEED_FILE, VERSE_CONTENT_DIR, NARRATIVES_FILE, NARRATIVE_CONTENT_FILE, BOOK_INTROS_FILE, SECTIONS_FILE } from './seed/seed-files.js'
import { readSections, type SectionStore } from './sections/section.store.js'

/** What preparing the database did. */
export interface PrepareReport {
  readonly migrations: readonly string[]
  readonly seed: SeedReport
}

/**
 * Runs pending migrations, then the (idempotent) seed.
 * @param options what speeds the seed up (the server's and the CLI's: dataDirSeedOptions); tests omit it.
 */
export async function prepareDatabase(db: Kysely<Database>, options: SeedOptions = {}): Promise<PrepareReport> {
  const migrations = await migrateToLatest(db)
  const seed = await seedDatabase(
    db,
    {
      kjv: projectPath(KJV_SEED_FILE),
      contentDir: projectPath(VERSE_CONTENT_DIR),
      narratives: projectPath(NARRATIVES_FILE),
      narrativeContent: projectPath(NARRATIVE_CONTENT_FILE),
    },
    options,
  )
  return { migrations, seed }
}

/** The stores the hot path reads (in memory, but for verse content: see {@link loadStores}). */
export interface Stores {
  readonly verses: VerseStore
  readonly content: ContentStore
  readonly intros: ReadonlyMap<string, BookIntroduction>
  readonly narratives: NarrativeStore
  readonly narrativeContent: ReadonlyMap<string, NarrativeContent>
  /** The section outline of every book (static data, like the narratives). */
  readonly sections: SectionStore
  /** The KJV seed the verses were loaded under, as the database records it (none: an unseeded database). */
  readonly kjvSeedHash: string | undefined
}

/** Where {@link loadStores} keeps what it derives from the database. */
export interface LoadOptions {
  /**
   * The folder of the content pack (DATA_DIR/content for the server): a file per content
   * revision, rebuilt from the database when the revision changes; and of the verse file, one per
   * loaded KJV seed. Processes may share one.
   */
  readonly packDir: string
}

/**
 * Every verse: from the verse file of the KJV seed the database records, written from the
 * table when there is none (in one snapshot with the hash it is named for).
 */
async function loadVerses(db: Kysely<Database>, dir: string): Promise<{ verses: VerseRecord[]; seedHash: string | undefined }> {
  const seedHash = await new SeedRepository(db).loadedHash('kjv')
  const stored = seedHash === undefined ? undefined : readVerseFile(dir, seedHash)
  if (stored !== undefined) return { verses: stored, seedHash }
  return new VersesRepository(db).snapshot(async (snapshot, hash) => {
    const verses = await snapshot.listAll()
    if (hash !== undefined) writeVerseFile(dir, hash, verses)
    return { verses, seedHash: hash }
  })
}

/**
 * The content pack of the database's content revision, written when the folder has none (or
 * one that does not check out). The pack is written from one snapshot that also reads the
 * token, so content changed meanwhile never goes into a pack under the older token.
 */
async function openContentPack(repository: ContentRepository, packDir: string): Promise<ContentPack> {
  const existing = ContentPack.open(packDir, await repository.revision())
  if (existing !== undefined) return existing
  return repository.snapshot(async (snapshot) => writeContentPack(packDir, await snapshot.revision(), snapshot.effectiveSlices()))
}

/**
 * Loads every verse (from the verse file, or the database: see loadVerses) and the narrative
 * content (from the database), the book introductions and the section outline into memory, and opens the content pack of the database's content revision
 * (written first when there is none): verse content is read from that file on demand, not held
 * in memory. Narrative content is validated when it enters the database (seed, import,
 * generation), so it is not checked again here. The caller closes `content` when it stops.
 */
export async function loadStores(db: Kysely<Database>, options: LoadOptions): Promise<Stores> {
  const [opened, verseRows, narrativeRows] = await Promise.allSettled([
    openContentPack(new ContentRepository(db), options.packDir),
    loadVerses(db, options.packDir),
    new NarrativeContentRepository(db).listAll(),
  ])
  if (opened.status === 'rejected') throw opened.reason
  const pack = opened.value
  // The server retries a start-up the database failed: the pack's file is not left open.
  if (verseRows.status === 'rejected') {
    pack.close()
    throw verseRows.reason
  }
  if (narrativeRows.status === 'rejected') {
    pack.close()
    throw narrativeRows.reason
  }
  const verses = new VerseStore(verseRows.value.verses)
  const narratives = readNarratives(projectPath(NARRATIVES_FILE), (gospel) => verses.chapterVerseCounts(findBook(gospel) as BookInfo))
  return {
    verses,
    content: new ContentStore(pack),
    intros: readBookIntros(projectPath(BOOK_INTROS_FILE)),
    narratives,
    narrativeContent: servedNarrativeContent(narrativeRows.value, narratives),
    sections: readSections(projectPath(SECTIONS_FILE), (book) => verses.chapterVerseCounts(book)),
    kjvSeedHash: verseRows.value.seedHash,
  }
}
