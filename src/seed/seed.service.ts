/**
 * Loads the committed seed data into the database. Idempotent: a data set whose hash is
 * already recorded is skipped, and a changed one is applied whole in one transaction.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ContentRepository } from '../content/content.repository.js'
import { ContentService, MODERNIZER_VERSION } from '../content/pipeline/content.service.js'
import { isShipped, SHIPPED_PROMPT_PREFIX, type StoredContent } from '../content/content.store.js'
import { NarrativeContentRepository } from '../narratives/narrative-content.repository.js'
import { NarrativeContentService } from '../content/pipeline/narrative-content.service.js'
import { readNarratives } from '../narratives/narrative.store.js'
import { findBook, type BookInfo } from '../verses/books.js'
import { VerseStore } from '../verses/verse.store.js'
import { VersesRepository } from '../verses/verses.repository.js'
import { parseKjvSeed, readKjvSeedFile } from './kjv-seed.js'
import { readContentBundle, readContentBundleHeader } from './content-bundle.js'
import { cachedHash, type HashCache } from './hash-cache.js'
import { SeedRepository } from './seed.repository.js'

/** What a seed run did, per data set. */
export interface SeedReport {
  readonly kjv: { readonly status: 'unchanged' | 'loaded'; readonly verses: number }
  readonly content: { readonly status: 'unchanged' | 'loaded'; readonly curated: number; readonly generated: number; readonly modernized: number }
  readonly narrativeContent: { readonly status: 'unchanged' | 'loaded'; readonly curated: number; readonly generated: number }
}

/** Where the committed seed data lives. */
export interface SeedFiles {
  readonly kjv: string
  /** Folder of the verse content shipped with the repository, one JSONL file per chapter. */
  readonly contentDir: string
  /** The narratives table (db/narratives/narratives.json): narrative content names its slugs. */
  readonly narratives: string
  /** Curated narrative content, one JSONL line per narrative and style; an absent file means none. */
  readonly narrativeContent: string
}

/** What speeds a seed up without changing what it loads. */
export interface SeedOptions {
  /**
   * Remembers the seed files' hashes against their sizes and times (a file in DATA_DIR), so a
   * start that finds them unchanged does not read them; without it every start hashes the bytes.
   */
  readonly hashCache?: HashCache
  /**
   * The prepared verse content (`make build`: content-bundle.ts), loaded instead of parsing,
   * validating and modernizing when it was made for the files as they are now.
   */
  readonly contentBundle?: string
}

/** Rows per statement when the seed writes verse content (each column is one array parameter). */
const CONTENT_BATCH = 5_000

/**
 * Seeds the KJV, then the shipped verse content and the modernized faithful text of every
 * verse, then the shipped narrative content.
 * @example await seedDatabase(db, { kjv: projectPath(KJV_SEED_FILE), contentDir: projectPath(VERSE_CONTENT_DIR), narratives: projectPath(NARRATIVES_FILE), narrativeContent: projectPath(NARRATIVE_CONTENT_FILE) })
 */
export async function seedDatabase(db: Kysely<Database>, files: SeedFiles, options: SeedOptions = {}): Promise<SeedReport> {
  const kjv = await seedKjv(db, files.kjv, options.hashCache)
  const content = await seedContent(db, files.contentDir, kjv.hash, options)
  const narrativeContent = await seedNarrativeContent(db, files, kjv.hash, options.hashCache)
  return { kjv: kjv.report, content, narrativeContent }
}

/** The hash that identifies the KJV seed file's version. */
export function kjvSeedHash(kjvFile: string, cache?: HashCache): string {
  return cachedHash(cache, 'kjv', '', [kjvFile], () => readKjvSeedFile(kjvFile).hash)
}

async function seedKjv(db: Kysely<Database>, kjvFile: string, cache: HashCache | undefined): Promise<{ hash: string; report: SeedReport['kjv'] }> {
  // Parsing 31,102 lines is not cheap, so it happens only when needed.
  const hash = kjvSeedHash(kjvFile, cache)
  const loaded = await new SeedRepository(db).loadedHash('kjv')
  if (loaded === hash) {
    return { hash, report: { status: 'unchanged', verses: await new VersesRepository(db).count() } }
  }
  const file = readKjvSeedFile(kjvFile)
  const verses = parseKjvSeed(file.compressed)
  await db.transaction().execute(async (trx) => {
    const repository = new VersesRepository(trx)
    await repository.upsertMany(verses)
    await repository.deleteExcept(verses.map((v) => v.id))
    await new SeedRepository(trx).markLoaded('kjv', file.hash)
  })
  return { hash: file.hash, report: { status: 'loaded', verses: verses.length } }
}

function contentFileNames(contentDir: string): string[] {
  return readdirSync(contentDir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()
}

/**
 * The hash that identifies the verse content seed: the modernizer's version, the KJV's hash and
 * the name and bytes of every file in `contentDir`. The seed records it, and a bundle names it.
 */
export function contentSeedHash(contentDir: string, kjvHash: string, cache?: HashCache): string {
  const names = contentFileNames(contentDir)
  const salt = `${MODERNIZER_VERSION}\n${kjvHash}`
  return cachedHash(
    cache,
    'content',
    salt,
    names.map((name) => join(contentDir, name)),
    () => {
      const digest = createHash('sha256').update(`${salt}\n`)
      // Hashed as bytes (the same digest as of the decoded text): decoding tens of megabytes of
      // JSON lines into strings is only worth it when they load.
      for (const name of names)
        digest
          .update(`${name}\n`)
          .update(readFileSync(join(contentDir, name)))
          .update('\n')
      return digest.digest('hex')
    },
  )
}

/** The verse content rows the seed writes, made from the files. */
export interface VerseContentRows {
  /** Every line of the shipped files, parsed and validated. */
  readonly shipped: readonly StoredContent[]
  /** The modernized faithful text of every verse. */
  readonly modernized: readonly StoredContent[]
}

/**
 * Parses and validates every shipped file through the same parser and validation as
 * `content import`, and modernizes every verse: the work a bundle saves.
 * @throws when a file has a bad line (naming the file and line) or a generated line does not
 *   name an editorial prompt version, so nothing is written.
 */
export function makeVerseContentRows(service: ContentService, contentDir: string): VerseContentRows {
  const shipped: StoredContent[] = []
  for (const name of contentFileNames(contentDir)) {
    const { rows, rejected } = service.parse(readFileSync(join(contentDir, name), 'utf8'))
    const first = rejected[0]
    if (first !== undefined) throw new Error(`${join(contentDir, name)}:${first.line}: ${first.reason} (${rejected.length} bad lines)`)
    const foreign = rows.find((r) => !isShipped(r))
    if (foreign !== undefined)
      throw new Error(`${join(contentDir, name)}: generated content must name an ${SHIPPED_PROMPT_PREFIX}* prompt version (found ${foreign.promptVersion})`)
    shipped.push(...rows)
  }
  return { shipped, modernized: service.modernizedRows() }
}

/** Splits rows into batches of `size`. */
function* batches<T>(rows: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size)
}

/**
 * The shipped verse content (curated, and the team's generated entries: db/content/EDITORIAL.md)
 * goes through the same parser and validation as `content import` (or comes from a bundle the
 * build made that way from the same files); a file with a bad line stops the seed (naming the
 * file and line) before anything is written. The seed owns the shipped rows (content.store.ts
 * isShipped): it replaces them and deletes those the files no longer hold, and never touches
 * what an operator generated or imported.
 */
async function seedContent(db: Kysely<Database>, contentDir: string, kjvHash: string, options: SeedOptions): Promise<SeedReport['content']> {
  const hash = contentSeedHash(contentDir, kjvHash, options.hashCache)
  if ((await new SeedRepository(db).loadedHash('content')) === hash) return { status: 'unchanged', curated: 0, generated: 0, modernized: 0 }
  const bundle = options.contentBundle
  const header = bundle === undefined ? undefined : readContentBundleHeader(bundle)
  if (bundle !== undefined && header !== undefined && header.hash === hash) {
    await writeVerseContent(db, readContentBundle(bundle, header, CONTENT_BATCH), hash)
    return { status: 'loaded', curated: header.curated, generated: header.generated, modernized: header.modernized }
  }
  const verses = new VerseStore(await new VersesRepository(db).listAll())
  const { shipped, modernized } = makeVerseContentRows(new ContentService(new ContentRepository(db), verses), contentDir)
  await writeVerseContent(db, [...batches(shipped, CONTENT_BATCH), ...batches(modernized, CONTENT_BATCH)], hash)
  const curated = shipped.filter((r) => r.method === 'curated').length
  return { status: 'loaded', curated, generated: shipped.length - curated, modernized: modernized.length }
}

/** Writes the seed's verse content in one transaction, removes the shipped rows it no longer has, and records the hash. */
async function writeVerseContent(db: Kysely<Database>, rows: AsyncIterable<StoredContent[]> | Iterable<StoredContent[]>, hash: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const seeds = new SeedRepository(trx)
    const keep = { verseIds: [] as number[], styles: [] as string[], methods: [] as string[] }
    for await (const batch of rows) {
      await seeds.upsertContent(batch)
      for (const row of batch) {
        if (!isShipped(row)) continue
        keep.verseIds.push(row.verseId)
        keep.styles.push(row.style)
        keep.methods.push(row.method)
      }
    }
    await seeds.deleteShippedContentExcept(keep)
    await seeds.markLoaded('content', hash)
  })
}

/**
 * The shipped narrative content (curated, and the team's generated entries) goes through the
 * same parser and validation as `content import` (NarrativeContentService.parse); a bad line
 * stops the seed, naming the file and line, before anything is written. As for verses, the
 * seed owns the shipped rows and never touches what an operator generated or imported.
 */
async function seedNarrativeContent(
  db: Kysely<Database>,
  files: SeedFiles,
  kjvHash: string,
  cache: HashCache | undefined,
): Promise<SeedReport['narrativeContent']> {
  const read = (): { text: string; table: string } => ({
    text: existsSync(files.narrativeContent) ? readFileSync(files.narrativeContent, 'utf8') : '',
    table: readFileSync(files.narratives, 'utf8'),
  })
  // The narratives table and the KJV decide which slugs exist, so they are part of the hash.
  const digest = ({ text, table }: { text: string; table: string }): string => createHash('sha256').update(`${kjvHash}\n${table}\n${text}`).digest('hex')
  const hash = cachedHash(cache, 'narrative_content', kjvHash, [files.narratives, files.narrativeContent], () => digest(read()))
  const seeds = new SeedRepository(db)
  if ((await seeds.loadedHash('narrative_content')) === hash) return { status: 'unchanged', curated: 0, generated: 0 }
  const { text, table } = read()
  const verses = new VerseStore(await new VersesRepository(db).listAll())
  const narratives = readNarratives(files.narratives, (gospel) => verses.chapterVerseCounts(findBook(gospel) as BookInfo))
  const service = new NarrativeContentService(new NarrativeContentRepository(db), narratives)
  const { rows, rejected } = service.parse(text)
  const first = rejected[0]
  if (first !== undefined) throw new Error(`${files.narrativeContent}:${first.line}: ${first.reason} (${rejected.length} bad lines)`)
  const foreign = rows.find((r) => !isShipped(r))
  if (foreign !== undefined)
    throw new Error(`${files.narrativeContent}: generated content must name an ${SHIPPED_PROMPT_PREFIX}* prompt version (found ${foreign.promptVersion})`)
  await db.transaction().execute(async (trx) => {
    const repository = new NarrativeContentRepository(trx)
    await repository.upsertMany(rows, { keepOperatorRows: true })
    await repository.deleteShippedExcept(rows)
    await new SeedRepository(trx).markLoaded('narrative_content', digest({ text, table }))
  })
  const curated = rows.filter((r) => r.method === 'curated').length
  return { status: 'loaded', curated, generated: rows.length - curated }
}
