/**
 * Snippets: a text with the words that matched wrapped in `<mark>`, its own `&`, `<` and `>`
 * escaped, cut to about 240 characters around the matches with `…` where text was left out.
 */
import type { Token } from './tokenizer.js'

/** Texts up to this length are given whole; longer ones are cut to about this length. */
export const SNIPPET_LENGTH = 240
/** How much text is kept before the first match of a cut snippet. */
const LEAD = 40
const ELLIPSIS = '…'

/** A highlighted stretch of a text: [start, end) in the original string. */
export type Span = readonly [start: number, end: number]

/** What a text's words are matched against. */
export interface Highlighter {
  /** Whether a word (token) matches one of the query's bare words. */
  matchesWord(token: Token): boolean
  /** The query's phrases, as sequences of Token.surface. */
  readonly phrases: ReadonlyArray<readonly string[]>
}

/**
 * The spans of a tokenized text to highlight: each word that matches a bare word of the
 * query, and each occurrence of a phrase as one span. Sorted, never overlapping.
 */
export function highlightSpans(tokens: readonly Token[], highlighter: Highlighter): Span[] {
  const marked: Array<Span | undefined> = tokens.map((t): Span | undefined => (highlighter.matchesWord(t) ? [t.start, t.end] : undefined))
  for (const phrase of highlighter.phrases) {
    for (let i = 0; i + phrase.length <= tokens.length; i++) {
      if (!phrase.every((surface, j) => tokens[i + j]?.surface === surface)) continue
      const last = tokens[i + phrase.length - 1]
      const first = tokens[i]
      if (first === undefined || last === undefined) continue
      marked[i] = [first.start, last.end]
      for (let j = 1; j < phrase.length; j++) marked[i + j] = undefined
      i += phrase.length - 1
    }
  }
  const spans = marked.filter((span): span is Span => span !== undefined).sort((a, b) => a[0] - b[0])
  // A word inside a phrase found elsewhere keeps only the phrase's span.
  return spans.filter((span, i) => i === 0 || span[0] >= (spans[i - 1]?.[1] ?? 0))
}

/**
 * The snippet of a text: whole when short, otherwise the ~240-character window that holds
 * the most highlighted spans (the earliest such window), cut at word boundaries.
 * @example snippet('Jesus wept.', [[0, 5]]) // '<mark>Jesus</mark> wept.'
 */
export function snippet(text: string, spans: readonly Span[]): string {
  const [from, to] = text.length <= SNIPPET_LENGTH ? [0, text.length] : windowOf(text, spans)
  let out = from > 0 ? ELLIPSIS : ''
  let at = from
  for (const [start, end] of spans) {
    if (start < from || end > to) continue
    out += `${escapeHtml(text.slice(at, start))}<mark>${escapeHtml(text.slice(start, end))}</mark>`
    at = end
  }
  out += escapeHtml(text.slice(at, to))
  return to < text.length ? `${out}${ELLIPSIS}` : out
}

/** Escapes the characters that would otherwise read as markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))
}

/** [from, to) of the window to show, at word boundaries and without outer spaces. */
function windowOf(text: string, spans: readonly Span[]): [number, number] {
  let best = 0
  let bestCount = -1
  for (let i = 0; i < Math.max(1, spans.length); i++) {
    const start = Math.max(0, (spans[i]?.[0] ?? 0) - LEAD)
    const count = spans.filter(([s, e]) => s >= start && e <= start + SNIPPET_LENGTH).length
    if (count > bestCount) {
      best = start
      bestCount = count
    }
  }
  let from = Math.max(0, Math.min(best, text.length - SNIPPET_LENGTH))
  let to = Math.min(text.length, from + SNIPPET_LENGTH)
  // Cut between words, widening the window to the whole of a word cut in two (so it stays
  // "about" 240 characters and never loses a highlighted word).
  if (from > 0) from = text.lastIndexOf(' ', from) + 1
  if (to < text.length) {
    const space = text.indexOf(' ', to)
    to = space === -1 ? text.length : space
  }
  while (from < to && text[from] === ' ') from++
  while (to > from && text[to - 1] === ' ') to--
  return [from, to]
}
