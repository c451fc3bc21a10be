/**
 * Measures the modernizer instead of assuming it works. Its main figure uses the broad
 * definition of "archaic" that every content gate applies to what we write
 * (findBroadArchaicForms: db/content/EDITORIAL.md section 10), not the narrow one the
 * faithful-text validation started with, so that "behold", "thereof" or "it came to pass"
 * count as what a reader meets. Beside it: the narrow figure, the hybrids (a construction
 * half old and half modern, modernizer.hybrids.ts) and the share of verses the modernizer
 * serves word for word as the KJV. The product target is under 1% of the KJV with a broad
 * archaic form, and no hybrid.
 */
import { findArchaicForms, findBroadArchaicForms } from '../../text/archaic.js'
import { findHybrids, HYBRID_KINDS, type HybridKind } from './modernizer.hybrids.js'
import { modernize } from './modernizer.js'

/** Share of verses that may keep a form of the broad list (product target: under 1%). */
export const REPORT_TARGET = 0.01

/** A verse to measure, named by its slug so that examples can be looked up. */
export interface ReportVerse {
  readonly slug: string
  readonly text: string
}

/** The figures of one run of the modernizer over a set of verses. */
export interface ModernizerReport {
  /** Verses measured. */
  readonly total: number
  /** Verses whose modernized text still contains at least one form of the broad list. */
  readonly withArchaic: number
  /** withArchaic / total, from 0 to 1 (0 when there are no verses). */
  readonly share: number
  /** The most frequent residual forms of the broad list, each with the number of verses it is left in. */
  readonly topForms: Array<[string, number]>
  /** The first verses, in input order, that still contain archaic forms of the broad list. */
  readonly examples: Array<{ slug: string; forms: string[] }>
  /** The same by the narrow definition (findArchaicForms: thee, thou, -eth, unto...). */
  readonly narrow: { readonly withArchaic: number; readonly share: number }
  /** Verses whose modernized text holds a hybrid, and hybrids of each kind (all kinds listed). */
  readonly hybrids: {
    readonly verses: number
    readonly share: number
    readonly kinds: Array<[HybridKind, number]>
    readonly examples: Array<{ slug: string; hybrids: string[] }>
  }
  /** Verses whose modernized text is the KJV's, character for character. */
  readonly verbatim: { readonly verses: number; readonly share: number }
}

/** What the report keeps and what it measures. */
export interface ReportOptions {
  /** How many residual forms to list (default 20). */
  readonly forms?: number
  /** How many example verses to list, for archaic forms and for hybrids (default 20). */
  readonly examples?: number
  /**
   * The text transformation to measure (default: modernize). Passing the identity gives
   * the baseline of the unmodernized KJV; a candidate rule set can be compared the same way.
   */
  readonly transform?: (text: string) => string
}

/** part / total, 0 when there is nothing to divide. */
function ratio(part: number, total: number): number {
  return total === 0 ? 0 : part / total
}

/**
 * Modernizes every verse and counts what survives: broad and narrow archaic forms, hybrids,
 * and verses left as they were. Pure: the caller loads the verses. Forms and hybrid kinds
 * are counted once per verse, so a count is how many verses fail because of it; ties are
 * listed alphabetically.
 * @example modernizerReport([{ slug: 'john-3-16', text: 'For God so loved the world...' }]).share // 0
 */
export function modernizerReport(verses: Iterable<ReportVerse>, options: ReportOptions = {}): ModernizerReport {
  const { forms: formLimit = 20, examples: exampleLimit = 20, transform = modernize } = options
  let total = 0
  let withArchaic = 0
  let narrow = 0
  let hybridVerses = 0
  let verbatim = 0
  const counts = new Map<string, number>()
  const kinds = new Map<HybridKind, number>(HYBRID_KINDS.map((kind) => [kind, 0]))
  const examples: Array<{ slug: string; forms: string[] }> = []
  const hybridExamples: Array<{ slug: string; hybrids: string[] }> = []
  for (const verse of verses) {
    total += 1
    const modern = transform(verse.text)
    if (modern === verse.text) verbatim += 1
    if (findArchaicForms(modern).length > 0) narrow += 1
    const hybrids = findHybrids(modern)
    if (hybrids.length > 0) {
      hybridVerses += 1
      for (const kind of new Set(hybrids.map((h) => h.kind))) kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
      if (hybridExamples.length < exampleLimit) hybridExamples.push({ slug: verse.slug, hybrids: hybrids.map((h) => h.text) })
    }
    const forms = findBroadArchaicForms(modern)
    if (forms.length === 0) continue
    withArchaic += 1
    for (const form of forms) counts.set(form, (counts.get(form) ?? 0) + 1)
    if (examples.length < exampleLimit) examples.push({ slug: verse.slug, forms })
  }
  const topForms = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, formLimit)
  return {
    total,
    withArchaic,
    share: ratio(withArchaic, total),
    topForms,
    examples,
    narrow: { withArchaic: narrow, share: ratio(narrow, total) },
    hybrids: { verses: hybridVerses, share: ratio(hybridVerses, total), kinds: [...kinds], examples: hybridExamples },
    verbatim: { verses: verbatim, share: ratio(verbatim, total) },
  }
}

/** A share as a percentage with two decimals: 0.1565 is "15.65%". */
export function percent(share: number): string {
  return `${(share * 100).toFixed(2)}%`
}

/** A count of verses with its share: "4,867 verses (15.65%)". */
function countAndShare(count: number, share: number): string {
  return `${count.toLocaleString('en-US')} verses (${percent(share)})`
}

/**
 * The report as the CLI prints it: the broad figure against its target, the narrow one, the
 * hybrids against theirs (none), the verbatim share, the top forms and the examples.
 */
export function formatModernizerReport(report: ModernizerReport): string[] {
  const met = report.share < REPORT_TARGET
  const lines = [
    `Modernizer report: ${report.total.toLocaleString('en-US')} verses (the KJV seed)`,
    `  with a form of the broad archaic list (EDITORIAL.md section 10): ${countAndShare(report.withArchaic, report.share)}; target under ${percent(REPORT_TARGET)}: ${met ? 'met' : 'MISSED'}`,
    `  with a form of the narrow list (thee, thou, -eth, -est, unto...): ${countAndShare(report.narrow.withArchaic, report.narrow.share)}`,
    `  with a hybrid (half old, half modern): ${countAndShare(report.hybrids.verses, report.hybrids.share)}; target 0: ${report.hybrids.verses === 0 ? 'met' : 'MISSED'}`,
    `  served verbatim (modernized text identical to the KJV): ${countAndShare(report.verbatim.verses, report.verbatim.share)}`,
    `  top residual forms: ${report.topForms.length === 0 ? 'none' : report.topForms.map(([form, n]) => `${form} ${n.toLocaleString('en-US')}`).join(', ')}`,
  ]
  const kinds = report.hybrids.kinds.filter(([, n]) => n > 0)
  if (kinds.length > 0) lines.push(`  hybrids by kind: ${kinds.map(([kind, n]) => `${kind} ${n.toLocaleString('en-US')}`).join(', ')}`)
  if (report.examples.length > 0) {
    lines.push('  examples of archaic forms:')
    for (const example of report.examples) lines.push(`    ${example.slug}: ${example.forms.join(', ')}`)
  }
  if (report.hybrids.examples.length > 0) {
    lines.push('  examples of hybrids:')
    for (const example of report.hybrids.examples) lines.push(`    ${example.slug}: ${example.hybrids.join(', ')}`)
  }
  return lines
}
