/**
 * The plain-text rules every text we write follows, in one place: how words and sentences
 * are counted, and what a plain-text field must not contain (line breaks, control
 * characters, markup). Verse content, narrative content and the book introductions are
 * all judged by these functions, so a text cannot pass one gate and fail another on the
 * same count.
 */
import type { ValidationIssue } from './issues.js'

// ---------------------------------------------------------------------------------------
// Words and sentences

/**
 * Counts the words of a text: whitespace-separated tokens that contain a letter or digit,
 * so that a lone dash or ellipsis is not a word but "3:16" and "don't" are one each.
 * @example countWords('Wait — what ... ? !') // 2
 */
export function countWords(text: string): number {
  let count = 0
  for (const token of text.split(/\s+/u)) if (/[\p{L}\p{N}]/u.test(token)) count++
  return count
}

/** Abbreviations after which a full stop never ends a sentence. Lower case, without the final dot. */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
  'cf',
  'viz',
  'vs',
  'st',
  'sts',
  'mt',
  'mr',
  'mrs',
  'ms',
  'dr',
  'jr',
  'sr',
  'prof',
  'rev',
  'fr',
  'approx',
  'ca',
  'esp',
  'lit',
  'al',
  'ibid',
  'gk',
  'heb',
  'lat',
  'aram',
])

/**
 * Abbreviations that end a sentence unless a number follows: "Gen. 1:1" and "No. 5" go on,
 * but "the tribe of Dan. Then" ends. Book abbreviations, reference words.
 */
const NUMBER_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'no',
  'nos',
  'vol',
  'pp',
  'ch',
  'chap',
  'vv',
  'ver',
  'gen',
  'ex',
  'exod',
  'lev',
  'num',
  'deut',
  'josh',
  'judg',
  'sam',
  'kgs',
  'chr',
  'neh',
  'esth',
  'ps',
  'psa',
  'prov',
  'eccl',
  'eccles',
  'isa',
  'jer',
  'lam',
  'ezek',
  'dan',
  'hos',
  'obad',
  'mic',
  'nah',
  'hab',
  'zeph',
  'hag',
  'zech',
  'mal',
  'matt',
  'mk',
  'lk',
  'jn',
  'rom',
  'cor',
  'gal',
  'eph',
  'phil',
  'col',
  'thess',
  'tim',
  'tit',
  'philem',
  'jas',
  'pet',
])

// A run of ., ! or ? (or …), then any closing quotes or brackets. Whether a space follows is
// checked in code: a lookahead here would make a long run of dots quadratic to scan.
const TERMINATOR = /[.!?…]+["'”’)\]]*/gu
const SPACES = /\s*/uy
const CLOSERS = /["'”’)\]]+$/u
const OPENERS = /^["'“‘([]+/u

/** True when the full stop after `word` (the token before it) belongs to an abbreviation. */
function isAbbreviation(word: string, following: string): boolean {
  const bare = word.replace(OPENERS, '')
  // Initials and dotted abbreviations: "C. S. Lewis", "c. 30", "A.D.", "e.g.", "i.e.".
  // "I." is left out: it ends sentences ("as did I.") far more often than it is an initial.
  if (/^\p{L}$/u.test(bare)) return bare !== 'I'
  if (/^(?:\p{L}\.)+\p{L}$/u.test(bare)) return true
  const lower = bare.toLowerCase()
  if (ABBREVIATIONS.has(lower)) return true
  return NUMBER_ABBREVIATIONS.has(lower) && /^\d/u.test(following)
}

/**
 * Splits a text into sentences, each trimmed; pieces without a letter or digit are dropped.
 * A sentence ends at ".", "!" or "?" (with any closing quotes or brackets) followed by a
 * space and then not a lower-case letter, or at the end of the text. These do not end one:
 * ellipses ("..." and "…"); abbreviations and initials ("e.g.", "i.e.", "St.", "Mt.",
 * "A.D.", "B.C.", "c.", "C. S. Lewis"); book and reference abbreviations before a number
 * ("Gen. 1:1", "v. 16"); numbers ("3.16"), whose dot is not followed by a space. A
 * semicolon or colon does not end a sentence; a last sentence without a full stop counts.
 * @example splitSentences('God loves people, e.g. you. He gave his Son...for all.') // 2 sentences
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  for (const match of text.matchAll(TERMINATOR)) {
    const end = match.index + match[0].length
    SPACES.lastIndex = end
    const next = end + (SPACES.exec(text)?.[0].length ?? 0)
    if (next === text.length) break
    // "3.16", "Hello.World": no space after, no sentence end.
    if (next === end) continue
    const following = String.fromCodePoint(text.codePointAt(next) ?? 0)
    const marks = match[0].replace(CLOSERS, '')
    // An ellipsis trails off or marks an omission; the sentence goes on.
    if (!/[!?]/u.test(marks) && (marks.includes('…') || marks.length > 1)) continue
    // "e.g. the", '"Go!" he said': what follows in lower case continues the sentence.
    if (/\p{Ll}/u.test(following)) continue
    if (marks === '.') {
      // The word before the stop. Words before different stops do not overlap (a space
      // follows each stop), so the backward scans add up to one pass over the text.
      let wordStart = match.index
      while (wordStart > start && !/\s/u.test(text.charAt(wordStart - 1))) wordStart--
      if (isAbbreviation(text.slice(wordStart, match.index), following)) continue
    }
    sentences.push(text.slice(start, end))
    start = end
  }
  sentences.push(text.slice(start))
  return sentences.map((s) => s.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s))
}

// ---------------------------------------------------------------------------------------
// Messages

/** Shows a found piece of text in a message: quoted, on one line, cut short. */
export function excerpt(text: string, max = 40): string {
  const flat = text.replace(/\s+/gu, ' ')
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat)
}

/** "U+00A0": how a message names an invisible character. */
export function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`
}

/** "1 sentence", "3 sentences". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

// ---------------------------------------------------------------------------------------
// Plain text

const LINE_BREAK = /[\n\r\v\f\u0085\u2028\u2029]/u
// C0 and C1 controls other than the line breaks (tab included), zero-width characters, BOM.
const CONTROL = /[\u0000-\u0009\u000e-\u001f\u007f-\u0084\u0086-\u009f\u200b-\u200d\u2060\ufeff]/u

/**
 * Markup a plain-text field must not contain, with how to name it in a message. Patterns,
 * not characters: "3 < 4", "#1", "[all]" and "-" inside a sentence are plain text.
 */
const MARKUP: ReadonlyArray<{ readonly pattern: RegExp; readonly what: string }> = [
  // Bounded by the next "<", so a long run of "<" cannot make the search quadratic.
  { pattern: /<\/?[A-Za-z][^<>]*>|<!--/u, what: 'an HTML/XML tag' },
  { pattern: /&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9A-Fa-f]+);/u, what: 'an HTML entity' },
  { pattern: /\[[^[\]]*\][([]/u, what: 'a Markdown link' },
  { pattern: /\b(?:https?|ftp):\/\/|\bwww\.[\p{L}\p{N}-]+\.|\bmailto:|\b[a-z0-9-]{1,63}\.(?:com|org|net|edu|io)\b/iu, what: 'a URL' },
  { pattern: /`/u, what: 'a backtick' },
  { pattern: /\*/u, what: 'an asterisk' },
  { pattern: /_/u, what: 'an underscore' },
  { pattern: /~~/u, what: 'Markdown strikethrough' },
  // [ \t]* rather than \s*, which would run across line breaks and make many lines quadratic.
  { pattern: /^[ \t]*(?:#|>|[-+][ \t])/mu, what: 'a Markdown heading, quote or list marker' },
]

/**
 * The rules every field of every kind of content follows: one line, no control or
 * invisible characters, no markup. Returns at most one issue per rule, naming what was found.
 * @example plainTextIssues('summary', 'Jesus <b>speaks</b>.') // [{ rule: 'markup', ... }]
 */
export function plainTextIssues(field: string, text: string): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const lineBreak = LINE_BREAK.exec(text)
  if (lineBreak !== null) {
    issues.push({
      field,
      rule: 'line_break',
      message: `contains a line break (${codePoint(lineBreak[0])}) at character ${lineBreak.index + 1}; write the field as one line`,
    })
  }
  const control = CONTROL.exec(text)
  if (control !== null) {
    issues.push({
      field,
      rule: 'control_character',
      message: `contains the control or invisible character ${codePoint(control[0])} at character ${control.index + 1}; remove it`,
    })
  }
  const found: string[] = []
  for (const { pattern, what } of MARKUP) {
    const match = pattern.exec(text)
    if (match !== null) found.push(`${what} ${excerpt(match[0].trim() === '' ? match[0] : match[0].trim())}`)
  }
  if (found.length > 0) {
    issues.push({ field, rule: 'markup', message: `contains markup: ${found.join(', ')}; write plain text only` })
  }
  return issues
}
