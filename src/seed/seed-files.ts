/**
 * Where every data file that seeding and start-up read lives, relative to the project root.
 * One registry, so that moving a file is one edit and a reader sees the whole data layout here.
 */
import { join } from 'node:path'
import type { Clock } from '../infra/clock.js'
import { projectPath } from '../infra/paths.js'
import type { SeedOptions } from './seed.service.js'

/** The KJV text: one JSON line per verse, gzipped (derived by scripts/build-kjv-seed.ts). */
export const KJV_SEED_FILE = 'db/seed/kjv.jsonl.gz'

/** The verse content shipped with the repository (curated and team-written), one JSONL file per chapter. */
export const VERSE_CONTENT_DIR = 'db/content/verses'

/** The 548 Gospel narratives with their verse ranges and parallels. */
export const NARRATIVES_FILE = 'db/narratives/narratives.json'

/** The shipped narrative content (summary and bottom line per style). */
export const NARRATIVE_CONTENT_FILE = 'db/content/narratives.jsonl'

/** One introduction per book. */
export const BOOK_INTROS_FILE = 'db/content/book-intros.jsonl'

/** The generation prompts, one Markdown file per style and version. */
export const PROMPTS_DIR = 'db/prompts'

/** The section outline of all 66 books (built by scripts/build-sections.ts). */
export const SECTIONS_FILE = 'db/sections/sections.json'

/** The prepared verse content `make build` writes (scripts/seed-bundle.ts; src/seed/content-bundle.ts). */
export const CONTENT_BUNDLE_FILE = 'dist/seed-bundle/verse-content.jsonl'

/** In DATA_DIR: the seed files' hashes against their sizes and times (src/seed/hash-cache.ts). */
export const SEED_HASH_CACHE_FILE = 'seed-hashes.json'

/**
 * The seed options of a server or the CLI: the hash cache in their DATA_DIR, and the bundle of
 * the build they run from. (Here, not in seed.service.ts, so that the server's entry point does
 * not load the seed and the content pipeline before it starts opening the database.)
 */
export function dataDirSeedOptions(dataDir: string, clock: Clock): SeedOptions {
  return { hashCache: { file: join(dataDir, SEED_HASH_CACHE_FILE), clock }, contentBundle: projectPath(CONTENT_BUNDLE_FILE) }
}
