/**
 * The archaic-form detector shared by the modernizer's quality report and by the validation
 * of AI-written "faithful" texts. Both must agree on what "archaic" means, so the definition
 * lives here once and both callers use {@link findArchaicForms}.
 *
 * What counts as an archaic form (case-insensitive, whole words):
 * - the pronouns thee, thou, thy, thine, thyself and ye;
 * - the old verb forms hath, hast, doth, dost, saith, shalt, wilt, wast, wert, canst, didst,
 *   hadst and the modal -est/-st forms (mayest, mightest, wouldest, couldest, shouldest...);
 * - "art" as the second-person verb (thou art, art thou, which art) but never the noun;
 * - third-person -eth verbs (goeth, loveth) and second-person -est/-edst verbs (knowest,
 *   sawest, lovedst), but not the ordinary words that merely end in those letters: names
 *   (Seth, Nazareth, Elisabeth), teeth, ordinals (twentieth), nouns and verbs such as forest,
 *   priest, request or manifest, and superlatives such as greatest or dearest;
 * - the archaic words unto, spake, shew (and its forms), wist, wot, ere, whither and wherefore.
 *
 * Deliberately not counted by {@link findArchaicForms}: words that modern readers still meet
 * in current English or that have no single plain replacement (hither, thither, hence,
 * thence, whence, lo, behold, yea, nay, verily, thereof). The modernizer still rewrites
 * several of them where a clean modern form exists, and its quality report keeps measuring
 * against this narrow definition.
 *
 * What we write ourselves is held to more: {@link findBroadArchaicForms} is the full list of
 * section 10 of db/content/EDITORIAL.md (the narrow forms, those words, the old phrases and
 * "mine" before a noun), which every content gate applies.
 */

/** A word of a text with where it sits, as the detector and the modernizer see it. */
export interface WordToken {
  /** The word as written, including internal apostrophes and hyphens (LORD'S, Beth-el). */
  readonly text: string
  readonly start: number
  readonly end: number
}

// Letters include æ (Judæa, Cæsar); apostrophes and hyphens join the parts of one word so
// that a hyphenated place name (Beth-azmaveth, Ish-bosheth) is judged as the name it is.
const WORD = /\p{L}+(?:['’-]\p{L}+)*/gu

/** Splits a text into its words with their offsets; punctuation and spaces are skipped. */
export function tokenizeWords(text: string): WordToken[] {
  const tokens: WordToken[] = []
  for (const match of text.matchAll(WORD)) {
    const start = match.index
    tokens.push({ text: match[0], start, end: start + match[0].length })
  }
  return tokens
}

/**
 * The words that are archaic wherever they stand. The -st/-est verb forms listed here are
 * also caught by the general -est rule; they are listed so that the detector does not
 * depend on that rule's exceptions for the commonest forms.
 */
export const ARCHAIC_WORDS: ReadonlySet<string> = new Set([
  // pronouns
  'thee',
  'thou',
  'thy',
  'thine',
  'thyself',
  'ye',
  // verb forms
  'hath',
  'hast',
  'doth',
  'dost',
  'saith',
  'shalt',
  'wilt',
  'wast',
  'wert',
  'canst',
  'didst',
  'hadst',
  'saidst',
  'couldest',
  'couldst',
  'wouldest',
  'wouldst',
  'shouldest',
  'shouldst',
  'mayest',
  'mayst',
  'mightest',
  'mightst',
  'oughtest',
  'needest',
  // archaic words named by the product issue
  'unto',
  'spake',
  'shew',
  'shewed',
  'shewn',
  'shewing',
  'shews',
  'shewbread',
  'wist',
  'wot',
  'ere',
  'whither',
  'whithersoever',
  'wherefore',
])

/** Lower-case words ending in -eth that are not verbs: names, teeth and ordinals. */
const NON_VERB_ETH: ReadonlySet<string> = new Set([
  'teeth',
  'twentieth',
  'thirtieth',
  'fortieth',
  'fiftieth',
  'sixtieth',
  'seventieth',
  'eightieth',
  'ninetieth',
  // proper names of the KJV and of today, including the second halves of hyphenated names
  'beth',
  'seth',
  'sheth',
  'heth',
  'meth',
  'nazareth',
  'mephibosheth',
  'japheth',
  'elisabeth',
  'elizabeth',
  'azmaveth',
  'chinnereth',
  'harosheth',
  'ashtoreth',
  'alemeth',
  'alameth',
  'tanhumeth',
  'sophereth',
  'pochereth',
  'peleth',
  'jetheth',
  'hazarmaveth',
  'zoheth',
  'zoheleth',
  'zereth',
  'zareth',
  'topheth',
  'tebeth',
  'sibboleth',
  'shibboleth',
  'shallecheth',
  'remeth',
  'moresheth',
  'mispereth',
  'meshullemeth',
  'jerubbesheth',
  'hareth',
  'hammoleketh',
  'dabbasheth',
  'bosheth',
  'haraseth',
  'hareseth',
  'beseth',
  'kenneth',
  'gareth',
  'macbeth',
])

/**
 * Modern words ending in -est that are never second-person verbs: nouns, ordinary verbs
 * (you request, you suggest) and adjectives. They are never flagged, whatever precedes them.
 */
const MODERN_EST: ReadonlySet<string> = new Set([
  'abreast',
  'armrest',
  'arrest',
  'attest',
  'beast',
  'behest',
  'bequest',
  'best',
  'breast',
  'chest',
  'congest',
  'conquest',
  'contest',
  'crest',
  'detest',
  'digest',
  'dishonest',
  'divest',
  'earnest',
  'east',
  'everest',
  'feast',
  'fest',
  'forest',
  'guest',
  'harvest',
  'honest',
  'immodest',
  'infest',
  'ingest',
  'inquest',
  'interest',
  'invest',
  'jest',
  'least',
  'lest',
  'manifest',
  'midwest',
  'modest',
  'molest',
  'nest',
  'northeast',
  'northwest',
  'pest',
  'priest',
  'protest',
  'quest',
  'request',
  'rest',
  'southeast',
  'southwest',
  'suggest',
  'tempest',
  'test',
  'unrest',
  'vest',
  'west',
  'wrest',
  'yeast',
  'zest',
  'disinterest',
  'highest',
  'ernest',
  'budapest',
  'bucharest',
  'incest',
])

/**
 * Superlatives: modern English, so not flagged. Those of the KJV come first; the rest are
 * common ones a modern paraphrase may use without an article ("what is dearest to him").
 */
const SUPERLATIVES: ReadonlySet<string> = new Set([
  'basest',
  'chiefest',
  'choicest',
  'eldest',
  'fairest',
  'fattest',
  'fewest',
  'finest',
  'goodliest',
  'greatest',
  'holiest',
  'hottest',
  'lowest',
  'mightiest',
  'poorest',
  'smallest',
  'straitest',
  'strongest',
  'valiantest',
  'vilest',
  'youngest',
  'biggest',
  'largest',
  'oldest',
  'newest',
  'dearest',
  'nearest',
  'clearest',
  'deepest',
  'widest',
  'longest',
  'shortest',
  'tallest',
  'weakest',
  'wisest',
  'kindest',
  'bravest',
  'brightest',
  'darkest',
  'purest',
  'truest',
  'surest',
  'fullest',
  'latest',
  'earliest',
  'easiest',
  'hardest',
  'heaviest',
  'happiest',
  'loveliest',
  'lowliest',
  'richest',
  'sweetest',
  'softest',
  'gentlest',
  'humblest',
  'meekest',
  'proudest',
  'farthest',
  'furthest',
  'loneliest',
  'steadiest',
  'starkest',
  'soonest',
  'simplest',
  'slightest',
  'quickest',
  'slowest',
  'safest',
  'noblest',
  'boldest',
  'coldest',
  'warmest',
  'loudest',
  'quietest',
  'worthiest',
  'wealthiest',
  'wickedest',
  'cruelest',
  'cruellest',
  'fiercest',
  'grandest',
  'gravest',
  'rarest',
  'ripest',
  'rudest',
  'saddest',
  'sharpest',
  'shrewdest',
  'sickest',
  'smartest',
  'stoutest',
  'strangest',
  'strictest',
  'sternest',
  'thickest',
  'thinnest',
  'tightest',
  'toughest',
  'wildest',
  'wettest',
  'driest',
  'freshest',
  'dullest',
  'cleanest',
  'cheapest',
  'costliest',
  'deadliest',
  'dirtiest',
  'emptiest',
  'fittest',
  'fondest',
  'foulest',
  'gladdest',
  'greenest',
  'harshest',
  'healthiest',
  'keenest',
  'kindliest',
  'likeliest',
  'luckiest',
  'maddest',
  'merriest',
  'mildest',
  'nicest',
  'oddest',
  'plainest',
  'prettiest',
  'readiest',
  'ruddiest',
  'scarcest',
  'shallowest',
  'silliest',
  'smoothest',
  'soundest',
  'steepest',
  'straightest',
  'subtlest',
  'tenderest',
  'tiniest',
  'ugliest',
  'weariest',
  'whitest',
  'busiest',
  'godliest',
  'haughtiest',
  'lordliest',
  'bitterest',
  'pleasantest',
  'blessedest',
  // superlative or verb by context: see AMBIGUOUS_EST
  'fastest',
  'lightest',
  'closest',
  'meanest',
  'meetest',
  'barest',
  'stillest',
  'faintest',
])

/**
 * Words that are superlatives in "the meetest of your master's sons" but verbs in "when
 * thou fastest" or "thou meetest him": the neighbouring pronoun decides.
 */
const AMBIGUOUS_EST: ReadonlySet<string> = new Set(['fastest', 'lightest', 'closest', 'meanest', 'meetest', 'barest', 'stillest', 'faintest'])

/** Words after which an -est word is a superlative or a noun ("the greatest", "his rest"). */
const DETERMINERS: ReadonlySet<string> = new Set([
  'the',
  'a',
  'an',
  'my',
  'your',
  'his',
  'her',
  'its',
  'our',
  'their',
  'thy',
  'thine',
  'these',
  'those',
  'whose',
  'most',
])

/** The subject pronouns of the second person, old and new. */
const SECOND_PERSON: ReadonlySet<string> = new Set(['thou', 'you', 'ye'])

/** Words that may stand between "thou" and its verb without changing what the verb is. */
const PRONOUN_ADVERBS: ReadonlySet<string> = new Set([
  'also',
  'only',
  'alone',
  'not',
  'even',
  'indeed',
  'thyself',
  'yourself',
  'yourselves',
  'never',
  'ever',
  'still',
  'yet',
  'surely',
  'truly',
  'then',
  'now',
  'once',
])

/** The -dst forms that are verbs; "midst" is the noun that shares the ending. */
const DST_VERBS: ReadonlySet<string> = new Set(['didst', 'hadst', 'saidst', 'couldst', 'wouldst', 'shouldst', 'laidst', 'heardst', 'diddest'])

/** What the -eth/-est rules need to know about one word and its neighbours. */
export interface WordContext {
  /** The word as written. */
  readonly word: string
  /** The previous and next words in lower case, if any. */
  readonly prev: string | undefined
  readonly next: string | undefined
  /** The word before the previous one, in lower case. */
  readonly prev2: string | undefined
  /**
   * True at the start of the text, a sentence, a clause or a quotation: where a capital
   * letter says nothing about the word being a name.
   */
  readonly speechStart: boolean
}

/** Builds the context of the word at `index` among `tokens` of `text`. */
export function contextAt(text: string, tokens: readonly WordToken[], index: number): WordContext {
  const token = tokens[index]
  if (token === undefined) throw new RangeError(`no word at ${index}`)
  const before = tokens[index - 1]
  const gap = text.slice(before === undefined ? 0 : before.end, token.start)
  return {
    word: token.text,
    prev: before?.text.toLowerCase(),
    next: tokens[index + 1]?.text.toLowerCase(),
    prev2: tokens[index - 2]?.text.toLowerCase(),
    speechStart: before === undefined || /[.?!:;,(“"‘]/.test(gap),
  }
}

/** A capital letter away from the start of a sentence or quotation marks a proper name. */
function looksLikeName(ctx: WordContext): boolean {
  const first = ctx.word.charAt(0)
  if (first === first.toLowerCase()) return false
  // Hyphenated capitalised words are place and person names (Beth-el, Ish-bosheth).
  if (/[-]/.test(ctx.word)) return true
  return !ctx.speechStart
}

/** Strips a possessive ending so that "Nazareth's" is judged as "Nazareth". */
function bare(word: string): string {
  return word.toLowerCase().replace(/['’]s$/u, '')
}

/**
 * True when the word is a third-person -eth verb (loveth, goeth, seeth). Names, teeth and
 * ordinals are excluded by list, and any capitalised -eth word inside a sentence is taken
 * to be a name, which covers names the list does not know.
 */
export function isEthVerb(ctx: WordContext): boolean {
  const lower = bare(ctx.word)
  if (lower.length < 5 || !lower.endsWith('eth')) return false
  if (NON_VERB_ETH.has(lower) || /-/.test(lower)) return false
  return !looksLikeName(ctx)
}

/** True when a second-person subject pronoun stands right before the word or after it. */
function hasSecondPersonNeighbour(ctx: WordContext): boolean {
  const prev = ctx.prev
  if (prev !== undefined && SECOND_PERSON.has(prev) && ctx.prev2 !== 'o') return true
  if (prev !== undefined && PRONOUN_ADVERBS.has(prev) && ctx.prev2 !== undefined && SECOND_PERSON.has(ctx.prev2)) return true
  return ctx.next !== undefined && SECOND_PERSON.has(ctx.next)
}

/**
 * True when the word is a second-person -est, -st or -edst verb (knowest, sawest, didst,
 * lovedst). Superlatives and -est nouns are excluded by list; a word after an article or
 * possessive is a superlative or noun; the few words that are both superlative and verb
 * (fastest, meetest) count as verbs only next to a second-person pronoun.
 */
export function isEstVerb(ctx: WordContext): boolean {
  const lower = bare(ctx.word)
  if (lower.endsWith('dst')) {
    if (!DST_VERBS.has(lower) && !lower.endsWith('edst')) return false
    return !looksLikeName(ctx)
  }
  if (lower.length < 5 || !lower.endsWith('est') || /-/.test(lower)) return false
  if (MODERN_EST.has(lower) || looksLikeName(ctx)) return false
  if (AMBIGUOUS_EST.has(lower)) return hasSecondPersonNeighbour(ctx)
  if (SUPERLATIVES.has(lower)) return false
  return ctx.prev === undefined || !DETERMINERS.has(ctx.prev)
}

/** Words that may precede "art" when it is the noun (the art, by art, apothecaries' art). */
const ART_NOUN_BEFORE: ReadonlySet<string> = new Set([...DETERMINERS, 'by', 'of', 'and', 'with', 'in', 'modern', 'fine', 'work', 'works'])

/**
 * True when "art" is the second-person verb: "thou art", "art thou", "Father which art",
 * "thou also art". Only these patterns count, because the noun is everyday English.
 */
export function isSecondPersonArt(ctx: WordContext): boolean {
  if (bare(ctx.word) !== 'art') return false
  const prev = ctx.prev
  if (prev !== undefined && ART_NOUN_BEFORE.has(prev)) return false
  if (ctx.next !== undefined && SECOND_PERSON.has(ctx.next)) return true
  if (ctx.next === 'not') return true
  if (prev === undefined) return false
  if (SECOND_PERSON.has(prev) || prev === 'which' || prev === 'who') return true
  return PRONOUN_ADVERBS.has(prev) && ctx.prev2 !== undefined && SECOND_PERSON.has(ctx.prev2)
}

/** One archaic form found in a text, with where it starts (to order forms of both kinds). */
interface ArchaicHit {
  readonly form: string
  readonly index: number
}

/**
 * The archaic words and -eth/-est/art verb forms of a text, by the word rules above, with
 * `words` as the list of words archaic wherever they stand.
 */
function wordHits(text: string, tokens: readonly WordToken[], words: ReadonlySet<string>): ArchaicHit[] {
  const hits: ArchaicHit[] = []
  tokens.forEach((token, index) => {
    const ctx = contextAt(text, tokens, index)
    const lower = bare(token.text)
    // Hyphenated lower-case compounds may hide an archaic part ("thee-ward").
    const parts = lower.includes('-') && !looksLikeName(ctx) ? lower.split('-') : [lower]
    for (const part of parts) if (words.has(part)) hits.push({ form: part, index: token.start })
    if (isSecondPersonArt(ctx) || isEthVerb(ctx) || isEstVerb(ctx)) hits.push({ form: lower, index: token.start })
  })
  return hits
}

/** The forms of hits in order of first appearance, each once. */
function uniqueForms(hits: readonly ArchaicHit[]): string[] {
  return [...new Set([...hits].sort((a, b) => a.index - b.index).map((h) => h.form))]
}

/**
 * Lists the archaic forms in a text, in lower case, each once, in order of first
 * appearance. See the file comment for the definition; an empty list means the text
 * passes the modernizer's quality bar. What we write is held to {@link findBroadArchaicForms}.
 * @example findArchaicForms('Thou knowest that he loveth the forest.') // ['thou', 'knowest', 'loveth']
 */
export function findArchaicForms(text: string): string[] {
  return uniqueForms(wordHits(text, tokenizeWords(text), ARCHAIC_WORDS))
}

/**
 * The words of section 10 of db/content/EDITORIAL.md: {@link ARCHAIC_WORDS} and the words
 * the modernizer's report lets pass, archaic wherever they stand in what we write, though a
 * reader may still meet some of them today.
 */
export const EDITORIAL_ARCHAIC_WORDS: ReadonlySet<string> = new Set([
  ...ARCHAIC_WORDS,
  'quoth',
  'trow',
  'behold',
  'beheld',
  'lo',
  'verily',
  'yea',
  'nay',
  'thereof',
  'therein',
  'thereon',
  'thereto',
  'thereunto',
  'therewith',
  'whereof',
  'wherein',
  'whereon',
  'whereunto',
  'wherewith',
  'wherewithal',
  'hither',
  'thither',
  'whence',
  'thence',
  'yonder',
  'twain',
  'aught',
  'peradventure',
  'perchance',
  'howbeit',
  'forasmuch',
  'insomuch',
  'whosoever',
  'whomsoever',
  'whatsoever',
  'wheresoever',
  'methinks',
  'sith',
  'betwixt',
  'amongst',
  'whilst',
  'anon',
  'afore',
  'aforetime',
  'smote',
  'smite',
  'smites',
  'smiting',
  'brake',
  'clave',
  'sware',
  'durst',
  'holpen',
  'wroth',
  'kine',
  'raiment',
  'victuals',
  'begat',
  'brethren',
  'hearken',
  'hearkened',
  'hearkening',
  'hearkens',
])

/**
 * Old phrases, each reported as its form. "an" before a sounded h ("an house", "an holy",
 * "an hundred") is archaic; before a silent one (an hour, an honest man, an heir, an herb,
 * an honor) it is today's English.
 */
const ARCHAIC_PHRASES: ReadonlyArray<{ readonly pattern: RegExp; readonly form: (match: string) => string }> = [
  { pattern: /\b(?:it\s+)?came\s+to\s+pass\b/giu, form: (m) => m.toLowerCase().replace(/\s+/gu, ' ') },
  { pattern: /\bholy\s+ghost\b/giu, form: () => 'holy ghost' },
  { pattern: /\b(?:gave|give|gives|giving|given|yielded)\s+up\s+the\s+ghost\b/giu, form: () => 'gave up the ghost' },
  { pattern: /\bthe\s+quick\s+and\s+the\s+dead\b/giu, form: () => 'the quick and the dead' },
  { pattern: /\ban\s+h(?!our|onest|onor|onour|eir|erb|omage)\p{L}+/giu, form: (m) => m.toLowerCase().replace(/\s+/gu, ' ') },
]

/**
 * What may follow "mine" when it is today's pronoun ("it is mine to give", "mine is the
 * kingdom", "a friend of mine who"): function words and the verbs of a subject. Any other
 * word after it makes "mine" the old possessive before a noun ("mine eyes", "mine own").
 */
const AFTER_PRONOUN_MINE: ReadonlySet<string> = new Set([
  // conjunctions and prepositions
  'and',
  'or',
  'but',
  'nor',
  'yet',
  'so',
  'for',
  'if',
  'when',
  'where',
  'while',
  'as',
  'than',
  'because',
  'since',
  'though',
  'although',
  'unless',
  'until',
  'whether',
  'like',
  'to',
  'from',
  'in',
  'into',
  'on',
  'onto',
  'at',
  'by',
  'with',
  'within',
  'without',
  'of',
  'about',
  'above',
  'after',
  'against',
  'among',
  'around',
  'before',
  'behind',
  'below',
  'beside',
  'besides',
  'between',
  'beyond',
  'despite',
  'during',
  'except',
  'over',
  'through',
  'toward',
  'towards',
  'under',
  'up',
  'upon',
  'out',
  'off',
  // pronouns and determiners that start a clause
  'who',
  'whom',
  'whose',
  'which',
  'that',
  'what',
  'this',
  'these',
  'those',
  'all',
  'both',
  'each',
  // adverbs
  'too',
  'also',
  'alone',
  'only',
  'just',
  'now',
  'then',
  'still',
  'again',
  'already',
  'always',
  'never',
  'ever',
  'forever',
  'indeed',
  'instead',
  'anyway',
  'here',
  'there',
  'not',
  'truly',
  'together',
  // verbs of "mine" as a subject
  'is',
  'was',
  'are',
  'were',
  'be',
  'been',
  'being',
  'am',
  'has',
  'had',
  'have',
  'will',
  'would',
  'shall',
  'should',
  'can',
  'could',
  'may',
  'might',
  'must',
  'does',
  'did',
  'do',
  'seems',
  'remains',
  'stays',
  'lies',
  'belongs',
  'comes',
  'goes',
  'stands',
  'became',
  'becomes',
])

/** Words before "mine" that make it the noun (a gold mine, the salt mine). */
const BEFORE_NOUN_MINE: ReadonlySet<string> = new Set(['a', 'the', 'gold', 'silver', 'copper', 'coal', 'salt', 'iron', 'diamond', 'land'])

/** "mine" used as the old possessive before a noun: "mine eyes", "Mine own". */
function possessiveMineHits(text: string, tokens: readonly WordToken[]): ArchaicHit[] {
  const hits: ArchaicHit[] = []
  tokens.forEach((token, index) => {
    if (token.text.toLowerCase() !== 'mine') return
    const next = tokens[index + 1]
    // Only the word right after it, with nothing but spaces between, can be its noun.
    if (next === undefined || !/^\s+$/u.test(text.slice(token.end, next.start))) return
    if (AFTER_PRONOUN_MINE.has(next.text.toLowerCase())) return
    const before = tokens[index - 1]
    if (before !== undefined && BEFORE_NOUN_MINE.has(before.text.toLowerCase())) return
    hits.push({ form: `mine ${next.text.toLowerCase()}`, index: token.start })
  })
  return hits
}

/**
 * Lists the archaic forms of section 10 of db/content/EDITORIAL.md in a text, in lower
 * case, each once, in order of first appearance: everything {@link findArchaicForms}
 * finds (with its -eth/-est and "art" rules), the words of {@link EDITORIAL_ARCHAIC_WORDS},
 * the phrases "it came to pass", "Holy Ghost", "gave up the ghost", "the quick and the
 * dead" and "an" before a sounded h ("an house"), and "mine" before a noun ("mine eyes").
 * @example findBroadArchaicForms('And it came to pass that mine eyes beheld him.') // ['it came to pass', 'mine eyes', 'beheld']
 */
export function findBroadArchaicForms(text: string): string[] {
  const tokens = tokenizeWords(text)
  const hits = [...wordHits(text, tokens, EDITORIAL_ARCHAIC_WORDS), ...possessiveMineHits(text, tokens)]
  for (const { pattern, form } of ARCHAIC_PHRASES) {
    for (const match of text.matchAll(pattern)) hits.push({ form: form(match[0]), index: match.index })
  }
  return uniqueForms(hits)
}
