/**
 * Prints KJV verses from the committed seed, one per line as `slug<TAB>text`, for the people
 * who write content (db/content/EDITORIAL.md): the text to work from, with the canonical slug
 * each content line must carry.
 *
 * Usage: `npx tsx scripts/kjv-text.ts BOOK [CHAPTER[-LAST]]`
 *   npx tsx scripts/kjv-text.ts john 3        John 3
 *   npx tsx scripts/kjv-text.ts jude          the whole book
 *   npx tsx scripts/kjv-text.ts mark 1-4      Mark 1 to 4
 * Exit code 2 on bad usage or an unknown book or chapter.
 */
import { readKjvSeed } from '../src/seed/kjv-seed.js'
import { projectPath } from '../src/infra/paths.js'
import { findBook } from '../src/verses/books.js'
import { verseSlug } from '../src/verses/slug.js'
import { KJV_SEED_FILE } from '../src/seed/seed-files.js'

const [bookToken, chapters] = process.argv.slice(2)
const book = bookToken === undefined ? undefined : findBook(bookToken)
const range = chapters === undefined ? undefined : /^(\d{1,3})(?:-(\d{1,3}))?$/.exec(chapters)
if (book === undefined || (chapters !== undefined && range === null)) {
  process.stderr.write('usage: npx tsx scripts/kjv-text.ts BOOK [CHAPTER[-LAST]]\n')
  process.exit(2)
}
const first = range === null || range === undefined ? 1 : Number(range[1])
const last = range === null || range === undefined ? Number.MAX_SAFE_INTEGER : Number(range[2] ?? range[1])

let printed = 0
for (const verse of readKjvSeed(projectPath(KJV_SEED_FILE)).verses) {
  if (verse.book !== book.position || verse.chapter < first || verse.chapter > last) continue
  process.stdout.write(`${verseSlug(book, verse.chapter, verse.verse)}\t${verse.text}\n`)
  printed++
}
if (printed === 0) {
  process.stderr.write(`${book.name} has no chapter ${chapters ?? ''}\n`)
  process.exit(2)
}
