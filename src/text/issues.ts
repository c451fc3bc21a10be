/**
 * What every content gate reports: one broken rule, named by a stable id. Verse content
 * (src/content/validation.ts), narrative content (src/narratives/narrative-content.ts), the
 * book introductions (scripts/check-book-intros.ts) and the corpus check
 * (src/content/repeated-sentences.ts) all speak this one vocabulary, so a writer, a script
 * or a generation report can count and filter problems the same way wherever they arise.
 */

/** Stable identifiers of the rules, for callers that count or filter issues. */
export type ValidationRule =
  | 'unknown_style'
  | 'required'
  | 'type'
  | 'unexpected_field'
  | 'too_long'
  | 'line_break'
  | 'control_character'
  | 'markup'
  | 'bottom_line_sentences'
  | 'bottom_line_words'
  | 'sentence_count'
  | 'length_ratio'
  | 'proper_names'
  | 'archaic_form'
  // The editorial gates of db/content/EDITORIAL.md (editorial-1).
  | 'quotes_balanced'
  | 'first_letter'
  | 'final_punctuation'
  | 'numbers_kept'
  | 'american_spelling'
  | 'repeated_sentence'

/** One broken rule. The message says what was found and what is allowed, without the field name. */
export interface ValidationIssue {
  readonly field: string
  readonly rule: ValidationRule
  readonly message: string
}

/**
 * An issue as one line of text, as import rejections and generation feedback show it.
 * @example formatIssue({ field: 'summary', rule: 'sentence_count', message: 'has 1 sentence; 2 to 4 are allowed' }) // 'summary sentence_count: has 1 sentence; 2 to 4 are allowed'
 */
export function formatIssue(issue: ValidationIssue): string {
  return `${issue.field} ${issue.rule}: ${issue.message}`
}
