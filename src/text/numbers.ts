/**
 * Numbers in text, as the KJV writes them and as we write them today, so that a rendering
 * can be checked to keep every number of its verse (db/content/EDITORIAL.md section 9).
 *
 * One grammar reads both, since the KJV's forms are a superset of today's words:
 * - cardinals one to nineteen, the tens, "hundred", "thousand", "million" and "dozen",
 *   joined by spaces, hyphens or "and": "an hundred and twenty" (120), "two and thirty
 *   thousand" (32,000), "an hundred and forty and four thousand" (144,000), "nine hundred
 *   sixty and nine" (969), "twenty-five", "one hundred forty-four thousand";
 * - the scores: "threescore and ten" (70), "fourscore" (80), "six hundred threescore and
 *   six" (666), "a score";
 * - ordinals from "third" as their value: "the third day" (3), "the five and twentieth
 *   year" (25), "the six hundredth year" (600), "the tenth part" (10), "25th";
 * - multiples: "sevenfold" (7), "an hundredfold" (100), "thrice" (3);
 * - figures: "144,000", "276";
 * - "X times Y" ("ten thousand times ten thousand", "seventy times seven") and "X years
 *   and Y" ("threescore years and ten", "ninety years old and nine"), which a rendering
 *   keeps by giving both numbers or the one they make (490, 70, 99);
 * - the hours of the day counted from sunrise: "the sixth hour" is also kept by "noon" or
 *   "twelve", "the ninth hour" by "three in the afternoon" (db/content/EDITORIAL.md section
 *   2: words are rendered by what the KJV meant).
 * Plurals ("thousands", "ten thousands", "hundreds of") are not a number and are skipped.
 */

/** A number found in a text. */
export interface NumberPhrase {
  readonly value: number
  /** The words that say it, as written. */
  readonly text: string
  /** Other values that say the same: the clock time of an hour counted from sunrise. */
  readonly alternatives?: readonly number[]
}

/**
 * Two numbers of a text that one number may stand for: "seventy times seven" (490),
 * "threescore years and ten" (70). `parts` are their indexes in `numbers`.
 */
export interface Combination {
  readonly parts: readonly [number, number]
  readonly value: number
}

/** The numbers of a text, in order, and their combinations. */
export interface TextNumbers {
  readonly numbers: readonly NumberPhrase[]
  readonly combined: readonly Combination[]
}

/** A number waiting for the next: "times" multiplies, "years and" adds. */
interface Link {
  readonly index: number
  readonly how: 'times' | 'plus'
}

type Kind = 'unit' | 'teen' | 'tens' | 'score' | 'hundred' | 'big' | 'dozen' | 'scoreword' | 'figure'

/** How one word or figure counts: its kind and value, and whether it ends a number (ordinals, -fold). */
interface NumberWord {
  readonly kind: Kind
  readonly value: number
  readonly ends: boolean
}

const UNITS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']
const TEENS = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen']
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']
const UNIT_ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth']
const TEEN_ORDINALS = ['tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth']
const TENS_ORDINALS = ['twentieth', 'thirtieth', 'fortieth', 'fiftieth', 'sixtieth', 'seventieth', 'eightieth', 'ninetieth']

/** Every cardinal and ordinal word, lower case. */
const WORDS: ReadonlyMap<string, NumberWord> = new Map<string, NumberWord>([
  ...UNITS.map((w, i): [string, NumberWord] => [w, { kind: 'unit', value: i + 1, ends: false }]),
  ...TEENS.map((w, i): [string, NumberWord] => [w, { kind: 'teen', value: i + 10, ends: false }]),
  ...TENS.map((w, i): [string, NumberWord] => [w, { kind: 'tens', value: (i + 2) * 10, ends: false }]),
  // "threescore" is three twenties; "sixscore" (120) still joins like a ten.
  ...UNITS.slice(1, 7).map((w, i): [string, NumberWord] => [`${w}score`, { kind: 'score', value: (i + 2) * 20, ends: false }]),
  ...UNIT_ORDINALS.map((w, i): [string, NumberWord] => [w, { kind: 'unit', value: i + 1, ends: true }]),
  ...TEEN_ORDINALS.map((w, i): [string, NumberWord] => [w, { kind: 'teen', value: i + 10, ends: true }]),
  ...TENS_ORDINALS.map((w, i): [string, NumberWord] => [w, { kind: 'tens', value: (i + 2) * 10, ends: true }]),
  ['hundred', { kind: 'hundred', value: 100, ends: false }],
  ['hundredth', { kind: 'hundred', value: 100, ends: true }],
  ['thousand', { kind: 'big', value: 1000, ends: false }],
  ['thousandth', { kind: 'big', value: 1000, ends: true }],
  ['million', { kind: 'big', value: 1_000_000, ends: false }],
  ['dozen', { kind: 'dozen', value: 12, ends: false }],
  ['score', { kind: 'scoreword', value: 20, ends: false }],
  ['thrice', { kind: 'figure', value: 3, ends: true }],
  // Twelve o'clock, as a rendering of "the sixth hour" says it.
  ['noon', { kind: 'figure', value: 12, ends: true }],
  ['midday', { kind: 'figure', value: 12, ends: true }],
])

/** The clock time (1 to 12) of the nth hour of the day, counted from sunrise at six. */
function clockHour(nth: number): number {
  return ((nth + 5) % 12) + 1
}

/** Plural multipliers: "thousands", "ten thousands", "hundreds of" name no number. */
const VAGUE: ReadonlySet<string> = new Set(['hundreds', 'thousands', 'millions', 'dozens', 'scores', 'tens'])

/** The multipliers an article may stand for "one" before: "an hundred", "a thousand", "a dozen". */
const AFTER_ARTICLE: ReadonlySet<Kind> = new Set(['hundred', 'big', 'dozen', 'scoreword'])

/** Reads one word or figure as a number word, or undefined. */
function numberWord(token: string): NumberWord | undefined {
  const figure = /^(\d{1,3}(?:,\d{3})+|\d+)(st|nd|rd|th)?$/iu.exec(token)
  if (figure !== null) return { kind: 'figure', value: Number((figure[1] ?? '').replace(/,/gu, '')), ends: figure[2] !== undefined }
  const lower = token.toLowerCase()
  const word = WORDS.get(lower)
  if (word !== undefined) return word
  // "sevenfold", "an hundredfold", "sixtyfold": the number, said as a multiple.
  if (lower.endsWith('fold')) {
    const stem = WORDS.get(lower.slice(0, -4))
    if (stem !== undefined && !stem.ends) return { ...stem, ends: true }
  }
  return undefined
}

/** A number being read: the thousands and millions so far, and the group below a thousand. */
interface Reading {
  readonly start: number
  end: number
  total: number
  group: number
  /** What the group below a hundred holds, to tell "two and thirty" (32) from "two and two". */
  unit: boolean
  teen: boolean
  tens: boolean
  last: Kind
}

/** True when `word` continues `reading`, directly (`viaAnd` false) or after "and". */
function joins(reading: Reading, word: NumberWord, viaAnd: boolean): boolean {
  const afterScale = reading.last === 'hundred' || reading.last === 'big'
  const afterTens = (reading.last === 'tens' || reading.last === 'score') && !reading.unit
  switch (word.kind) {
    case 'unit':
      return afterScale || afterTens
    case 'teen':
      // "threescore and ten", "threescore and twelve".
      return afterScale || (viaAnd && reading.last === 'score' && !reading.unit)
    case 'tens':
    case 'score':
      // "two and thirty", "an hundred and seven and twenty": a unit, then its tens.
      return afterScale || (viaAnd && reading.last === 'unit' && reading.unit && !reading.tens && !reading.teen)
    case 'hundred':
      return !viaAnd && reading.group > 0 && reading.group < 100
    case 'big':
      // "a thousand thousand" (1 Chronicles 21:5) is a million.
      return !viaAnd && (reading.group > 0 || reading.last === 'big')
    case 'dozen':
    case 'scoreword':
      return !viaAnd && reading.group > 0 && reading.group < 10
    case 'figure':
      return false
  }
}

/** Adds `word` to `reading` (started or continued). */
function apply(reading: Reading, word: NumberWord): void {
  switch (word.kind) {
    case 'unit':
      reading.group += word.value
      reading.unit = true
      break
    case 'teen':
      reading.group += word.value
      reading.teen = true
      break
    case 'tens':
    case 'score':
      reading.group += word.value
      reading.tens = true
      break
    case 'hundred':
      reading.group = (reading.group || 1) * 100
      reading.unit = reading.teen = reading.tens = false
      break
    case 'big':
      if (reading.group === 0 && reading.total > 0) reading.total *= word.value
      else reading.total += (reading.group || 1) * word.value
      reading.group = 0
      reading.unit = reading.teen = reading.tens = false
      break
    case 'dozen':
      reading.group = (reading.group || 1) * 12
      break
    case 'scoreword':
      // "a score", "three score": twenties, which then join like a ten.
      reading.group = (reading.group || 1) * 20
      reading.unit = false
      reading.tens = true
      reading.last = 'score'
      return
    case 'figure':
      reading.group = word.value
      break
  }
  reading.last = word.kind
}

/**
 * Reads the numbers of a text, KJV or modern, in order (see the file comment for the forms).
 * @example readNumbers('an hundred and forty and four thousand').numbers // [{ value: 144000, ... }]
 */
export function readNumbers(text: string): TextNumbers {
  const tokens = [...text.matchAll(/\d{1,3}(?:,\d{3})+(?:st|nd|rd|th)?\b|\d+(?:st|nd|rd|th)?\b|\p{L}+/giu)]
  const numbers: NumberPhrase[] = []
  const combined: Combination[] = []
  let reading: Reading | undefined
  let viaAnd = false
  let vague = false
  // A number that the next one may combine with ("seventy times", "threescore years and"),
  // while the words between allow it; and the one the current reading combines with.
  let pending: Link | undefined
  let left: Link | undefined

  const close = (hour = false): void => {
    if (reading !== undefined && !vague) {
      const value = reading.total + reading.group
      const words = text.slice(reading.start, reading.end)
      numbers.push(hour && value <= 12 ? { value, text: words, alternatives: [clockHour(value)] } : { value, text: words })
      const leftNumber = left === undefined ? undefined : numbers[left.index]
      if (left !== undefined && leftNumber !== undefined) {
        const isSum = left.how === 'plus' && value < 20
        if (left.how === 'times' || isSum) {
          combined.push({ parts: [left.index, numbers.length - 1], value: isSum ? leftNumber.value + value : leftNumber.value * value })
        }
      }
    }
    reading = undefined
    viaAnd = false
    vague = false
    left = undefined
  }
  /** Closes the reading and returns the index of the number it gave, if any. */
  const closed = (): number | undefined => {
    const before = numbers.length
    close()
    return numbers.length > before ? before : undefined
  }

  tokens.forEach((match, index) => {
    const token = match[0]
    const lower = token.toLowerCase()
    const previous = tokens[index - 1]
    const gap = previous === undefined ? '' : text.slice(previous.index + previous[0].length, match.index)
    // Punctuation ends a number; spaces and a hyphen ("twenty-five") do not.
    if (!/^[\s-]*$/u.test(gap)) {
      close()
      pending = undefined
    }
    if (VAGUE.has(lower)) {
      if (reading !== undefined) vague = true
      close()
      pending = undefined
      return
    }
    if (lower === 'and' && reading !== undefined && !viaAnd) {
      viaAnd = true
      return
    }
    if (lower === 'times' && reading !== undefined && !viaAnd) {
      const at = closed()
      pending = at === undefined ? undefined : { index: at, how: 'times' }
      return
    }
    // "threescore years and ten" (70), "ninety years old and nine" (99): a round number of
    // years, then the units after "and".
    if (lower === 'years' && reading !== undefined && !viaAnd && (reading.last === 'tens' || reading.last === 'score') && !reading.unit) {
      const at = closed()
      pending = at === undefined ? undefined : { index: at, how: 'plus' }
      return
    }
    if (pending?.how === 'plus' && (lower === 'old' || lower === 'and')) return
    let word = numberWord(token)
    if (word === undefined && (lower === 'a' || lower === 'an')) {
      const next = tokens[index + 1]
      const following = next === undefined ? undefined : numberWord(next[0])
      // "an hundred", "a thousand", "an hundredfold": the article is the "one" multiplied.
      if (following !== undefined && AFTER_ARTICLE.has(following.kind)) word = { kind: 'unit', value: 1, ends: false }
    }
    if (word === undefined) {
      // "thirty years and ten days" are two numbers: only a last "and ten" completes the years.
      if (left?.how === 'plus') left = undefined
      close()
      pending = undefined
      return
    }
    if (reading === undefined || !joins(reading, word, viaAnd)) {
      close()
      reading = { start: match.index, end: match.index, total: 0, group: 0, unit: false, teen: false, tens: false, last: word.kind }
      left = pending
      pending = undefined
    }
    apply(reading, word)
    reading.end = match.index + token.length
    viaAnd = false
    if (word.ends) {
      // "the sixth hour": an ordinal right before "hour" is a time of day.
      const next = tokens[index + 1]
      const ordinal = word.kind === 'unit' || word.kind === 'teen'
      close(ordinal && next !== undefined && /^hours?$/iu.test(next[0]) && /^\s+$/u.test(text.slice(match.index + token.length, next.index)))
    }
  })
  close()
  return { numbers, combined }
}

/** Numbers below this are not required: "one", "first", "two", "second", "twain" and "both" are too often idiom. */
export const MIN_REQUIRED_NUMBER = 3

/**
 * The numbers of a KJV verse (from {@link MIN_REQUIRED_NUMBER} up) that a rendering does
 * not give in any form: figures or words, cardinal or ordinal. Numbers that combine
 * ("seventy times seven", "threescore years and ten") are kept by giving both or the one
 * they make (490, 70). Each number is listed once, with the KJV's words.
 * @example missingNumbers('threescore and ten years', 'seventy years') // []
 */
export function missingNumbers(kjvText: string, text: string): NumberPhrase[] {
  const kjv = readNumbers(kjvText)
  const present = new Set(readNumbers(text).numbers.map((n) => n.value))
  const kept = new Set<number>()
  for (const { parts, value } of kjv.combined) if (present.has(value)) kept.add(parts[0]).add(parts[1])
  const missing: NumberPhrase[] = []
  const listed = new Set<number>()
  kjv.numbers.forEach((number, index) => {
    if (number.value < MIN_REQUIRED_NUMBER || kept.has(index) || listed.has(number.value)) return
    if ([number.value, ...(number.alternatives ?? [])].some((value) => present.has(value))) return
    listed.add(number.value)
    missing.push(number)
  })
  return missing
}
