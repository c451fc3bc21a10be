/**
 * The content coverage report as text: one table of the whole Bible, the two testaments and
 * the 66 books, with each style's verses and fields as counts and percentages, and the
 * narratives line. The JSON form is the ContentCoverage object itself.
 */
import { percent } from './pipeline/modernizer.report.js'
import { COVERAGE_FIELDS, type ContentCoverage, type GroupCoverage, type Share } from './coverage.js'

/** What the report found of a database: its coverage, or why it was not read. */
export type DatabaseCoverage =
  | { readonly status: 'read'; readonly location: string; readonly coverage: ContentCoverage }
  | { readonly status: 'unavailable'; readonly location: string; readonly reason: string }

/** The columns after the group's name and size: each style's verses, then its fields. */
const COLUMNS: ReadonlyArray<{ readonly header: string; readonly cell: (group: GroupCoverage) => Share | undefined }> = [
  { header: 'faithful', cell: (group) => group.faithful.verses },
  ...COVERAGE_FIELDS.faithful.map((field) => ({ header: `f.${field}`, cell: (group: GroupCoverage) => group.faithful.fields[field] })),
  { header: 'casual', cell: (group) => group.casual.verses },
  ...COVERAGE_FIELDS.casual.map((field) => ({ header: `c.${field}`, cell: (group: GroupCoverage) => group.casual.fields[field] })),
]

const NAME_WIDTH = 17
const TOTAL_WIDTH = 7
const CELL_WIDTH = 24

/** "1,234 (12.34%)", right-aligned in its column. */
function cell(share: Share | undefined): string {
  const text = share === undefined ? '-' : `${share.count.toLocaleString('en-US')} (${percent(share.share)})`
  return text.padStart(CELL_WIDTH)
}

function row(group: GroupCoverage): string {
  return `  ${group.name.padEnd(NAME_WIDTH)}${group.total.toLocaleString('en-US').padStart(TOTAL_WIDTH)}${COLUMNS.map((column) => cell(column.cell(group))).join('')}`
}

/**
 * The coverage of one source as lines of text, under `title`.
 * @example formatCoverage('Content coverage, shipped', coverage)[0] // 'Content coverage, shipped'
 */
export function formatCoverage(title: string, coverage: ContentCoverage): string[] {
  const header = `  ${'group'.padEnd(NAME_WIDTH)}${'verses'.padStart(TOTAL_WIDTH)}${COLUMNS.map((column) => column.header.padStart(CELL_WIDTH)).join('')}`
  const { narratives } = coverage
  const narrativeShare = (share: Share): string => `${share.count.toLocaleString('en-US')} (${percent(share.share)})`
  return [
    title,
    '  verses with content in each style (faithful, casual) and with each field filled (f.*, c.*); the modernized text every verse has is not counted',
    header,
    row(coverage.all),
    ...coverage.testaments.map(row),
    ...coverage.books.map(row),
    `  narratives (${narratives.total.toLocaleString('en-US')}): faithful summary ${narrativeShare(narratives.faithful.summary)}, bottom line ${narrativeShare(narratives.faithful.bottomLine)}; casual summary ${narrativeShare(narratives.casual.summary)}, bottom line ${narrativeShare(narratives.casual.bottomLine)}`,
  ]
}
