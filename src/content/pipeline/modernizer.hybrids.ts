/**
 * Finds hybrids in modernized text: places where a rule changed one word of an old
 * construction and left the rest, so that the verse reads neither as the KJV nor as modern
 * English ("if you be", "Blessed be you", "begat you you are", "suffered I you not", "yes"
 * from a mid-sentence "yea", "you art"). The archaic-form detectors cannot see these: every
 * word of "if you be able" is modern on its own, and only the pair is wrong.
 *
 * The detector looks at the output alone, so it also judges texts the modernizer did not
 * write. Each kind names one construction and is narrow on purpose: an object "you" ("with
 * you is the fountain", "he that receives you receives me") and the noun "yes" ("let your
 * yes be yes") are modern English and are not flagged.
 */
import { contextAt, isEstVerb, isEthVerb, tokenizeWords, type WordToken } from '../../text/archaic.js'
import { CLAUSE_WORDS } from '../../text/clause-words.js'

/** The kinds of hybrid the detector knows, one construction each. */
export const HYBRID_KINDS = [
  /** A subject "you" with the old subjunctive or plural "be": "if you be able", "you then be risen". */
  'you be',
  /** The old optative or inverted imperative with a modern pronoun: "Blessed be you", "be you sure". */
  'be you',
  /** Two pronouns run together where the KJV fronted an object: "that begat you you are". */
  'you you',
  /** The old inverted "VERB I thee" order with a modern pronoun: "suffered I you not", "send I you". */
  'VERB I you',
  /** "yes" in the middle of a sentence, where the KJV's "yea" means "indeed" or "even". */
  'mid-sentence yes',
  /** A modern pronoun with an old verb form: "you art", "you hast", "knowest you", "you loveth". */
  'you with an old verb',
  /** A subject "you" with a third- or first-person verb: "you is", "you has", "you am". */
  'you with a third-person verb',
  /** An old pronoun with a modern verb form: "thou are", "thou has", "thou knows". */
  'thou with a modern verb',
] as const

/** One kind of hybrid. */
export type HybridKind = (typeof HYBRID_KINDS)[number]

/** One hybrid found in a text: its kind, the words that make it, and where it starts. */
export interface Hybrid {
  readonly kind: HybridKind
  /** The words of the construction as written, e.g. "you be" or "suffered I you". */
  readonly text: string
  readonly index: number
}

/**
 * Words after which "you" is the subject of what follows: conjunctions and the openers of a
 * clause. After any other word (a preposition, a verb) "you" is an object, as in "with you
 * is" or "that seek you be confounded", and the verb after it has another subject.
 */
const SUBJECT_OPENERS: ReadonlySet<string> = new Set([
  'and',
  'but',
  'or',
  'nor',
  'if',
  'when',
  'whenever',
  'that',
  'lest',
  'though',
  'although',
  'whether',
  'until',
  'till',
  'while',
  'whilst',
  'because',
  'except',
  'unless',
  'as',
  'where',
  'wherever',
  'since',
  'so',
  'therefore',
  'then',
  'now',
  'yet',
  'truly',
  'indeed',
  'surely',
  'haply',
  'perhaps',
  'all',
  'both',
  'even',
  'also',
  'how',
  'why',
  'what',
  'who',
  'whom',
  'which',
])

/** Words that may stand between a subject "you" and its "be": "if you then be risen". */
const ADVERBS_BEFORE_BE: ReadonlySet<string> = new Set(['then', 'also', 'all', 'indeed', 'therefore', 'now', 'yet', 'both', 'altogether'])

/**
 * Words before "be you" that make it modern: "it may be you", "if so be you", "if it be
 * you", "to be you" and the modals.
 */
const BEFORE_MODERN_BE_YOU: ReadonlySet<string> = new Set([
  'it',
  'so',
  'may',
  'might',
  'there',
  'would',
  'could',
  'should',
  'will',
  'shall',
  'must',
  'can',
  'cannot',
  'to',
  'not',
  'let',
])

/**
 * Words that may stand before "I" without inverting it: auxiliaries ("have not I chosen
 * you", "am I"), conjunctions and pronouns ("that I you", never a verb).
 */
const NOT_INVERTED_BEFORE_I: ReadonlySet<string> = new Set([
  'have',
  'had',
  'has',
  'am',
  'was',
  'were',
  'is',
  'are',
  'be',
  'shall',
  'will',
  'should',
  'would',
  'may',
  'might',
  'can',
  'could',
  'must',
  'do',
  'did',
  'does',
  ...CLAUSE_WORDS,
  'yes',
  'no',
  'o',
  'oh',
])

/** Old second-person verb forms that are not caught by the -est rule. */
const OLD_SECOND_PERSON: ReadonlySet<string> = new Set(['art', 'hast', 'wast', 'wert', 'dost', 'shalt', 'wilt', 'canst', 'didst', 'hadst', 'hath', 'doth'])

/** Third- and first-person forms that a subject "you" never takes. */
const NOT_SECOND_PERSON: ReadonlySet<string> = new Set(['is', 'was', 'has', 'does', 'am', 'says'])

/** The subject pronouns that follow their verb in an inversion ("you has he quickened"). */
const SUBJECT_PRONOUNS: ReadonlySet<string> = new Set(['i', 'he', 'she', 'it', 'we', 'they'])

/** Modern forms that "thou" never takes in the KJV (it has art, hast, wilt, knowest). */
const MODERN_FOR_THOU: ReadonlySet<string> = new Set(['are', 'have', 'has', 'do', 'does', 'will', 'shall', 'can', 'is', 'was', 'am', 'knows', 'says'])

/** A text as the detector reads it: its words and whether spaces alone join them. */
class Words {
  readonly tokens: WordToken[]

  constructor(readonly text: string) {
    this.tokens = tokenizeWords(text)
  }

  /** Word `index` in lower case, or undefined past either end. */
  lower(index: number): string | undefined {
    return this.tokens[index]?.text.toLowerCase()
  }

  /** What stands between word `index` and the word before it (the text before the first word). */
  gap(index: number): string {
    const token = this.tokens[index]
    if (token === undefined) return ''
    return this.text.slice(this.tokens[index - 1]?.end ?? 0, token.start)
  }

  /** True when only spaces separate word `index` from the word before it. */
  joined(index: number): boolean {
    return index > 0 && /^\s+$/u.test(this.gap(index))
  }

  /** The text from the start of word `from` to the end of word `to`. */
  span(from: number, to: number): string {
    return this.text.slice(this.tokens[from]?.start ?? 0, this.tokens[to]?.end ?? 0)
  }

  /** True when word `index` is "you" as the subject of what follows it. */
  subjectYou(index: number): boolean {
    if (this.lower(index) !== 'you') return false
    if (index === 0 || !this.joined(index)) return true
    const before = this.lower(index - 1)
    return before !== undefined && SUBJECT_OPENERS.has(before)
  }
}

/** "you be" with "you" as subject, allowing "then" or "also" between ("if you then be"). */
function youBe(words: Words, index: number): Hybrid | undefined {
  if (!words.subjectYou(index)) return undefined
  let next = index + 1
  while (ADVERBS_BEFORE_BE.has(words.lower(next) ?? '') && words.joined(next) && next < index + 3) next += 1
  if (words.lower(next) !== 'be' || !words.joined(next)) return undefined
  return { kind: 'you be', text: words.span(index, next), index: words.tokens[index]?.start ?? 0 }
}

/** "be you" as the old optative or an inverted imperative; "it may be you" is modern. */
function beYou(words: Words, index: number): Hybrid | undefined {
  if (words.lower(index) !== 'be' || words.lower(index + 1) !== 'you' || !words.joined(index + 1)) return undefined
  const before = words.lower(index - 1)
  if (before !== undefined && words.joined(index) && BEFORE_MODERN_BE_YOU.has(before)) return undefined
  return { kind: 'be you', text: words.span(index, index + 1), index: words.tokens[index]?.start ?? 0 }
}

/** "VERB I you" or "VERB not I you": the old inverted order around a modern pronoun. */
function invertedIYou(words: Words, index: number): Hybrid | undefined {
  if (words.tokens[index]?.text !== 'I' || words.lower(index + 1) !== 'you' || !words.joined(index + 1) || !words.joined(index)) return undefined
  const notBefore = words.lower(index - 1) === 'not' && words.joined(index - 1)
  const verbIndex = notBefore ? index - 2 : index - 1
  const verb = words.lower(verbIndex)
  if (verb === undefined || NOT_INVERTED_BEFORE_I.has(verb)) return undefined
  return { kind: 'VERB I you', text: words.span(verbIndex, index + 1), index: words.tokens[verbIndex]?.start ?? 0 }
}

/** A lower-case "yes" after punctuation: the "yea" of "a son also of her: yea, I will bless her". */
function midSentenceYes(words: Words, index: number): Hybrid | undefined {
  if (words.tokens[index]?.text !== 'yes') return undefined
  if (index > 0 && !/[,;:?!(]/u.test(words.gap(index))) return undefined
  // "Yes, yes; No, no": the doubled answer is one word said twice.
  const before = words.lower(index - 1)
  if (before === 'yes' || before === 'no') return undefined
  return { kind: 'mid-sentence yes', text: 'yes', index: words.tokens[index]?.start ?? 0 }
}

/** True when word `index` is an old verb form by the shared detector's rules. */
function oldVerb(words: Words, index: number): boolean {
  const word = words.tokens[index]?.text
  if (word === undefined) return false
  const lower = word.toLowerCase()
  if (OLD_SECOND_PERSON.has(lower)) return true
  // The real context, so that a capital at the start of a sentence is not taken for a name.
  const ctx = contextAt(words.text, words.tokens, index)
  return isEstVerb(ctx) || isEthVerb(ctx)
}

/** "you art", "you knowest", and the inverted "knowest you", "art you". */
function youWithOldVerb(words: Words, index: number): Hybrid | undefined {
  if (words.lower(index) !== 'you') return undefined
  const start = words.tokens[index]?.start ?? 0
  if (words.joined(index + 1) && oldVerb(words, index + 1)) {
    return { kind: 'you with an old verb', text: words.span(index, index + 1), index: start }
  }
  if (words.joined(index) && oldVerb(words, index - 1)) {
    return { kind: 'you with an old verb', text: words.span(index - 1, index), index: words.tokens[index - 1]?.start ?? 0 }
  }
  return undefined
}

/** A subject "you" with is, was, has, does, am or says. */
function youWithThirdPerson(words: Words, index: number): Hybrid | undefined {
  if (!words.subjectYou(index) || !words.joined(index + 1) || !NOT_SECOND_PERSON.has(words.lower(index + 1) ?? '')) return undefined
  // "And you has he quickened": a fronted object, with the subject after its verb.
  if (SUBJECT_PRONOUNS.has(words.lower(index + 2) ?? '')) return undefined
  return { kind: 'you with a third-person verb', text: words.span(index, index + 1), index: words.tokens[index]?.start ?? 0 }
}

/** "thou" with a modern verb form before or after it. */
function thouWithModernVerb(words: Words, index: number): Hybrid | undefined {
  if (words.lower(index) !== 'thou') return undefined
  const start = words.tokens[index]?.start ?? 0
  if (words.joined(index + 1) && MODERN_FOR_THOU.has(words.lower(index + 1) ?? '')) {
    return { kind: 'thou with a modern verb', text: words.span(index, index + 1), index: start }
  }
  return undefined
}

/** The rules, each tried at every word. */
const RULES: ReadonlyArray<(words: Words, index: number) => Hybrid | undefined> = [
  youBe,
  beYou,
  invertedIYou,
  midSentenceYes,
  youWithOldVerb,
  youWithThirdPerson,
  thouWithModernVerb,
]

/**
 * Lists the hybrids of a text in order of appearance. An empty list means no construction
 * mixes old and modern English by the rules above (see the file comment for the kinds).
 * @example findHybrids('Of the Rock that begat you you are unmindful') // [{ kind: 'you you', text: 'you you', index: 23 }]
 */
export function findHybrids(text: string): Hybrid[] {
  const words = new Words(text)
  const hits: Hybrid[] = []
  words.tokens.forEach((token, index) => {
    if (token.text.toLowerCase() === 'you' && words.lower(index + 1) === 'you' && words.joined(index + 1)) {
      hits.push({ kind: 'you you', text: words.span(index, index + 1), index: token.start })
    }
    for (const rule of RULES) {
      const hit = rule(words, index)
      if (hit !== undefined) hits.push(hit)
    }
  })
  return hits.sort((a, b) => a.index - b.index)
}
