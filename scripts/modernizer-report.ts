/**
 * Prints the modernizer's quality report over the whole KJV seed: verses still holding a form
 * of the broad archaic list after modernize(), the narrow figure, hybrids, the verses served
 * verbatim, the most frequent leftovers and examples, with the unmodernized KJV as a baseline.
 * The exit code is 1 when the target (under 1% broad, no hybrid) is missed, so the script can
 * guard a release. `npx plainverse content report` prints the same with content coverage.
 *
 * Usage: `npx tsx scripts/modernizer-report.ts [path/to/kjv.jsonl.gz]`
 */
import { formatModernizerReport, modernizerReport, percent, REPORT_TARGET, type ReportVerse } from '../src/content/pipeline/modernizer.report.js'
import { readKjvSeed } from '../src/seed/kjv-seed.js'
import { bookAt } from '../src/verses/books.js'
import { verseSlug } from '../src/verses/slug.js'
import { KJV_SEED_FILE } from '../src/seed/seed-files.js'

function* seedVerses(path: string): Generator<ReportVerse> {
  for (const verse of readKjvSeed(path).verses) {
    const book = bookAt(verse.book)
    if (book === undefined) throw new Error(`unknown book ${verse.book} in ${path}`)
    yield { slug: verseSlug(book, verse.chapter, verse.verse), text: verse.text }
  }
}

const path = process.argv[2] ?? KJV_SEED_FILE
const verses = [...seedVerses(path)]
const report = modernizerReport(verses)
// The unmodernized text by the same measure, so that the figures above have a scale.
const baseline = modernizerReport(verses, { forms: 0, examples: 0, transform: (text) => text })

for (const line of formatModernizerReport(report)) console.log(line)
console.log(
  `  the KJV itself: broad ${baseline.withArchaic} verses (${percent(baseline.share)}), narrow ${baseline.narrow.withArchaic} (${percent(baseline.narrow.share)}), hybrids ${baseline.hybrids.verses}`,
)

if (report.share >= REPORT_TARGET || report.hybrids.verses > 0) process.exitCode = 1
