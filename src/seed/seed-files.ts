/**
 * Where every data file that seeding and start-up read lives, relative to the project root.
 * One registry, so that moving a file is one edit and a reader sees the whole data layout here.
 */

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
