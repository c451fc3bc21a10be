/**
 * Measures the modernizer instead of assuming it works: the share of verses whose modern
 * text still contains an archaic form, by the same definition that validates AI-written
 * faithful texts (see archaic.ts). The product target is under 1% of the KJV.
 */
import { findArchaicForms } from '../../text/archaic.js'
import { modernize } from './modernizer.js'

/** A verse to measure, named by its slug so that examples can be looked up. */
export interface ReportVerse {
  readonly slug: string
  readonly text: string
}

/** The figures of one run of the modernizer over a set of verses. */
export interface ModernizerReport {
  /** Verses measured. */
  readonly total: number
  /** Verses whose modernized text still contains at least one archaic form. */
  readonly withArchaic: number
  /** withArchaic / total, from 0 to 1 (0 when there are no verses). */
  readonly share: number
  /** The most frequent residual forms, each with the number of verses it is left in. */
  readonly topForms: Array<[string, number]>
  /** The first verses, in input order, that still contain archaic forms. */
  readonly examples: Array<{ slug: string; forms: string[] }>
}

/** What the report keeps and what it measures. */
export interface ReportOptions {
  /** How many residual forms to list (default 20). */
  readonly forms?: number
  /** How many example verses to list (default 20). */
  readonly examples?: number
  /**
   * The text transformation to measure (default: modernize). Passing the identity gives
   * the baseline of the unmodernized KJV; a candidate rule set can be compared the same way.
   */
  readonly transform?: (text: string) => string
}

/**
 * Modernizes every verse and counts what archaic forms survive. Pure: the caller loads
 * the verses. Forms are counted once per verse, so a form's count is how many verses
 * would fail the validation rule because of it; ties are listed alphabetically.
 * @example modernizerReport([{ slug: 'john-3-16', text: 'For God so loved the world...' }]).share // 0
 */
export function modernizerReport(verses: Iterable<ReportVerse>, options: ReportOptions = {}): ModernizerReport {
  const { forms: formLimit = 20, examples: exampleLimit = 20, transform = modernize } = options
  let total = 0
  let withArchaic = 0
  const counts = new Map<string, number>()
  const examples: Array<{ slug: string; forms: string[] }> = []
  for (const verse of verses) {
    total += 1
    const forms = findArchaicForms(transform(verse.text))
    if (forms.length === 0) continue
    withArchaic += 1
    for (const form of forms) counts.set(form, (counts.get(form) ?? 0) + 1)
    if (examples.length < exampleLimit) examples.push({ slug: verse.slug, forms })
  }
  const topForms = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, formLimit)
  return { total, withArchaic, share: total === 0 ? 0 : withArchaic / total, topForms, examples }
}
