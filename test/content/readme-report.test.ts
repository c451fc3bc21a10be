/**
 * The README's modernizer table and content coverage table are the figures `npx plainverse
 * content report` prints from the shipped files (the KJV seed, db/content): run the real CLI,
 * read its JSON, and compare every cell. A modernizer rule or a content file that changes a
 * figure without the README fails here.
 */
import t from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { modernizerReport, percent } from '../../src/content/pipeline/modernizer.report.js'
import { projectPath } from '../../src/infra/paths.js'
import { readKjvSeed } from '../../src/seed/kjv-seed.js'
import { KJV_SEED_FILE } from '../../src/seed/seed-files.js'
import { runCli } from '../helpers/cli.js'

interface Figure {
  readonly count: number
  readonly share: number
}
interface CoverageGroup {
  readonly name: string
  readonly total: number
  readonly faithful: { readonly verses: Figure }
  readonly casual: { readonly verses: Figure }
}
interface Report {
  readonly modernizer: {
    readonly total: number
    readonly withArchaic: number
    readonly share: number
    readonly narrow: { readonly withArchaic: number; readonly share: number }
    readonly hybrids: { readonly verses: number; readonly share: number }
    readonly verbatim: { readonly verses: number; readonly share: number }
  }
  readonly coverage: {
    readonly shipped: {
      readonly all: CoverageGroup
      readonly testaments: readonly CoverageGroup[]
      readonly narratives: { readonly total: number; readonly faithful: { readonly summary: Figure }; readonly casual: { readonly summary: Figure } }
    }
  }
}

const readme = readFileSync(projectPath('README.md'), 'utf8')

/** The cells of the README's table row that starts with `label`, after the label. */
function row(label: string): string[] {
  const line = readme.split('\n').find((l) => l.startsWith(`| ${label} |`))
  if (line === undefined) return [`no row "${label}" in README.md`]
  return line
    .split('|')
    .slice(2, -1)
    .map((cell) => cell.trim())
}

/** A count and its share as the README writes them: "10,611 (34.12%)". */
function cell(count: number, share: number): string {
  return `${count.toLocaleString('en-US')} (${percent(share)})`
}

t.test("the README's modernizer and coverage tables are the content report's figures", async (t) => {
  // An empty DATA_DIR: the database part of the report is skipped; the figures come from the shipped files.
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-report-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const run = await runCli(['content', 'report', '--json'], { DATA_DIR: dataDir })
  t.equal(run.code, 0, run.stderr)
  const report = JSON.parse(run.stdout) as Report
  const m = report.modernizer
  t.equal(m.total, 31102)
  // The KJV column: the same report over the unmodernized text.
  const verses = readKjvSeed(projectPath(KJV_SEED_FILE)).verses
  const kjv = modernizerReport(
    verses.map((v) => ({ slug: String(v.id), text: v.text })),
    { transform: (text) => text },
  )
  t.same(row('with a form of the broad archaic list (target under 1%)'), [cell(m.withArchaic, m.share), cell(kjv.withArchaic, kjv.share)])
  t.same(row('with a form of the narrow list (thee, thou, -eth, -est, unto...)'), [
    cell(m.narrow.withArchaic, m.narrow.share),
    cell(kjv.narrow.withArchaic, kjv.narrow.share),
  ])
  t.same(row('with a hybrid (target 0)'), [cell(m.hybrids.verses, m.hybrids.share), kjv.hybrids.verses.toLocaleString('en-US')])
  t.same(row('served verbatim (modernized text identical to the KJV)'), [cell(m.verbatim.verses, m.verbatim.share), ''])

  const shipped = report.coverage.shipped
  const groups: Array<[string, CoverageGroup | undefined]> = [
    ['all books', shipped.all],
    ['Old Testament', shipped.testaments.find((g) => g.name === 'Old Testament')],
    ['New Testament', shipped.testaments.find((g) => g.name === 'New Testament')],
  ]
  for (const [label, group] of groups) {
    if (group === undefined) {
      t.fail(`the report has no ${label}`)
      continue
    }
    t.same(
      row(label),
      [
        group.total.toLocaleString('en-US'),
        cell(group.faithful.verses.count, group.faithful.verses.share),
        cell(group.casual.verses.count, group.casual.verses.share),
      ],
      label,
    )
  }
  const n = shipped.narratives
  // Across a line break or not: the README is wrapped by hand.
  t.match(readme, new RegExp(`Narratives: ${n.faithful.summary.count} of ${n.total} with a\\s+summary`), 'the narratives with content')
  t.equal(n.casual.summary.count, n.faithful.summary.count, 'both styles alike, as the README says')
})
