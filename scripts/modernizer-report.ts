/**
 * Prints the modernizer's quality report over the whole KJV seed: how many verses still
 * contain an archaic form after modernize(), the most frequent leftovers and examples.
 * The product target is under 1% of the 31,102 verses; the exit code is 1 above it, so
 * the script can guard a release.
 *
 * Usage: `npx tsx scripts/modernizer-report.ts [path/to/kjv.jsonl.gz]`
 */
import { modernizerReport, type ReportVerse } from '../src/content/pipeline/modernizer.report.js'
import { readKjvSeed } from '../src/seed/kjv-seed.js'
import { bookAt } from '../src/verses/books.js'
import { verseSlug } from '../src/verses/slug.js'
import { KJV_SEED_FILE } from '../src/seed/seed-files.js'


const TARGET_SHARE = 0.01

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
// The unmodernized text by the same measure, so that the figure above has a scale.
const baseline = modernizerReport(verses, { forms: 0, examples: 0, transform: (text) => text })
const percent = (share: number): string => `${(share * 100).toFixed(2)}%`

console.log(`Verses:                     ${report.total}`)
console.log(`With an archaic form (KJV): ${baseline.withArchaic} (${percent(baseline.share)})`)
console.log(`Still with one, modernized: ${report.withArchaic} (${percent(report.share)}, target < ${percent(TARGET_SHARE)})`)
console.log('')
console.log(`Most frequent residual forms (verses):${report.topForms.length === 0 ? ' none' : ''}`)
for (const [form, count] of report.topForms) console.log(`  ${form.padEnd(16)} ${count}`)
console.log('')
console.log(`Examples:${report.examples.length === 0 ? ' none' : ''}`)
for (const example of report.examples) console.log(`  ${example.slug}: ${example.forms.join(', ')}`)

if (report.share >= TARGET_SHARE) process.exitCode = 1
