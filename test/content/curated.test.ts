/** Every curated entry in the repository passes the validation rules, and covers whole chapters. */
import { readdirSync, readFileSync } from 'node:fs'
import t from 'tap'
import { ContentService } from '../../src/content/content.service.js'
import { ContentRepository } from '../../src/content/content.repository.js'
import { projectPath } from '../../src/infra/paths.js'
import { readKjvSeed } from '../../src/seed/kjv-seed.js'
import { CURATED_DIR } from '../../src/startup.js'
import { BOOKS } from '../../src/verses/books.js'
import { VerseStore } from '../../src/verses/verse.store.js'

const verses = new VerseStore(readKjvSeed(projectPath('db', 'seed', 'kjv.jsonl.gz')).verses)
// Parsing needs no database: the repository is only used for writes.
const service = new ContentService(new ContentRepository(undefined as never), verses)
const files = readdirSync(projectPath(CURATED_DIR)).filter((n) => n.endsWith('.jsonl')).sort()

t.test('curated content', async (t) => {
  let total = 0
  for (const file of files) {
    const { rows, rejected } = service.parse(readFileSync(projectPath(CURATED_DIR, file), 'utf8'))
    t.same(rejected, [], `${file}: every line passes validation`)
    total += rows.length
    const match = /^(.+)-(\d+)\.jsonl$/.exec(file)
    const book = BOOKS.find((b) => b.slug === match?.[1])
    t.ok(book, `${file} names a book`)
    if (book === undefined || match === null) continue
    const chapter = Number(match[2])
    const expected = verses.chapterVerseCounts(book)[chapter - 1] ?? 0
    for (const style of ['faithful', 'casual'] as const) {
      const ids = rows.filter((r) => r.style === style && r.method === 'curated').map((r) => r.verseId).sort((a, b) => a - b)
      const wanted = Array.from({ length: expected }, (_, i) => book.position * 1_000_000 + chapter * 1_000 + i + 1)
      t.same(ids, wanted, `${file}: every verse of the chapter has curated ${style} content`)
    }
  }
  t.ok(total / 2 >= 1000, `${total / 2} verses curated in both styles (at least 1,000)`)
})
