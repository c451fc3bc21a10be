/**
 * The editorial gates of db/content/EDITORIAL.md (editorial-1) that judge one field of
 * text on its own, shared by every kind of content we write: verse content
 * (src/content/validation.ts), narrative content (src/narratives/narrative-content.ts) and
 * the book introductions (scripts/check-book-intros.ts). Each gate is a rule id of
 * {@link ValidationRule}; each returns at most one issue per field, naming what to fix.
 *
 * - `quotes_balanced`: straight double quotes come in pairs; curly quotes are not used.
 * - `first_letter`: the text begins (after opening quotes or brackets) with a capital or a digit.
 * - `final_punctuation`: the text ends with ".", "?" or "!" (then any closing quotes or
 *   brackets); a rendering of a verse that itself ends with "," ";" ":" or a dash may end so too.
 * - `archaic_form`: none of the archaic forms of section 10 (`findBroadArchaicForms`).
 * - `american_spelling`: no British spelling (`findBritishSpellings`).
 * - `numbers_kept`: a rendering keeps every number of its verse (`missingNumbers`).
 */
import { findBroadArchaicForms } from './archaic.js'
import { findBritishSpellings } from './american-spelling.js'
import type { ValidationIssue, ValidationRule } from './issues.js'
import { missingNumbers } from './numbers.js'
import { excerpt, plural } from './plain-text.js'

/** The gates that judge a field on its own, in the order their issues are reported. */
export type FieldGate = Extract<ValidationRule, 'quotes_balanced' | 'first_letter' | 'final_punctuation' | 'archaic_form' | 'american_spelling'>

/** Every field gate. */
export const FIELD_GATES: readonly FieldGate[] = ['quotes_balanced', 'first_letter', 'final_punctuation', 'archaic_form', 'american_spelling']

/** How a field is judged. */
export interface FieldGateOptions {
  /** The gates to apply; all of {@link FIELD_GATES} when absent. */
  readonly gates?: readonly FieldGate[]
  /**
   * The KJV text this field renders (a `simplified_text`): where the verse ends with
   * "," ";" ":" or a dash, running on into the next verse, the rendering may end so too.
   */
  readonly kjvText?: string
  /**
   * Double-quoted words are quotations of the KJV, which keeps its own words and spelling
   * (a `historical_context` discussing a word, a book introduction quoting a verse): the
   * archaic and spelling gates skip them.
   */
  readonly quotationsExempt?: boolean
}

const OPENING = /^["'([“‘]+/u
/** Closing quotes and brackets, which may follow the final punctuation. */
const CLOSERS = new Set(['"', "'", ')', ']', '”', '’'])
const CURLY = /[“”‘’]/u
/** What a text may end with: a full stop, question mark or exclamation mark. */
const SENTENCE_END = /[.?!]$/u
/** What a verse running on into the next ends with, and its rendering may too. */
const RUN_ON_END = /[,;:—-]$/u

/**
 * The text with every double-quoted passage blanked out (same length, so positions hold).
 * An unpaired last quote blanks nothing: `quotes_balanced` reports it.
 */
export function blankQuotations(text: string): string {
  const total = (text.match(/"/gu) ?? []).length
  let seen = 0
  let inside = false
  let blanked = ''
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i)
    if (char === '"') {
      seen++
      // An odd last quote opens nothing.
      if (inside || seen < total) inside = !inside
      blanked += char
    } else {
      blanked += inside ? ' ' : char
    }
  }
  return blanked
}

/** The text without its closing quotes and brackets at the end (a backward scan: linear on any input). */
function withoutClosers(text: string): string {
  let end = text.length
  while (end > 0 && CLOSERS.has(text.charAt(end - 1))) end--
  return text.slice(0, end)
}

/** `quotes_balanced`: straight double quotes in pairs, no curly quotes. */
function checkQuotes(text: string): string | undefined {
  const problems: string[] = []
  const curly = CURLY.exec(text)
  if (curly !== null) problems.push(`uses the curly quotation mark ${curly[0]} at character ${curly.index + 1}; use straight quotes (" and ')`)
  const count = (text.match(/"/gu) ?? []).length
  if (count % 2 === 1)
    problems.push(
      `has ${plural(count, 'double quote')}, an odd number; close every quotation in the text that opens it (a verse that is wholly speech takes none)`,
    )
  return problems.length === 0 ? undefined : problems.join('; ')
}

/** `first_letter`: a capital letter or a digit first, after any opening quotes or brackets. */
function checkFirstLetter(text: string): string | undefined {
  const first = String.fromCodePoint(text.replace(OPENING, '').codePointAt(0) ?? 0)
  if (/[\p{Lu}\p{N}]/u.test(first)) return undefined
  return `must begin with a capital letter or a digit; begins with ${excerpt(text.slice(0, 12))}`
}

/** True when the KJV verse runs on into the next: it ends with "," ";" ":" or a dash. */
function runsOn(kjvText: string | undefined): boolean {
  return kjvText !== undefined && RUN_ON_END.test(withoutClosers(kjvText.trim()))
}

/** `final_punctuation`: ".", "?" or "!" last (before closing quotes or brackets). */
function checkFinalPunctuation(text: string, kjvText: string | undefined): string | undefined {
  const end = withoutClosers(text)
  if (SENTENCE_END.test(end)) return undefined
  const runOn = runsOn(kjvText)
  if (runOn && RUN_ON_END.test(end)) return undefined
  const allowed = runOn ? '".", "?", "!" or, as the KJV verse runs on, "," ";" ":" or a dash' : '".", "?" or "!"'
  const hint = kjvText !== undefined && !runOn ? ' (a comma, semicolon, colon or dash only where the KJV verse ends with one)' : ''
  return `must end with ${allowed}${hint}; ends with ${excerpt(text.slice(-12))}`
}

/** `archaic_form`: none of the archaic forms of EDITORIAL.md section 10. */
function checkArchaic(text: string, quotationsExempt: boolean): string | undefined {
  const forms = findBroadArchaicForms(quotationsExempt ? blankQuotations(text) : text)
  if (forms.length === 0) return undefined
  const exempt = quotationsExempt ? ' (a word the note discusses may stand inside quotation marks)' : ''
  return `uses archaic ${forms.length === 1 ? 'form' : 'forms'} ${forms.map((f) => excerpt(f)).join(', ')}; write modern English${exempt}`
}

/** `american_spelling`: no British spellings. */
function checkSpelling(text: string, quotationsExempt: boolean): string | undefined {
  const found = findBritishSpellings(quotationsExempt ? blankQuotations(text) : text)
  if (found.length === 0) return undefined
  return `uses British spelling: ${found.map((s) => `${excerpt(s.found)} (write ${excerpt(s.american)})`).join(', ')}`
}

/**
 * Applies the field gates to one field's trimmed text.
 * @param field the field's name, carried into the issues.
 * @example fieldGateIssues('bottom_line', 'god loves the world') // first_letter and final_punctuation issues
 */
export function fieldGateIssues(field: string, text: string, options: FieldGateOptions = {}): ValidationIssue[] {
  const gates = options.gates ?? FIELD_GATES
  const exempt = options.quotationsExempt === true
  const issues: ValidationIssue[] = []
  for (const rule of FIELD_GATES) {
    if (!gates.includes(rule)) continue
    const message =
      rule === 'quotes_balanced'
        ? checkQuotes(text)
        : rule === 'first_letter'
          ? checkFirstLetter(text)
          : rule === 'final_punctuation'
            ? checkFinalPunctuation(text, options.kjvText)
            : rule === 'archaic_form'
              ? checkArchaic(text, exempt)
              : checkSpelling(text, exempt)
    if (message !== undefined) issues.push({ field, rule, message })
  }
  return issues
}

/**
 * `numbers_kept`: the issue of a rendering that leaves out a number of its KJV verse
 * (see `missingNumbers`), or undefined when it keeps them all.
 * @example numbersIssue('simplified_text', 'He lived seventy years.', 'threescore and ten years') // undefined
 */
export function numbersIssue(field: string, text: string, kjvText: string): ValidationIssue | undefined {
  const missing = missingNumbers(kjvText, text)
  if (missing.length === 0) return undefined
  const listed = missing.map((n) => (String(n.value) === n.text ? excerpt(n.text) : `${excerpt(n.text)} (${n.value.toLocaleString('en-US')})`))
  return { field, rule: 'numbers_kept', message: `must keep every number of the verse, in figures or words; missing ${listed.join(', ')}` }
}
