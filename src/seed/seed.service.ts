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

/**
 * Seeds the KJV, then the shipped verse content and the modernized faithful text of every
 * verse, then the shipped narrative content.
 * @example await seedDatabase(db, { kjv: projectPath(KJV_SEED_FILE), contentDir: projectPath(VERSE_CONTENT_DIR), narratives: projectPath(NARRATIVES_FILE), narrativeContent: projectPath(NARRATIVE_CONTENT_FILE) })
 */
export async function seedDatabase(db: Kysely<Database>, files: SeedFiles): Promise<SeedReport> {
  const kjv = await seedKjv(db, files.kjv)
  const content = await seedContent(db, files.contentDir, kjv.hash)
  const narrativeContent = await seedNarrativeContent(db, files, kjv.hash)
  return { kjv: kjv.report, content, narrativeContent }
}

async function seedKjv(db: Kysely<Database>, kjvFile: string): Promise<{ hash: string; report: SeedReport['kjv'] }> {
  // Hashing the file is cheap; parsing 31,102 lines is not, so it happens only when needed.
  const file = readKjvSeedFile(kjvFile)
  const loaded = await new SeedRepository(db).loadedHash('kjv')
  if (loaded === file.hash) {
    return { hash: file.hash, report: { status: 'unchanged', verses: await new VersesRepository(db).count() } }
  }
  const verses = parseKjvSeed(file.compressed)
  await db.transaction().execute(async (trx) => {
    const repository = new VersesRepository(trx)
    await repository.upsertMany(verses)
    await repository.deleteExcept(verses.map((v) => v.id))
    await new SeedRepository(trx).markLoaded('kjv', file.hash)
  })
  return { hash: file.hash, report: { status: 'loaded', verses: verses.length } }
}

/**
 * The shipped verse content (curated, and the team's generated entries: db/content/EDITORIAL.md)
 * goes through the same parser and validation as `content import`; a file with a bad line
 * stops the seed (naming the file and line) before anything is written. The seed owns the
 * shipped rows (content.store.ts isShipped): it replaces them and deletes those the files no
 * longer hold, and never touches what an operator generated or imported.
 */
async function seedContent(db: Kysely<Database>, contentDir: string, kjvHash: string): Promise<SeedReport['content']> {
  const names = readdirSync(contentDir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()
  const digest = createHash('sha256').update(`${MODERNIZER_VERSION}\n${kjvHash}\n`)
  // Hashed as bytes (the same digest as of the decoded text): every start checks the hash, and
  // decoding tens of megabytes of JSON lines into strings is only worth it when they load.
  for (const name of names)
    digest
      .update(`${name}\n`)
      .update(readFileSync(join(contentDir, name)))
      .update('\n')
  const hash = digest.digest('hex')
  const seeds = new SeedRepository(db)
  if ((await seeds.loadedHash('content')) === hash) return { status: 'unchanged', curated: 0, generated: 0, modernized: 0 }
  const texts = names.map((name) => ({ name, text: readFileSync(join(contentDir, name), 'utf8') }))
  const verses = new VerseStore(await new VersesRepository(db).listAll())
  const service = new ContentService(new ContentRepository(db), verses)
  const shipped: StoredContent[] = []
  for (const { name, text } of texts) {
    const { rows, rejected } = service.parse(text)
    const first = rejected[0]
    if (first !== undefined) throw new Error(`${join(contentDir, name)}:${first.line}: ${first.reason} (${rejected.length} bad lines)`)
    const foreign = rows.find((r) => !isShipped(r))
    if (foreign !== undefined)
      throw new Error(`${join(contentDir, name)}: generated content must name an ${SHIPPED_PROMPT_PREFIX}* prompt version (found ${foreign.promptVersion})`)
    shipped.push(...rows)
  }
  const modernized = service.modernizedRows()
  await db.transaction().execute(async (trx) => {
    const repository = new ContentRepository(trx)
    await repository.upsertMany(shipped, { keepOperatorRows: true })
    await repository.deleteShippedExcept(shipped)
    await repository.upsertMany(modernized)
    await new SeedRepository(trx).markLoaded('content', hash)
  })
  const curated = shipped.filter((r) => r.method === 'curated').length
  return { status: 'loaded', curated, generated: shipped.length - curated, modernized: modernized.length }
}

/**
 * The shipped narrative content (curated, and the team's generated entries) goes through the
 * same parser and validation as `content import` (NarrativeContentService.parse); a bad line
 * stops the seed, naming the file and line, before anything is written. As for verses, the
 * seed owns the shipped rows and never touches what an operator generated or imported.
 */
async function seedNarrativeContent(db: Kysely<Database>, files: SeedFiles, kjvHash: string): Promise<SeedReport['narrativeContent']> {
  const text = existsSync(files.narrativeContent) ? readFileSync(files.narrativeContent, 'utf8') : ''
  const table = readFileSync(files.narratives, 'utf8')
  // The narratives table and the KJV decide which slugs exist, so they are part of the hash.
  const hash = createHash('sha256').update(`${kjvHash}\n${table}\n${text}`).digest('hex')
  const seeds = new SeedRepository(db)
  if ((await seeds.loadedHash('narrative_content')) === hash) return { status: 'unchanged', curated: 0, generated: 0 }
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
    await new SeedRepository(trx).markLoaded('narrative_content', hash)
  })
  const curated = rows.filter((r) => r.method === 'curated').length
  return { status: 'loaded', curated, generated: rows.length - curated }
}
