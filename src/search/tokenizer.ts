/**
 * Splitting texts and queries into words: the same rules for both, so that what a client
 * types meets what the index holds. Matching ignores case and accents ("Cæsar" = "caesar").
 */

/** A word of a text, with where it stands in the original string. */
export interface Token {
  /** Offset of the first character in the original text. */
  readonly start: number
  /** Offset just past the last character. */
  readonly end: number
  /** The normalized word: lower case, no accents, no apostrophes ("god's" -> "gods"). Phrases match on it. */
  readonly surface: string
  /** The normalized word without a possessive 's, before stemming ("god's" -> "god"). */
  readonly base: string
}

// Letters and digits (with their combining marks), joined by inner apostrophes: "LORD's", "won't".
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:['’][\p{L}\p{N}\p{M}]+)*/gu
const MARKS = /\p{M}/gu
const APOSTROPHES = /['’]/g
const NON_ASCII = /[^\u0000-\u007f]/
/** Letters that Unicode does not decompose but readers treat as plain letters. */
const FOLDS: Readonly<Record<string, string>> = { æ: 'ae', œ: 'oe', ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' }
const FOLDABLE = /[æœßøłđðþı]/g

/**
 * Lower case without accents or ligatures; apostrophes are kept (see `tokenize`).
 * @example foldWord('Cæsar') // 'caesar'
 */
export function foldWord(word: string): string {
  const lower = word.toLowerCase()
  if (!NON_ASCII.test(lower)) return lower
  return lower
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(FOLDABLE, (c) => FOLDS[c] ?? c)
    .replace(/’/g, "'")
}

/** The two normalized forms of a word as it appears in a text. */
export interface WordForms {
  readonly surface: string
  readonly base: string
}

/**
 * The normalized forms of one word of a text (as `rawWords` or `tokenize` find it).
 * @example formsOf("LORD's") // { surface: 'lords', base: 'lord' }
 */
export function formsOf(raw: string): WordForms {
  const folded = foldWord(raw)
  const surface = folded.replace(APOSTROPHES, '')
  const base = folded.endsWith("'s") ? folded.slice(0, -2).replace(APOSTROPHES, '') : surface
  return { surface, base }
}

/** The words of a text as written, in order (the fast path for indexing). */
export function rawWords(text: string): string[] {
  return text.match(WORD) ?? []
}

/**
 * The words of a text in order, with their offsets.
 * @example tokenize("The LORD's").map((t) => t.base) // ['the', 'lord']
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  for (const match of text.matchAll(WORD)) {
    const start = match.index
    tokens.push({ start, end: start + match[0].length, ...formsOf(match[0]) })
  }
  return tokens
}
