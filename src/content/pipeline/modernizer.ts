/**
 * A deterministic, rule-based modernizer of King James English. It keeps each verse's
 * structure (word order, punctuation, names, "LORD") and changes only what a modern reader
 * would stumble on: the old pronouns, the -eth/-est verb endings and their inverted
 * questions, and a fixed set of archaic words. No rule looks at anything but the verse, so
 * the same input always gives the same output, and a modernized text is left unchanged by
 * a second pass.
 *
 * Decisions that shape the output (the tests hold them):
 * - thee/thou/ye become "you"; thy becomes "your"; thine becomes "your" before a word and
 *   "yours" when it stands alone ("the kingdom is thine"); mine becomes "my" only where the
 *   KJV used it for "my" before a vowel or h ("mine eyes"), so "it is mine" keeps "mine".
 * - A verb inverted with thou/ye keeps the question: "art thou" is "are you", "knowest
 *   thou not" is "do you not know", "sawest thou" is "did you see", "What think ye" is
 *   "What do you think". An imperative drops the pronoun ("Go thou" is "Go") and one with
 *   "not" takes "do" ("Fear thou not", "Fear not" at the start of a sentence: "Do not fear").
 * - wherefore is "why" where it asks (a question, or an inverted verb follows) and
 *   "therefore" where it concludes, as at the start of Paul's "Wherefore, my beloved".
 * - -eth verbs take the modern -s/-es with English spelling rules and an irregular table;
 *   second-person -est verbs lose the ending (thou knowest: you know; thou sawest: you saw).
 * - No hybrids (modernizer.hybrids.ts): the KJV's "thou be" is "you are", "VERB I thee" takes
 *   modern order, a mid-sentence "yea" is "indeed" or "even", never "yes".
 * - The broad list of db/content/EDITORIAL.md section 10 is met too: behold is "look" (the
 *   interjection) or "see" (the verb), "it came to pass" is dropped or "it happened",
 *   thereof is "of it", brethren "brothers", begat "fathered", and the words whose meaning
 *   changed (meat, corn, conversation; suffer, let, prevent, hardly where the old sense is
 *   certain) take today's word for that sense.
 */
import { isEstVerb, isEthVerb, tokenizeWords, type WordContext } from '../../text/archaic.js'
import { CLAUSE_WORDS } from '../../text/clause-words.js'
import { rewriteOldSenses } from './modernizer.senses.js'

// ---------------------------------------------------------------------------------------
// Morphology: from an -eth/-est/-ed stem back to the plain verb, and on to its -s form.
// ---------------------------------------------------------------------------------------

const VOWELS = 'aeiou'

/** Stems whose base form the general rules would get wrong. */
const STEM_EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  // "oweth" is owe, though "showeth" is show; "persuadeth" keeps the e of persuade.
  ['ow', 'owe'],
  ['persuad', 'persuade'],
  ['dissuad', 'dissuade'],
  ['creat', 'create'],
  // Unstressed endings that the silent-e rule would wrongly lengthen.
  ['murmur', 'murmur'],
  ['blossom', 'blossom'],
  // haste, waste, taste and chaste, unlike cast, last and fast.
  ['hast', 'haste'],
  ['wast', 'waste'],
  ['tast', 'taste'],
  ['chast', 'chaste'],
])

/** Stems in -ng whose verb ends in -nge (changeth, avengeth); bringeth and singeth do not. */
const NGE_STEMS: ReadonlySet<string> = new Set([
  'chang',
  'exchang',
  'aveng',
  'reveng',
  'challeng',
  'arrang',
  'rang',
  'estrang',
  'plung',
  'expung',
  'cring',
  'fring',
  'hing',
  'imping',
  'infring',
  'spong',
  'lung',
  'derang',
])

/** Stems in -th whose verb ends in -the (breatheth, loatheth). */
const THE_STEMS: ReadonlySet<string> = new Set(['breath', 'loath', 'loth', 'cloth', 'bath', 'sooth', 'sheath', 'wreath', 'seeth', 'teeth'])

/** Doubled letters the verb itself ends in: "addeth" is add, but "runneth" is run. */
const KEEP_DOUBLE: ReadonlySet<string> = new Set(['add', 'err', 'ebb', 'egg', 'odd', 'purr', 'butt'])

/** British -ll- stems whose verb ends in one l (excelleth: excel; travelleth: travel). */
const SINGLE_L: ReadonlySet<string> = new Set([
  'excell',
  'travell',
  'compell',
  'rebell',
  'disannull',
  'expell',
  'repell',
  'propell',
  'impell',
  'dispell',
  'counsell',
  'cancell',
  'labell',
  'modell',
  'quarrell',
  'marvell',
  'annull',
  'fulfill',
  'distill',
  'instill',
  'extoll',
  'enroll',
  'revell',
  'level',
])

/** Multi-syllable stems in -it/-et/-on/-er whose verb still ends in a silent e. */
const MULTI_E_STEMS: ReadonlySet<string> = new Set([
  'invit',
  'unit',
  'excit',
  'recit',
  'requit',
  'ignit',
  'incit',
  'expedit',
  'backbit',
  'complet',
  'compet',
  'delet',
  'secret',
  'deplet',
  'excret',
  'aton',
  'condon',
  'postpon',
  'dethron',
  'enthron',
  'inton',
  'rever',
  'persever',
  'interfer',
  'adher',
  'coher',
])

/** Final two letters after which a multi-syllable stem's verb ends in a silent e. */
const MULTI_E_ENDINGS: ReadonlySet<string> = new Set([
  'ak',
  'ok',
  'uk',
  'ik',
  'id',
  'ud',
  'ad',
  'od',
  'ed',
  'ir',
  'ur',
  'ar',
  'or',
  'ut',
  'ot',
  'um',
  'am',
  'em',
  'im',
  'ap',
  'at',
  'in',
  'an',
  'un',
  'ul',
  'il',
  'al',
  'ol',
  'ib',
  'ub',
  'ob',
])

/** Counts the vowel groups of a stem; the u of qu/gu before a vowel is a consonant. */
function syllables(stem: string): number {
  const plain = stem.replace(/([qg])u(?=[aeiouy])/g, '$1').replace(/^y/, '')
  return (plain.match(/[aeiouy]+/g) ?? []).length
}

function isVowel(ch: string | undefined): boolean {
  return ch !== undefined && VOWELS.includes(ch)
}

/**
 * The plain verb behind a stem left by removing -eth, -est or -ed: "lov" is love, "runn"
 * is run, "cri" is cry, "se" is see. English keeps a silent e where the KJV did not double
 * the consonant, which is what most of these rules test.
 */
export function baseFromStem(stem: string): string {
  const known = STEM_EXCEPTIONS.get(stem)
  if (known !== undefined) return known
  const last = stem.charAt(stem.length - 1)
  const before = stem.charAt(stem.length - 2)
  if (last === 'i') return stem.length <= 2 ? `${stem}e` : `${stem.slice(0, -1)}y`
  if (last === 'e' || last === 'u') return `${stem}e`
  if (last === 'o' || last === 'y' || last === 'w' || last === 'x') return stem
  if (last === before && !isVowel(last)) {
    if (last === 's' || last === 'f' || last === 'z') return stem
    if (last === 'l') return SINGLE_L.has(stem) ? stem.slice(0, -1) : stem
    return KEEP_DOUBLE.has(stem) ? stem : stem.slice(0, -1)
  }
  if (last === 's' || last === 'z' || last === 'v' || last === 'c') return `${stem}e`
  if (stem.endsWith('dg')) return `${stem}e`
  if (stem.endsWith('th')) return THE_STEMS.has(stem) ? `${stem}e` : stem
  if (last === 'g') {
    if (before === 'n') return NGE_STEMS.has(stem) ? `${stem}e` : stem
    return `${stem}e`
  }
  if (last === 'l' && 'bcdfgkptz'.includes(before)) return `${stem}e`
  if (!isVowel(before)) return stem
  // One vowel and one consonant at the end: "mak", "rul", "open", "visit".
  const vowelRun = stem.slice(0, -1).match(/[aeiou]+$/)?.[0] ?? ''
  const quOrGu = /[qg]u[aeiou]$/.test(stem.slice(0, -1))
  if (vowelRun.length > 1 && !quOrGu) return stem
  if (MULTI_E_STEMS.has(stem)) return `${stem}e`
  if (syllables(stem) <= 1) return `${stem}e`
  if (stem.endsWith('com')) return `${stem}e`
  return MULTI_E_ENDINGS.has(stem.slice(-2)) ? `${stem}e` : stem
}

/** Third-person forms that do not follow the -s/-es spelling rules. */
const THIRD_PERSON_IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['have', 'has'],
  ['be', 'is'],
  ['do', 'does'],
  ['go', 'goes'],
  ['undo', 'undoes'],
])

/** The modern third-person singular of a plain verb: teach: teaches, cry: cries, see: sees. */
export function thirdPerson(base: string): string {
  const irregular = THIRD_PERSON_IRREGULAR.get(base)
  if (irregular !== undefined) return irregular
  if (/(s|x|z|sh|ch|o)$/.test(base)) return `${base}es`
  if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ies`
  return `${base}s`
}

/** Archaic verbs whose -eth/-est forms are modernized to a different verb. */
const VERB_REPLACEMENTS: ReadonlyMap<string, string> = new Map([
  ['shew', 'show'],
  ['wot', 'know'],
  ['wott', 'know'],
  ['list', 'wish'],
  ['dure', 'endure'],
  ['lade', 'load'],
  ['lothe', 'loathe'],
  ['eschew', 'shun'],
  ['wax', 'grow'],
  ['like', 'please'],
  ['bewray', 'betray'],
  ['spake', 'spoke'],
  ['bare', 'bore'],
  ['sware', 'swore'],
  ['brake', 'broke'],
  ['shewed', 'showed'],
  ['wist', 'knew'],
  ['gat', 'got'],
  ['hie', 'hurry'],
  // Words of the broad list (EDITORIAL.md section 10) with a plain verb of the same sense.
  ['smite', 'strike'],
  ['smote', 'struck'],
  ['hearken', 'listen'],
  ['behold', 'see'],
  ['beheld', 'saw'],
])

/** -eth words that the stem rules cannot reach. */
const ETH_IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['seeth', 'sees'],
  ['foreseeth', 'foresees'],
  ['overseeth', 'oversees'],
  ['doeth', 'does'],
  ['goeth', 'goes'],
  ['undoeth', 'undoes'],
])

/** The modern -s form of a third-person -eth verb, in lower case (loveth: loves). */
export function ethToModern(word: string): string {
  const lower = word.toLowerCase()
  const irregular = ETH_IRREGULAR.get(lower)
  if (irregular !== undefined) return irregular
  const base = baseFromStem(lower.slice(0, -3))
  return thirdPerson(VERB_REPLACEMENTS.get(base) ?? base)
}

/** Second-person forms with their modern equivalent, including the auxiliaries. */
const EST_IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['art', 'are'],
  ['hast', 'have'],
  ['dost', 'do'],
  ['doest', 'do'],
  ['didst', 'did'],
  ['diddest', 'did'],
  ['wilt', 'will'],
  ['shalt', 'shall'],
  ['canst', 'can'],
  ['wast', 'were'],
  ['wert', 'were'],
  ['hadst', 'had'],
  ['mayest', 'may'],
  ['mayst', 'may'],
  ['mightest', 'might'],
  ['mightst', 'might'],
  ['wouldest', 'would'],
  ['wouldst', 'would'],
  ['shouldest', 'should'],
  ['shouldst', 'should'],
  ['couldest', 'could'],
  ['couldst', 'could'],
  ['oughtest', 'ought'],
  ['needest', 'need'],
  ['saidst', 'said'],
  ['laidst', 'laid'],
  ['seest', 'see'],
  ['goest', 'go'],
  ['satest', 'sat'],
  ['layedst', 'laid'],
  ['castedst', 'cast'],
  ['buildedst', 'built'],
  ['gottest', 'got'],
  ['diggedst', 'dug'],
  ['fellest', 'fell'],
  ['spakest', 'spoke'],
  ['barest', 'bore'],
  ['swarest', 'swore'],
  ['sworest', 'swore'],
  ['brakest', 'broke'],
  ['badest', 'bade'],
  ['withheldest', 'withheld'],
  ['leftest', 'left'],
  ['rentest', 'rent'],
  ['diedst', 'died'],
  ['driedst', 'dried'],
])

/** The plain form of a second-person verb, in lower case (knowest: know, sawest: saw). */
export function estToModern(word: string): string {
  const lower = word.toLowerCase()
  const irregular = EST_IRREGULAR.get(lower)
  if (irregular !== undefined) return irregular
  if (lower.endsWith('dst')) {
    const past = lower.slice(0, -2)
    return VERB_REPLACEMENTS.get(past) ?? BROAD_REPLACEMENTS.get(past) ?? past
  }
  const base = baseFromStem(lower.slice(0, -3))
  return VERB_REPLACEMENTS.get(base) ?? base
}

/** Irregular past forms with their plain verb, for "did you see" from "sawest thou". */
const PAST_TO_BASE: ReadonlyMap<string, string> = new Map([
  ['knew', 'know'],
  ['saw', 'see'],
  ['gave', 'give'],
  ['took', 'take'],
  ['made', 'make'],
  ['came', 'come'],
  ['went', 'go'],
  ['spoke', 'speak'],
  ['spake', 'speak'],
  ['brought', 'bring'],
  ['sought', 'seek'],
  ['thought', 'think'],
  ['wrought', 'work'],
  ['heard', 'hear'],
  ['sent', 'send'],
  ['stood', 'stand'],
  ['forsook', 'forsake'],
  ['drew', 'draw'],
  ['threw', 'throw'],
  ['slew', 'slay'],
  ['smote', 'smite'],
  ['sat', 'sit'],
  ['swore', 'swear'],
  ['sware', 'swear'],
  ['bore', 'bear'],
  ['bare', 'bear'],
  ['bade', 'bid'],
  ['broke', 'break'],
  ['brake', 'break'],
  ['became', 'become'],
  ['forgave', 'forgive'],
  ['led', 'lead'],
  ['fled', 'flee'],
  ['did', 'do'],
  ['found', 'find'],
  ['left', 'leave'],
  ['withheld', 'withhold'],
  ['laid', 'lay'],
  ['fell', 'fall'],
  ['abode', 'abide'],
  ['said', 'say'],
  ['had', 'have'],
  ['ate', 'eat'],
  ['dealt', 'deal'],
  ['told', 'tell'],
  ['built', 'build'],
  ['wrote', 'write'],
  ['chose', 'choose'],
  ['understood', 'understand'],
  ['struck', 'strike'],
  ['got', 'get'],
  ['gat', 'get'],
  ['sold', 'sell'],
  ['held', 'hold'],
  ['kept', 'keep'],
  ['met', 'meet'],
  ['felt', 'feel'],
  ['fed', 'feed'],
  ['slept', 'sleep'],
  ['wept', 'weep'],
  ['ran', 'run'],
  ['rose', 'rise'],
  ['arose', 'arise'],
  ['drank', 'drink'],
  ['sang', 'sing'],
  ['began', 'begin'],
  ['shook', 'shake'],
  ['wist', 'know'],
  ['taught', 'teach'],
  ['bought', 'buy'],
  ['caught', 'catch'],
  ['fought', 'fight'],
  ['lost', 'lose'],
  ['meant', 'mean'],
  ['rode', 'ride'],
  ['hid', 'hide'],
  ['fetched', 'fetch'],
  ['were', 'be'],
  ['was', 'be'],
  ['beheld', 'behold'],
])

/** The plain verb of a past form, or undefined when the word is not a known past. */
function pastToBase(lower: string): string | undefined {
  const known = PAST_TO_BASE.get(lower)
  if (known !== undefined) return known
  if (lower.length >= 5 && lower.endsWith('ed') && !lower.endsWith('eed')) {
    return baseFromStem(lower.slice(0, -2))
  }
  return undefined
}

// ---------------------------------------------------------------------------------------
// Word lists that the rules consult.
// ---------------------------------------------------------------------------------------

/** Words with one plain replacement wherever they stand. */
const WORD_REPLACEMENTS: ReadonlyMap<string, string> = new Map([
  ['thee', 'you'],
  ['thou', 'you'],
  ['ye', 'you'],
  ['thy', 'your'],
  ['thyself', 'yourself'],
  ['hath', 'has'],
  ['doth', 'does'],
  ['saith', 'says'],
  ['unto', 'to'],
  ['spake', 'spoke'],
  ['shew', 'show'],
  ['shewed', 'showed'],
  ['shewn', 'shown'],
  ['shewing', 'showing'],
  ['shews', 'shows'],
  ['shewbread', 'showbread'],
  ['wist', 'knew'],
  ['wot', 'know'],
  ['ere', 'before'],
  ['whither', 'where'],
  ['whithersoever', 'wherever'],
  ['hither', 'here'],
  ['thither', 'there'],
  ['verily', 'truly'],
  ['alway', 'always'],
  ['sware', 'swore'],
  ['digged', 'dug'],
  ['durst', 'dared'],
  ['holpen', 'helped'],
  ['peradventure', 'perhaps'],
  ['wroth', 'angry'],
  ['twain', 'two'],
  ['athirst', 'thirsty'],
  ['privily', 'secretly'],
  ['quoth', 'said'],
  ['brake', 'broke'],
  ['hungred', 'hungry'],
  ['astonied', 'astonished'],
  ['eschew', 'shun'],
  ['yea', 'yes'],
  ['nay', 'no'],
  ['howbeit', 'however'],
  ['gat', 'got'],
  ['waxed', 'grew'],
  ['waxen', 'grown'],
  ['builded', 'built'],
  ['drave', 'drove'],
  ['trode', 'trod'],
  ['forgat', 'forgot'],
  ['lien', 'lain'],
  ['agone', 'ago'],
  ['holden', 'held'],
])

/**
 * The words of the broad list (EDITORIAL.md section 10) that have one plain modern form
 * wherever they stand. They are kept apart from WORD_REPLACEMENTS because several are verbs
 * (smite, hearken) that the inversion rules must still see as verbs ("Hearken ye": "Listen").
 * "meat", "corn" and "conversation" changed their meaning since 1611 (food, grain, conduct);
 * the KJV never uses them in today's sense, so the replacement is safe everywhere.
 */
const BROAD_REPLACEMENTS: ReadonlyMap<string, string> = new Map([
  ['brethren', 'brothers'],
  ['begat', 'fathered'],
  ['thereof', 'of it'],
  ['therein', 'in it'],
  ['thereon', 'on it'],
  ['thereto', 'to it'],
  ['thereunto', 'to it'],
  ['therewith', 'with it'],
  ['thereby', 'by it'],
  ['henceforth', 'from now on'],
  ['thenceforth', 'from then on'],
  ['hitherto', 'until now'],
  ['whosoever', 'whoever'],
  ['whatsoever', 'whatever'],
  ['whomsoever', 'whomever'],
  ['wheresoever', 'wherever'],
  ['whensoever', 'whenever'],
  ['smote', 'struck'],
  ['smite', 'strike'],
  ['smiting', 'striking'],
  ['smitten', 'struck'],
  ['hearken', 'listen'],
  ['hearkened', 'listened'],
  ['hearkening', 'listening'],
  ['beheld', 'saw'],
  ['raiment', 'clothing'],
  ['kine', 'cows'],
  ['victuals', 'food'],
  ['betwixt', 'between'],
  ['whilst', 'while'],
  ['afore', 'before'],
  ['aforetime', 'formerly'],
  ['anon', 'at once'],
  ['amongst', 'among'],
  ['sith', 'since'],
  ['trow', 'think'],
  ['froward', 'perverse'],
  ['haply', 'perhaps'],
  ['albeit', 'although'],
  ['bewray', 'betray'],
  ['shapen', 'formed'],
  ['wherewithal', 'with what'],
  ['meat', 'food'],
  ['meats', 'foods'],
  ['corn', 'grain'],
  ['conversation', 'conduct'],
])

/** "whereof", "wherein"...: the preposition they hold, before "which" or, in a question, "what". */
const WHERE_PREPOSITIONS: ReadonlyMap<string, string> = new Map([
  ['whereof', 'of'],
  ['wherein', 'in'],
  ['whereon', 'on'],
  ['whereunto', 'to'],
  ['wherewith', 'with'],
  ['whereby', 'by'],
  ['whereupon', 'on'],
])

/** Plain auxiliaries that keep their place before "you" in a question ("have ye": "have you"). */
const PLAIN_AUXILIARIES: ReadonlySet<string> = new Set([
  'are',
  'were',
  'have',
  'had',
  'shall',
  'will',
  'can',
  'could',
  'would',
  'should',
  'may',
  'might',
  'must',
  'did',
  'ought',
  'is',
  'was',
  'am',
  'need',
  'dare',
  'does',
])

/** Verbs ending in -ing, which participles (seeing, hearing) are not. */
const ING_VERBS: ReadonlySet<string> = new Set(['sing', 'bring', 'ring', 'spring', 'sting', 'swing', 'cling', 'fling', 'wring', 'sling', 'string'])

/** Verbs ending in -ly, which other -ly words (surely, only) are not. */
const LY_VERBS: ReadonlySet<string> = new Set(['fly', 'reply', 'apply', 'rely', 'supply', 'multiply', 'comply', 'ally'])

/** Words that are never the verb of an imperative or of an inverted question. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  'and',
  'but',
  'or',
  'nor',
  'for',
  'that',
  'which',
  'who',
  'whom',
  'whose',
  'what',
  'when',
  'where',
  'whither',
  'whence',
  'why',
  'how',
  'wherefore',
  'wherein',
  'whereof',
  'whereby',
  'wherewith',
  'whereon',
  'whereunto',
  'whereupon',
  'whereas',
  'whereto',
  'if',
  'as',
  'than',
  'though',
  'although',
  'because',
  'lest',
  'until',
  'till',
  'since',
  'while',
  'whiles',
  'whilst',
  'unless',
  'except',
  'whether',
  'so',
  'then',
  'now',
  'yet',
  'therefore',
  'also',
  'even',
  'only',
  'not',
  'surely',
  'verily',
  'moreover',
  'notwithstanding',
  'nevertheless',
  'howbeit',
  'thus',
  'there',
  'here',
  'hitherto',
  'henceforth',
  'afterward',
  'afterwards',
  'before',
  'after',
  'both',
  'all',
  'this',
  'these',
  'those',
  'the',
  'a',
  'an',
  'o',
  'oh',
  'lo',
  'whatsoever',
  'whosoever',
  'whomsoever',
  'whithersoever',
  'wheresoever',
  'whensoever',
  'soever',
  'otherwise',
  'ere',
  'again',
  'once',
  'thee',
  'me',
  'him',
  'her',
  'it',
  'them',
  'us',
  'you',
  'thou',
  'ye',
  'i',
  'he',
  'she',
  'we',
  'they',
  'thereof',
  'herein',
  'hereby',
  'hereafter',
  'peradventure',
  'doubtless',
  'contrariwise',
  'straightway',
  'indeed',
  'truly',
  'likewise',
  'almost',
  'many',
  'few',
  'more',
  'much',
  'in',
  'on',
  'at',
  'by',
  'to',
  'unto',
  'with',
  'from',
  'of',
  'into',
  'upon',
  'against',
  'among',
  'through',
  'within',
  'without',
  'sith',
  'haply',
  'else',
  'neither',
  'either',
  'no',
  'yea',
  'nay',
  'ever',
  'never',
  'well',
  'my',
  'your',
  'his',
  'its',
  'our',
  'their',
  'thy',
  'thine',
  'mine',
  'every',
  'each',
  'some',
  'any',
  'such',
  'same',
  'other',
  'own',
  'very',
  'too',
  'up',
  'down',
  'out',
  'away',
  'forth',
  'hence',
  'thence',
  'hither',
  'thither',
  'yourselves',
  'themselves',
  'thyself',
  'yourself',
  'past',
  'amen',
  'selah',
  'alas',
  'woe',
  'ho',
  'lord',
  'god',
  // the modern words the rules write, so that a second pass leaves them alone
  'however',
  'perhaps',
  'wherever',
  'yes',
  'angry',
  'two',
  'thirsty',
  'secretly',
  'hungry',
  'astonished',
  'toward',
  'whoever',
  'whatever',
  'whomever',
  'whenever',
  'between',
  'among',
  'formerly',
  'indeed',
  'since',
  'while',
])

/** Words after which "wherefore", "whom", "what"... open an inverted question. */
const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'what',
  'why',
  'whom',
  'who',
  'how',
  'where',
  'whither',
  'whence',
  'wherefore',
  'which',
  'when',
  'wherewith',
  'whereby',
  'whereto',
  'whereunto',
  'whose',
])

/**
 * Conjunctions and adverbs after which a verb still starts its clause ("and go thou"), and
 * the verbs that open a chain of commands ("Arise, go thou", "come up thou").
 */
const CLAUSE_OPENERS: ReadonlySet<string> = new Set([
  'and',
  'but',
  'or',
  'nor',
  'then',
  'now',
  'therefore',
  'wherefore',
  'so',
  'yet',
  'only',
  'also',
  'neither',
  'rather',
  'even',
  'thus',
  'o',
  'lest',
  'go',
  'come',
  'arise',
  'up',
])

/** Words after which a verb with thou/ye is still an imperative ("therefore pray ye"). */
const IMPERATIVE_OPENERS: ReadonlySet<string> = new Set([
  'therefore',
  'then',
  'now',
  'also',
  'so',
  'thus',
  'likewise',
  'again',
  'rather',
  'first',
  'and',
  'but',
  'or',
  'morrow',
  'both',
  'nevertheless',
])

/** Words before a noun: "the day thou eatest", "in sorrow thou shalt", "seven days thou". */
const NOUN_MARKERS: ReadonlySet<string> = new Set([
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
  'mine',
  'this',
  'that',
  'these',
  'those',
  'every',
  'each',
  'all',
  'no',
  'any',
  'some',
  'many',
  'few',
  'other',
  'whose',
  'of',
  'in',
  'on',
  'at',
  'by',
  'to',
  'unto',
  'with',
  'from',
  'into',
  'upon',
  'for',
  'against',
  'among',
  'through',
  'after',
  'before',
  'under',
  'over',
  'about',
  'without',
  'within',
  'i',
  'we',
  'they',
  'he',
  'she',
  'it',
  'ye',
  'thou',
  'you',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'hundred',
  'thousand',
  'first',
  'second',
  'third',
  'clean',
  'unclean',
  'same',
  'such',
  'what',
  'which',
])

/** Objects put before an imperative for emphasis ("those deliver thou"). */
const FRONTED_OBJECTS: ReadonlySet<string> = new Set(['this', 'that', 'these', 'those', 'it', 'them', 'him', 'her', 'such'])

/** Words after a predicate "thine"/"mine": "is thine, and", "thine is the kingdom". */
const POSSESSIVE_STOPS: ReadonlySet<string> = new Set([
  'and',
  'the',
  'for',
  'are',
  'with',
  'thou',
  'they',
  'is',
  'be',
  'as',
  'whom',
  'unto',
  'to',
  'thine',
  'that',
  'save',
  'of',
  'o',
  'nevertheless',
  'lest',
  'but',
  'i',
  'saith',
  'thy',
  'therefore',
  'shall',
  'or',
  'nor',
  'in',
  'both',
  'he',
  'she',
  'it',
  'we',
  'ye',
  'you',
  'was',
  'were',
  'also',
  'even',
  'forever',
  'which',
  'who',
  'when',
  'if',
  'then',
  'now',
  'so',
  'yet',
  'hath',
  'have',
  'will',
  'by',
  'from',
  'at',
  'on',
  'upon',
  'into',
  'art',
  'am',
  'all',
  'not',
  'neither',
  'after',
  'before',
  'above',
  'against',
  'among',
  'again',
  'away',
  'says',
  'said',
  'his',
  'her',
  'their',
  'my',
  'your',
  'our',
  'a',
  'an',
  'this',
  'these',
  'those',
  'eat',
  'buy',
  'according',
  'mine',
  'because',
  'except',
  'until',
])

/** h-words spoken without the h, which keep "an" (an hour, an honest man). */
const SILENT_H = /^(hour|honou?r|honest|heir|herb)/i
/** u/eu/o-words spoken with a y or w sound, which take "a" (a unicorn, such a one). */
const CONSONANT_SOUND_VOWEL = /^(uni|usu|use|usa|eu|ewe|one\b|once)/i

/** Verbs used with a reflexive "thee" that modern English drops ("Get thee up": "Get up"). */
const REFLEXIVE_VERBS: ReadonlySet<string> = new Set(['get', 'haste', 'hasten', 'flee'])
/** Directions after which "turn thee" is reflexive ("Turn thee aside"). */
const DIRECTIONS: ReadonlySet<string> = new Set(['aside', 'behind', 'back', 'eastward', 'westward', 'northward', 'southward', 'away', 'again'])

// ---------------------------------------------------------------------------------------
// A verse as words and the gaps between them.
// ---------------------------------------------------------------------------------------

/** A text as words with the text between them; gaps has one more entry than words. */
interface Sentence {
  words: string[]
  gaps: string[]
}

/** Splits a text into its words and the text between them. */
function split(text: string): Sentence {
  const tokens = tokenizeWords(text)
  const words = tokens.map((token) => token.text)
  const gaps: string[] = []
  let cursor = 0
  for (const token of tokens) {
    gaps.push(text.slice(cursor, token.start))
    cursor = token.end
  }
  gaps.push(text.slice(cursor))
  return { words, gaps }
}

/** Puts words and gaps back together; join(split(x)) === x. */
function join(sentence: Sentence): string {
  let out = sentence.gaps[0] ?? ''
  sentence.words.forEach((word, index) => {
    out += word + (sentence.gaps[index + 1] ?? '')
  })
  return out
}

/** Gives a replacement the letter case of the word it replaces (Thou: You, LORD stays). */
function matchCase(original: string, replacement: string): string {
  if (replacement.length === 0) return replacement
  if (original.length > 1 && original === original.toUpperCase() && /\p{Lu}/u.test(original)) {
    return replacement.toUpperCase()
  }
  const first = original.charAt(0)
  if (first !== first.toLowerCase()) return replacement.charAt(0).toUpperCase() + replacement.slice(1)
  return replacement
}

/** Word `index` in lower case, or undefined past either end. */
function lower(sentence: Sentence, index: number): string | undefined {
  return sentence.words[index]?.toLowerCase()
}

/** True when only spaces separate word `index` from the word before it. */
function joinedToPrevious(sentence: Sentence, index: number): boolean {
  return index > 0 && /^\s+$/.test(sentence.gaps[index] ?? '')
}

/** True when the sentence holding word `index` ends with a question mark. */
function inQuestion(sentence: Sentence, index: number): boolean {
  for (let gap = index + 1; gap < sentence.gaps.length; gap += 1) {
    const stop = /[.?!]/.exec(sentence.gaps[gap] ?? '')
    if (stop !== null) return stop[0] === '?'
  }
  return false
}

/** True when word `index` starts a clause: after punctuation, or after "and", "but"... */
function startsClause(sentence: Sentence, index: number): boolean {
  if (index === 0) return true
  if (/[,;:.?!()"“‘]/.test(sentence.gaps[index] ?? '')) return true
  const previous = lower(sentence, index - 1)
  return previous !== undefined && CLAUSE_OPENERS.has(previous) && startsClause(sentence, index - 1)
}

/** True when word `index` follows a question word: "What think ye", "How long halt ye". */
function followsQuestionWord(sentence: Sentence, index: number): boolean {
  const previous = lower(sentence, index - 1)
  if (previous === undefined || !joinedToPrevious(sentence, index)) return false
  if (QUESTION_WORDS.has(previous)) return true
  const before = lower(sentence, index - 2)
  // "How long halt ye", "What counsel give ye".
  if (before === 'how' || before === 'what' || before === 'which') return joinedToPrevious(sentence, index - 1)
  return previous === 'then' || previous === 'now' ? followsQuestionWord(sentence, index - 1) : false
}

/** True for a word that can be the plain verb of an imperative or of "What think ye". */
function isPlainVerbCandidate(word: string): boolean {
  const lowerWord = word.toLowerCase()
  if (FUNCTION_WORDS.has(lowerWord) || PLAIN_AUXILIARIES.has(lowerWord)) return false
  // "do" is never the verb of "do not VERB" twice; a 3rd-person -s form is not a plain verb.
  if (lowerWord === 'do' || (/[^s]s$/.test(lowerWord) && lowerWord.length > 3)) return false
  if (/(eth|est|dst)$/.test(lowerWord) || EST_IRREGULAR.has(lowerWord)) return false
  if (lowerWord.endsWith('ing') && !ING_VERBS.has(lowerWord)) return false
  // wist and wot are the old verbs "knew" and "know" ("wist ye not": "did you not know").
  if (WORD_REPLACEMENTS.has(lowerWord) && lowerWord !== 'wist' && lowerWord !== 'wot') return false
  if (lowerWord.endsWith('ly') && !LY_VERBS.has(lowerWord)) return false
  return /^\p{L}+$/u.test(word)
}

// ---------------------------------------------------------------------------------------
// Rules. Each takes the words of the text and changes them in place.
// ---------------------------------------------------------------------------------------

/** Replaces words from..to (inclusive) with new words joined by single spaces. */
function replaceRange(sentence: Sentence, from: number, to: number, words: string[]): void {
  const gaps = words.slice(1).map(() => ' ')
  sentence.words.splice(from, to - from + 1, ...words)
  sentence.gaps.splice(from + 1, to - from, ...gaps)
}

/** Removes word `index` together with the gap before it. */
function removeWord(sentence: Sentence, index: number): void {
  sentence.words.splice(index, 1)
  sentence.gaps.splice(index, 1)
}

/** What a pronoun after a verb ("go ye", "knowest thou") looks like around it. */
interface Inversion {
  readonly pronoun: 'thou' | 'ye'
  readonly index: number
  readonly verbIndex: number
  readonly verb: string
  /** Last word of the pattern: the pronoun, or the "not" after it. */
  readonly end: number
  readonly hasNot: boolean
  readonly question: boolean
}

/** Replaces the inversion with do-support: "do you (not) VERB" or "did you (not) VERB". */
function doSupport(sentence: Sentence, at: Inversion, plainOrPast: string): void {
  const base = pastToBase(plainOrPast)
  const doVerb = matchCase(at.verb, base === undefined ? 'do' : 'did')
  const plain = VERB_REPLACEMENTS.get(base ?? plainOrPast) ?? base ?? plainOrPast
  replaceRange(sentence, at.verbIndex, at.end, [doVerb, 'you', ...(at.hasNot ? ['not'] : []), plain])
}

/** True when the word after the pronoun is its own finite verb ("days thou shalt"). */
function pronounIsSubject(sentence: Sentence, at: Inversion): boolean {
  const next = sentence.words[at.end + 1]
  if (next === undefined || !joinedToPrevious(sentence, at.end + 1)) return false
  const nextLower = next.toLowerCase()
  if (PLAIN_AUXILIARIES.has(nextLower) || EST_IRREGULAR.has(nextLower)) return true
  return at.pronoun === 'thou' && isEstVerb({ word: next, prev: 'thou', prev2: undefined, next: lower(sentence, at.end + 2), speechStart: false })
}

/** "Awake thou that sleepest": thou with a relative clause is a vocative, not a subject. */
function isVocative(sentence: Sentence, at: Inversion): boolean {
  const relative = lower(sentence, at.end + 1)
  const verb = sentence.words[at.end + 2]
  if (at.pronoun !== 'thou' || verb === undefined) return false
  if (relative !== 'that' && relative !== 'which' && relative !== 'who') return false
  const ctx: WordContext = { word: verb, prev: relative, prev2: 'thou', next: lower(sentence, at.end + 3), speechStart: false }
  return EST_IRREGULAR.has(verb.toLowerCase()) || isEstVerb(ctx)
}

/**
 * "be thou" after a word that does not open the clause. After "blessed" or "cursed" it is a
 * wish, which modern English says with "are" ("Blessed are you of the LORD"); anywhere else
 * it is an imperative after a fronted phrase ("in malice be ye children", "notwithstanding be
 * ye sure"), which drops the pronoun like any other. Leaving "be you" would be neither.
 */
function rewriteInvertedBe(sentence: Sentence, at: Inversion, before: string | undefined): void {
  if (before === 'blessed' || before === 'cursed') {
    replaceRange(sentence, at.verbIndex, at.end, [matchCase(at.verb, 'are'), at.pronoun, ...(at.hasNot ? ['not'] : [])])
    return
  }
  // "if it be thou" asks who it is ("if it is you"); "if so be" and "may be" keep their "be".
  if (before === 'it' && !at.hasNot) {
    replaceRange(sentence, at.verbIndex, at.end, [matchCase(at.verb, 'is'), at.pronoun])
    return
  }
  if (before !== undefined && NOT_IMPERATIVE_BE.has(before)) return
  replaceRange(sentence, at.verbIndex, at.end, at.hasNot ? [matchCase(at.verb, 'do'), 'not', 'be'] : [at.verb])
}

/** Words before "be thou" that make it anything but an imperative: "if so be", "it may be". */
const NOT_IMPERATIVE_BE: ReadonlySet<string> = new Set([
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
  'to',
  'not',
  'let',
])

/** Rewrites "VERB thou/ye" where VERB is a plain verb: a question or an imperative. */
function rewritePlainVerbInversion(sentence: Sentence, at: Inversion): void {
  const verbLower = at.verb.toLowerCase()
  // "and blessed be thou, which hast kept me": the wish, before the vocative test keeps the pronoun.
  const wishedBy = lower(sentence, at.verbIndex - 1)
  if (verbLower === 'be' && !at.question && (wishedBy === 'blessed' || wishedBy === 'cursed')) {
    rewriteInvertedBe(sentence, at, wishedBy)
    return
  }
  if (!isPlainVerbCandidate(at.verb) || pronounIsSubject(sentence, at) || isVocative(sentence, at)) return
  const before = lower(sentence, at.verbIndex - 1)
  const opensClause = startsClause(sentence, at.verbIndex) || (before !== undefined && IMPERATIVE_OPENERS.has(before))
  if (at.question) {
    if (!opensClause && !followsQuestionWord(sentence, at.verbIndex)) return
    // "at what time ye hear": the word after "what" is a noun when a verb follows the pronoun.
    const afterPronoun = sentence.words[at.end + 1]
    if ((before === 'what' || before === 'which') && afterPronoun !== undefined && joinedToPrevious(sentence, at.end + 1) && isPlainVerbCandidate(afterPronoun))
      return
    // "whence be ye?" asks with the subjunctive be: "from where are you?"
    if (verbLower === 'be') replaceRange(sentence, at.verbIndex, at.end, [matchCase(at.verb, 'are'), 'you', ...(at.hasNot ? ['not'] : [])])
    else doSupport(sentence, at, verbLower)
    return
  }
  if (pastToBase(verbLower) !== undefined) return
  // "those deliver thou", "that call not thou common", "the innocent slay thou not": after a
  // fronted object the imperative only loses its pronoun, which keeps the order grammatical.
  const frontedObject = before !== undefined && FRONTED_OBJECTS.has(before) && startsClause(sentence, at.verbIndex - 1)
  if (!opensClause || frontedObject) {
    // thou with a plain verb is never indicative, so any verb that is not itself a noun
    // after an article, preposition or number is an imperative; ye may be indicative.
    const nounBefore = before === undefined || NOUN_MARKERS.has(before)
    const name = /^\p{Lu}/u.test(at.verb) && !startsClause(sentence, at.verbIndex)
    if (verbLower === 'be') {
      rewriteInvertedBe(sentence, at, before)
      return
    }
    if (frontedObject || (at.pronoun === 'thou' && !nounBefore && !name)) removeWord(sentence, at.index)
    return
  }
  if (at.hasNot) {
    replaceRange(sentence, at.verbIndex, at.end, [matchCase(at.verb, 'do'), 'not', verbLower])
  } else if (verbLower === 'see' && at.pronoun === 'thou') {
    // "See thou tell no man": the pronoun is the subject of what follows.
    replaceRange(sentence, at.verbIndex, at.index, [at.verb, 'that', 'you'])
  } else {
    removeWord(sentence, at.index)
  }
}

/**
 * Rewrites a verb inverted with thou/ye: questions keep their order with a modern
 * auxiliary ("art thou": "are you", "knowest thou": "do you know"), imperatives drop the
 * pronoun ("Go ye": "Go", "Fear thou not": "Do not fear").
 */
function rewriteInversions(sentence: Sentence): void {
  for (let index = 1; index < sentence.words.length; index += 1) {
    const pronoun = lower(sentence, index)
    if ((pronoun !== 'thou' && pronoun !== 'ye') || !joinedToPrevious(sentence, index)) continue
    const notBefore = lower(sentence, index - 1) === 'not' && joinedToPrevious(sentence, index - 1)
    const verbIndex = notBefore ? index - 2 : index - 1
    const verb = sentence.words[verbIndex]
    if (verb === undefined || verbIndex < 0) continue
    const notAfter = lower(sentence, index + 1) === 'not' && joinedToPrevious(sentence, index + 1)
    const at: Inversion = {
      pronoun,
      index,
      verbIndex,
      verb,
      end: notAfter ? index + 1 : index,
      hasNot: notBefore || notAfter,
      question: inQuestion(sentence, index),
    }
    const verbLower = verb.toLowerCase()

    // Imperatives of "do" and "be" drop the pronoun; "do ye" in a question is an auxiliary.
    if ((verbLower === 'be' || verbLower === 'do') && startsClause(sentence, verbIndex) && !(at.question && verbLower === 'do')) {
      if (!at.hasNot) removeWord(sentence, index)
      else replaceRange(sentence, verbIndex, at.end, verbLower === 'do' ? [verb, 'not'] : [matchCase(verb, 'do'), 'not', 'be'])
      continue
    }
    // Auxiliaries keep the question order: "art thou" is "are you", "art not thou" is "are you not".
    const auxiliary = EST_IRREGULAR_AUXILIARY.has(verbLower) ? EST_IRREGULAR.get(verbLower) : undefined
    if (auxiliary !== undefined || PLAIN_AUXILIARIES.has(verbLower) || verbLower === 'do') {
      const modern = matchCase(verb, auxiliary ?? verbLower)
      replaceRange(sentence, verbIndex, at.end, at.hasNot ? [modern, 'you', 'not'] : [modern, 'you'])
      continue
    }
    // A second-person verb before thou is a question or an inverted statement: "do you know".
    const estContext: WordContext = {
      word: verb,
      prev: lower(sentence, verbIndex - 1),
      prev2: lower(sentence, verbIndex - 2),
      next: 'thou',
      speechStart: startsClause(sentence, verbIndex),
    }
    if (pronoun === 'thou' && isEstVerb(estContext)) {
      doSupport(sentence, at, estToModern(verb))
      continue
    }
    rewritePlainVerbInversion(sentence, at)
  }
}

/** The second-person auxiliaries among the irregular -est forms. */
const EST_IRREGULAR_AUXILIARY: ReadonlySet<string> = new Set([
  'art',
  'hast',
  'dost',
  'didst',
  'diddest',
  'wilt',
  'shalt',
  'canst',
  'wast',
  'wert',
  'hadst',
  'mayest',
  'mayst',
  'mightest',
  'mightst',
  'wouldest',
  'wouldst',
  'shouldest',
  'shouldst',
  'couldest',
  'couldst',
  'oughtest',
  'needest',
])

/** Drops the reflexive "thee" of "Get thee up", "Turn thee aside", "Haste thee". */
function dropReflexiveThee(sentence: Sentence): void {
  for (let index = 1; index < sentence.words.length; index += 1) {
    if (lower(sentence, index) !== 'thee' || !joinedToPrevious(sentence, index)) continue
    const verb = lower(sentence, index - 1) ?? ''
    if (!startsClause(sentence, index - 1)) continue
    const next = lower(sentence, index + 1)
    const reflexive = REFLEXIVE_VERBS.has(verb) || (verb === 'turn' && next !== undefined && DIRECTIONS.has(next))
    if (!reflexive) continue
    if (verb === 'get' && next === 'hence') {
      replaceRange(sentence, index, index + 1, ['away'])
    } else if (verb === 'get' && next === 'from') {
      sentence.words[index] = 'away'
    } else {
      removeWord(sentence, index)
    }
  }
}

/** Words before "thou be" or "ye be" that make "be" the infinitive: "shalt thou be", "to be". */
const BEFORE_INFINITIVE_BE: ReadonlySet<string> = new Set([
  'shall',
  'shalt',
  'will',
  'wilt',
  'may',
  'mayest',
  'mayst',
  'might',
  'mightest',
  'can',
  'canst',
  'could',
  'couldest',
  'would',
  'wouldest',
  'should',
  'shouldest',
  'must',
  'do',
  'dost',
  'did',
  'didst',
  'to',
  'let',
  'not',
  'cannot',
  'are',
  'art',
  'were',
  'wert',
  'have',
  'hast',
  'had',
  'hadst',
  'am',
  'is',
  'you',
])

/** Adverbs that may stand between the pronoun and its "be": "If ye then be risen". */
const ADVERBS_BEFORE_BE: ReadonlySet<string> = new Set(['then', 'also', 'all', 'indeed', 'therefore', 'now', 'yet', 'both', 'altogether'])

/** Participles with which the KJV's "be" is the perfect of a verb of motion: "till ye be come". */
const PERFECT_WITH_BE: ReadonlySet<string> = new Set(['come', 'gone', 'entered', 'returned', 'departed', 'passed', 'arrived'])

/**
 * "thou be" and "ye be": the KJV's subjunctive ("if thou be the Son of God", "till ye be
 * come") and its plural "be" ("Ye be witnesses"). Modern English has "are" in both, "have"
 * before a participle of motion ("until you have come"), and says "lest thou be consumed" as
 * "so that you will not be consumed". Only "you be" would be left otherwise.
 */
function rewriteSubjunctiveBe(sentence: Sentence): void {
  for (let index = 0; index < sentence.words.length; index += 1) {
    const pronoun = lower(sentence, index)
    if (pronoun !== 'thou' && pronoun !== 'ye') continue
    const before = joinedToPrevious(sentence, index) ? lower(sentence, index - 1) : undefined
    // "a more honourable man than thou be bidden": the "be" is the man's, not the pronoun's.
    if (before !== undefined && (BEFORE_INFINITIVE_BE.has(before) || before === 'than')) continue
    let be = index + 1
    while (be < index + 3 && ADVERBS_BEFORE_BE.has(lower(sentence, be) ?? '') && joinedToPrevious(sentence, be)) be += 1
    if (lower(sentence, be) !== 'be' || !joinedToPrevious(sentence, be)) continue
    const participle = lower(sentence, be + 1)
    // "lest haply ye be found": the "haply" goes with the "lest" that it softens.
    const lest = before === 'lest' ? index - 1 : before === 'haply' && lower(sentence, index - 2) === 'lest' ? index - 2 : undefined
    // "Judge not, that ye be not judged": after a pause, "that ... be not" gives the purpose.
    const purpose = before === 'that' && lower(sentence, be + 1) === 'not' && /[,;:]/.test(sentence.gaps[index - 1] ?? '')
    if (lest !== undefined) {
      replaceRange(sentence, be, be, ['will', 'not', 'be'])
      replaceRange(sentence, lest, index - 1, [matchCase(sentence.words[lest] ?? '', 'so'), 'that'])
    } else if (purpose) {
      replaceRange(sentence, be, be + 1, ['will', 'not', 'be'])
      replaceRange(sentence, index - 1, index - 1, [matchCase(sentence.words[index - 1] ?? '', 'so'), 'that'])
    } else if (participle !== undefined && PERFECT_WITH_BE.has(participle) && joinedToPrevious(sentence, be + 1)) {
      sentence.words[be] = 'have'
    } else {
      sentence.words[be] = 'are'
    }
  }
}

/**
 * "Of the Rock that begat thee thou art unmindful": an object pronoun that ends a fronted
 * phrase runs into the subject pronoun. Once both are "you" only a comma keeps them apart.
 */
function separateFrontedObject(sentence: Sentence): void {
  for (let index = 1; index < sentence.words.length; index += 1) {
    const subject = lower(sentence, index)
    if ((subject !== 'thou' && subject !== 'ye') || !joinedToPrevious(sentence, index)) continue
    const object = lower(sentence, index - 1)
    if (object === 'thee' || object === 'you') sentence.gaps[index] = ', '
  }
}

/** Words that are never the verb of an inverted "VERB I thee". */
const NOT_INVERTED_VERBS: ReadonlySet<string> = new Set([
  ...PLAIN_AUXILIARIES,
  'am',
  'be',
  'do',
  ...CLAUSE_WORDS,
  'yea',
  'nay',
  'o',
  'oh',
  'shalt',
  'wilt',
  'hast',
  'art',
  'dost',
  'didst',
  'canst',
  'hadst',
])

/**
 * The KJV's inverted "VERB I thee" ("therefore suffered I thee not", "even so send I you",
 * "Told not I thee?"): modern order puts the subject first ("I sent you"), with "do" where
 * there is a "not" or the sentence opens with "neither" ("Neither do I tell you"), and a
 * question keeps its inversion with "did" ("Did I not tell you?").
 */
function rewriteInvertedI(sentence: Sentence): void {
  for (let index = 1; index + 1 < sentence.words.length; index += 1) {
    if (sentence.words[index] !== 'I' || !joinedToPrevious(sentence, index)) continue
    const object = lower(sentence, index + 1)
    if ((object !== 'thee' && object !== 'you') || !joinedToPrevious(sentence, index + 1)) continue
    const notBefore = lower(sentence, index - 1) === 'not' && joinedToPrevious(sentence, index - 1)
    const verbIndex = notBefore ? index - 2 : index - 1
    const verb = sentence.words[verbIndex]
    if (verb === undefined || verbIndex < 0 || NOT_INVERTED_VERBS.has(verb.toLowerCase())) continue
    if (!isPlainVerbCandidate(verb) && pastToBase(verb.toLowerCase()) === undefined) continue
    const notAfter = lower(sentence, index + 2) === 'not' && joinedToPrevious(sentence, index + 2)
    const hasNot = notBefore || notAfter
    const end = notAfter ? index + 2 : index + 1
    const verbLower = verb.toLowerCase()
    const base = pastToBase(verbLower)
    const doVerb = base === undefined ? 'do' : 'did'
    const plain = base ?? verbLower
    const opener = lower(sentence, verbIndex - 1)
    const pronoun = sentence.words[index + 1] ?? 'thee'
    let words: string[]
    if (inQuestion(sentence, index)) words = [doVerb, 'I', ...(hasNot ? ['not'] : []), plain, pronoun]
    else if (opener === 'neither' || opener === 'nor') words = [doVerb, 'I', ...(hasNot ? ['not'] : []), plain, pronoun]
    else if (hasNot) words = ['I', doVerb, 'not', plain, pronoun]
    else words = ['I', verbLower, pronoun]
    // The first word takes the capital the verb had at the start of a sentence; "I" keeps its own.
    words[0] = words[0] === 'I' ? 'I' : matchCase(verb, words[0] ?? '')
    replaceRange(sentence, verbIndex, end, words)
  }
}

/**
 * "yea" inside a sentence is not an answer but "indeed" or "even": "a son also of her: yea, I
 * will bless her", "once, yea twice", "yea, though I walk". As "yes" it would read as a reply
 * in the middle of a statement. The noun ("let your yea be yea") follows a word without
 * punctuation and stays "yes"; the answer that opens a speech ("Yea, Lord") is left to the
 * word rules.
 */
function rewriteMidSentenceYea(sentence: Sentence): void {
  for (let index = 0; index < sentence.words.length; index += 1) {
    const word = sentence.words[index] ?? ''
    if (word.toLowerCase() !== 'yea') continue
    const next = lower(sentence, index + 1)
    const nextGap = sentence.gaps[index + 1] ?? ''
    if (next === 'rather') {
      // "yea rather" is "more than that", whether it opens the sentence or not.
      replaceRange(sentence, index, index + 1, [matchCase(word, 'more'), 'than', 'that'])
      continue
    }
    if (next === 'though' && /^,\s+$/.test(nextGap)) {
      replaceRange(sentence, index, index + 1, [matchCase(word, 'even'), 'though'])
      continue
    }
    // "Yea, yea; Nay, nay": the doubled answer is the noun, as in "let your yea be yea".
    const previous = lower(sentence, index - 1)
    if (previous === 'yea' || previous === 'nay') continue
    const midSentence = word === 'yea' && (index === 0 || /[,;:?!(]/.test(sentence.gaps[index] ?? ''))
    if (!midSentence) continue
    if (next === 'and' && /^,\s+$/.test(nextGap) && /^\s+$/.test(sentence.gaps[index + 2] ?? '')) {
      replaceRange(sentence, index, index + 1, ['and', 'indeed'])
    } else if (next !== undefined && joinedToPrevious(sentence, index + 1)) {
      sentence.words[index] = 'even'
    } else {
      sentence.words[index] = 'indeed'
    }
  }
}

/**
 * "Fear not" at the start of a sentence or quotation is the imperative "Do not fear". A
 * capital after a comma marks the start of what is said; a lower-case verb counts only
 * after a colon, semicolon or full stop, since after a comma it may share an earlier subject.
 */
function rewriteImperativeNot(sentence: Sentence): void {
  for (let index = 0; index + 1 < sentence.words.length; index += 1) {
    const verb = sentence.words[index] ?? ''
    const capitalStart = /^\p{Lu}\p{Ll}+$/u.test(verb) && startsClause(sentence, index)
    // The KJV often goes on in lower case after a colon or semicolon: "be not dismayed".
    const lowerStart = /^\p{Ll}+$/u.test(verb) && /[.?!;:]/.test(sentence.gaps[index] ?? '')
    if (!capitalStart && !lowerStart) continue
    let notIndex = index + 1
    const object = lower(sentence, notIndex)
    if (object !== undefined && ['me', 'us', 'him', 'her', 'them', 'it', 'thee'].includes(object)) notIndex += 1
    if (lower(sentence, notIndex) !== 'not' || !joinedToPrevious(sentence, notIndex)) continue
    if (notIndex > index + 1 && !joinedToPrevious(sentence, index + 1)) continue
    if (!isPlainVerbCandidate(verb) || pastToBase(verb.toLowerCase()) !== undefined) continue
    if (inQuestion(sentence, index)) continue
    const objectWords = sentence.words.slice(index + 1, notIndex)
    replaceRange(sentence, index, notIndex, [matchCase(verb, 'do'), 'not', verb.toLowerCase(), ...objectWords])
  }
}

// ---------------------------------------------------------------------------------------
// Rules for the broad list of EDITORIAL.md section 10: old words and phrases that are not
// second-person grammar but still read as 1611.
// ---------------------------------------------------------------------------------------

/** Removes words from..to and the gap after each, keeping the gap before `from`. */
function removeRange(sentence: Sentence, from: number, to: number): void {
  sentence.words.splice(from, to - from + 1)
  sentence.gaps.splice(from + 1, to - from + 1)
}

/** True when a sentence ends in the gap before word `index` (or the text starts there). */
function startsSentence(sentence: Sentence, index: number): boolean {
  return index === 0 || /[.?!]/.test(sentence.gaps[index] ?? '')
}

/** Words after which "it came to pass" still opens its clause ("And it came to pass"). */
const PASS_OPENERS: ReadonlySet<string> = new Set(['and', 'now', 'but', 'so', 'for', 'then'])

/**
 * "it came to pass" is the KJV's narrative marker; modern English drops it. "And it came to
 * pass, that he went" is "And he went"; "And it came to pass, when he heard, that he rose"
 * is "And when he heard, he rose" (the "that" which resumed the main clause goes too).
 * Where it is a real verb ("before it came to pass I showed it you") it is "it happened".
 */
function rewriteCameToPass(sentence: Sentence): void {
  for (let index = 0; index + 2 < sentence.words.length; index += 1) {
    const it = lower(sentence, index)
    if ((it !== 'it' && it !== 'came') || lower(sentence, index + 1) === 'it') continue
    const start = it === 'it' ? index : index
    const came = it === 'it' ? index + 1 : index
    if (lower(sentence, came) !== 'came' || lower(sentence, came + 1) !== 'to' || lower(sentence, came + 2) !== 'pass') continue
    if (!joinedToPrevious(sentence, came + 1) || !joinedToPrevious(sentence, came + 2) || (came > start && !joinedToPrevious(sentence, came))) continue
    const end = came + 2
    const before = joinedToPrevious(sentence, start) ? lower(sentence, start - 1) : undefined
    const opens = it === 'it' && (startsClause(sentence, start) || (before !== undefined && PASS_OPENERS.has(before)))
    const afterGap = sentence.gaps[end + 1] ?? ''
    const nextWord = lower(sentence, end + 1)
    if (!opens || nextWord === undefined || /[.?!;:]/.test(afterGap)) {
      replaceRange(sentence, start, end, it === 'it' ? [matchCase(sentence.words[start] ?? '', 'it'), 'happened'] : ['happened'])
      continue
    }
    const capital = startsSentence(sentence, start) && /^\p{Lu}/u.test(sentence.words[start] ?? '')
    if (nextWord === 'that') {
      removeRange(sentence, start, end + 1)
    } else {
      removeRange(sentence, start, end)
      // The "that" after the fronted clause resumes the main one: ", that he rose" is ", he rose".
      for (let j = start + 1; j < sentence.words.length; j += 1) {
        if (/[.?!;:]/.test(sentence.gaps[j] ?? '')) break
        if (lower(sentence, j) === 'that' && /^,\s+$/.test(sentence.gaps[j] ?? '')) {
          sentence.words.splice(j, 1)
          sentence.gaps.splice(j + 1, 1)
          break
        }
      }
    }
    if (capital && sentence.words[start] !== undefined) sentence.words[start] = matchCase('A', sentence.words[start] ?? '')
    // The comma that followed the marker would now follow "And": "And, when" reads "And when".
    if (start > 0 && /^,\s+$/.test(sentence.gaps[start] ?? '') && before !== undefined) sentence.gaps[start] = ' '
  }
}

/** Words after which "behold" is the interjection rather than a verb ("and behold", "for, behold"). */
const BEHOLD_OPENERS: ReadonlySet<string> = new Set([
  'and',
  'but',
  'for',
  'now',
  'therefore',
  'then',
  'so',
  'lo',
  'o',
  'yet',
  'even',
  'also',
  'again',
  'yes',
  'indeed',
])

/** Words after which an opening "behold" asks to see something: "See what manner of love", "and see who". */
const SEE_BEFORE: ReadonlySet<string> = new Set(['who', 'whom', 'whose', 'what', 'which', 'whether', 'if', 'from', 'with', 'in', 'at', 'on', 'upon', 'how'])

/** Objects after which an opening "behold" is still the verb: "Behold it", "and behold them". */
const BEHOLD_OBJECTS: ReadonlySet<string> = new Set(['it', 'him', 'her', 'them', 'me', 'us', 'thee', 'you', 'this', 'these', 'those', 'that'])

/**
 * "behold" and "lo": the interjection is "look" ("Behold, I send": "Look, I send"; "and lo
 * the star": "and look, the star"), the verb is "see" ("ye shall behold": "you shall see").
 * An opening "behold" before its object is the verb too ("Behold him": "See him").
 */
function rewriteBehold(sentence: Sentence): void {
  for (let index = 0; index < sentence.words.length; index += 1) {
    const word = sentence.words[index] ?? ''
    const lowerWord = word.toLowerCase()
    if (lowerWord !== 'behold' && lowerWord !== 'lo') continue
    const before = lower(sentence, index - 1)
    const opens = startsClause(sentence, index) || (before !== undefined && BEHOLD_OPENERS.has(before) && joinedToPrevious(sentence, index))
    if (lowerWord === 'behold' && !opens) {
      sentence.words[index] = matchCase(word, 'see')
      continue
    }
    const next = lower(sentence, index + 1)
    const nextJoined = next !== undefined && joinedToPrevious(sentence, index + 1)
    if (lowerWord === 'behold' && nextJoined && (BEHOLD_OBJECTS.has(next) || SEE_BEFORE.has(next))) {
      sentence.words[index] = matchCase(word, 'see')
      continue
    }
    sentence.words[index] = matchCase(word, 'look')
    // "Behold the Lamb of God" reads "Look, the Lamb of God"; "behold now" and "lo, how" keep their order.
    if (nextJoined && next !== 'now' && next !== 'how' && next !== 'what' && next !== 'here' && next !== 'there') sentence.gaps[index + 1] = ', '
  }
}

/** Words after "suffer" that show it means "undergo" ("suffer for", "suffer many things"). */
const SUFFER_UNDERGO: ReadonlySet<string> = new Set([
  'for',
  'with',
  'of',
  'as',
  'in',
  'according',
  'many',
  'much',
  'loss',
  'wrong',
  'being',
  'since',
  'before',
  'like',
  'these',
  'such',
  'so',
  'long',
  'violence',
  'affliction',
  'persecution',
  'need',
  'hunger',
  'thirst',
  'shame',
  'reproach',
  'trouble',
  'adversity',
  'tribulation',
  'punishment',
])

/** The "allow" forms of the "suffer" forms that the modern text holds. */
const SUFFER_ALLOW: ReadonlyMap<string, string> = new Map([
  ['suffer', 'allow'],
  ['suffered', 'allowed'],
  ['suffers', 'allows'],
  ['suffering', 'allowing'],
])

/**
 * "suffer" meant "allow" where a "to" or "that" clause follows its object within the clause
 * ("suffer the little children to come", "suffer me that I may feel", "was suffered to
 * dwell"); elsewhere it is today's "suffer" ("suffer many things", "suffer for his sake").
 * Runs on the modernized words, after -eth became -s.
 */
function rewriteSuffer(sentence: Sentence): void {
  for (let index = 0; index < sentence.words.length; index += 1) {
    const word = sentence.words[index] ?? ''
    const allow = SUFFER_ALLOW.get(word.toLowerCase())
    if (allow === undefined) continue
    const next = lower(sentence, index + 1)
    if (next === undefined || !joinedToPrevious(sentence, index + 1) || SUFFER_UNDERGO.has(next)) continue
    let permits = false
    for (let j = index + 1; j <= index + 6 && j < sentence.words.length; j += 1) {
      if (!joinedToPrevious(sentence, j)) break
      const w = lower(sentence, j)
      if (w === 'to' || (w === 'that' && j <= index + 2)) {
        permits = w === 'that' || (lower(sentence, j + 1) !== undefined && !NOUN_MARKERS.has(lower(sentence, j + 1) ?? ''))
        break
      }
    }
    if (permits) sentence.words[index] = matchCase(word, allow)
  }
}

/**
 * The old senses of "let" (hinder), "prevent" (come before, meet) and "hardly" (with
 * difficulty), each only in the patterns where the old sense is certain: "he who now letteth
 * will let" and "was let hitherto"; "prevent" everywhere except "shall not prevent them" (go
 * before); "dealt hardly" (harshly) and "hardly bestead" (hard-pressed).
 */
function rewriteChangedMeanings(sentence: Sentence): void {
  for (let index = 0; index < sentence.words.length; index += 1) {
    const word = sentence.words[index] ?? ''
    const lowerWord = word.toLowerCase()
    const next = lower(sentence, index + 1)
    const nextJoined = next !== undefined && joinedToPrevious(sentence, index + 1)
    const before = joinedToPrevious(sentence, index) ? lower(sentence, index - 1) : undefined
    const endsClause = !nextJoined
    if (lowerWord === 'letteth' && (endsClause || next === 'will' || next === 'shall')) {
      sentence.words[index] = matchCase(word, 'restrains')
    } else if (lowerWord === 'let' && before !== undefined && ['will', 'shall', 'was'].includes(before) && endsClause) {
      sentence.words[index] = matchCase(word, before === 'was' ? 'hindered' : 'restrain')
    } else if (lowerWord === 'let' && before === 'was' && next === 'hitherto') {
      sentence.words[index] = matchCase(word, 'hindered')
    } else if (lowerWord === 'let' && before === 'shall' && next === 'it' && /^\?/.test(sentence.gaps[index + 2] ?? '')) {
      sentence.words[index] = matchCase(word, 'hinder')
    } else if (/^prevent(ed|est|eth|s)?$/.test(lowerWord)) {
      const precede = before === 'not'
      const past = lowerWord.endsWith('ed')
      const third = lowerWord.endsWith('eth') || lowerWord.endsWith('s')
      const verb = precede ? (past ? 'preceded' : third ? 'precedes' : 'precede') : past ? 'met' : third ? 'meets' : 'meet'
      sentence.words[index] = matchCase(word, verb)
    } else if (lowerWord === 'hardly') {
      if (before === 'dealt') sentence.words[index] = matchCase(word, 'harshly')
      else if (next === 'bestead') replaceRange(sentence, index, index + 1, [matchCase(word, 'hard-pressed')])
      else sentence.words[index] = matchCase(word, 'with difficulty')
    }
  }
}

/** Verbs after which "wherein" asks indirectly: "Tell me wherein thy strength lieth". */
const INDIRECT_QUESTION_VERBS: ReadonlySet<string> = new Set([
  'tell',
  'know',
  'knew',
  'show',
  'shew',
  'declare',
  'ask',
  'consider',
  'see',
  'teach',
  'understand',
  'perceive',
  'learn',
  'inquire',
  'enquire',
  'wot',
  'wist',
  'prove',
])

/** Words skipped when looking back for that verb: its object and "I pray thee". */
const INDIRECT_OBJECTS: ReadonlySet<string> = new Set(['me', 'us', 'him', 'them', 'i', 'pray', 'you', 'thee', 'now'])

/**
 * Whether "whereof", "wherein"... asks ("In what have we robbed thee?", "tell me wherein")
 * rather than relates ("the tree, whereof I commanded thee", "the place whereon thou
 * standest"). A capital opens the question; a verb of telling or knowing before it makes
 * an indirect one, and a second one after "and" asks like the first.
 */
function whereAsks(sentence: Sentence, index: number): boolean {
  const word = sentence.words[index] ?? ''
  if (/^\p{Lu}/u.test(word) && inQuestion(sentence, index)) return true
  let back = index - 1
  while (back >= 0 && INDIRECT_OBJECTS.has(lower(sentence, back) ?? '')) back -= 1
  if (back >= 0 && INDIRECT_QUESTION_VERBS.has(lower(sentence, back) ?? '')) return true
  if (lower(sentence, index - 1) !== 'and') return false
  for (let earlier = index - 2; earlier >= 0 && !/[.?!;:]/.test(sentence.gaps[earlier + 1] ?? ''); earlier -= 1) {
    if (WHERE_PREPOSITIONS.has(lower(sentence, earlier) ?? '')) return whereAsks(sentence, earlier)
  }
  return false
}

/** "wherefore" asks ("why") before an inverted verb or in a question, else concludes. */
function whereforeMeaning(sentence: Sentence, index: number): string {
  if (inQuestion(sentence, index)) return 'why'
  let next = index + 1
  while (lower(sentence, next) === 'then' || lower(sentence, next) === 'now') next += 1
  const word = lower(sentence, next)
  if (word === undefined || !joinedToPrevious(sentence, next)) return 'therefore'
  if (PLAIN_AUXILIARIES.has(word) || EST_IRREGULAR_AUXILIARY.has(word) || word === 'do' || word === 'doth' || word === 'hath' || /(eth|est)$/.test(word)) {
    return 'why'
  }
  const after = lower(sentence, next + 1)
  const inverted = (after === 'thou' || after === 'ye' || after === 'you') && isPlainVerbCandidate(word)
  return inverted ? 'why' : 'therefore'
}

/** The context of word `index` as the shared detector sees it. */
function contextOf(sentence: Sentence, index: number): WordContext {
  const word = sentence.words[index] ?? ''
  return {
    word,
    prev: lower(sentence, index - 1),
    prev2: lower(sentence, index - 2),
    next: lower(sentence, index + 1),
    speechStart: index === 0 || /[.?!:;,(“"‘]/.test(sentence.gaps[index] ?? ''),
  }
}

/** Modernizes one word in its context, or returns it unchanged. */
function modernizeWord(sentence: Sentence, index: number): string {
  const word = sentence.words[index] ?? ''
  const lowerWord = word.toLowerCase()
  const next = lower(sentence, index + 1)
  const nextJoined = next !== undefined && joinedToPrevious(sentence, index + 1)
  const prev = lower(sentence, index - 1)

  switch (lowerWord) {
    case 'thine': {
      const own = nextJoined && !POSSESSIVE_STOPS.has(next)
      return matchCase(word, own ? 'your' : 'yours')
    }
    case 'mine': {
      const my = nextJoined && /^[aeiouh]/.test(next) && !POSSESSIVE_STOPS.has(next)
      return my ? matchCase(word, 'my') : word
    }
    case 'an': {
      const following = sentence.words[index + 1] ?? ''
      if (!nextJoined) return word
      const hWord = /^h/i.test(following) && !SILENT_H.test(following)
      return hWord || CONSONANT_SOUND_VOWEL.test(following) ? matchCase(word, 'a') : word
    }
    case 'art': {
      const gap = sentence.gaps[index] ?? ''
      const noun = /['’]/.test(gap) || ['the', 'by', 'of', 'an', 'his', 'her', 'their', 'thy', 'my', 'your', 'our', 'its'].includes(prev ?? '')
      return noun ? word : matchCase(word, 'are')
    }
    case 'ware':
      // The adjective of "be thou ware" and "they were ware of it"; "all manner of ware" is the noun.
      return prev !== undefined && ['be', 'were', 'was', 'is', 'are', 'am', 'been'].includes(prev) ? matchCase(word, 'aware') : word
    case 'wherefore':
      return matchCase(word, whereforeMeaning(sentence, index))
    case 'whereby':
      // "whereby shall I know...?" asks how; elsewhere it is the means, "by which".
      if (inQuestion(sentence, index) && nextJoined && (PLAIN_AUXILIARIES.has(next) || next === 'shall')) return matchCase(word, 'how')
      return matchCase(word, whereAsks(sentence, index) ? 'by what' : 'by which')
    case 'whereupon':
      // A question asks "on what"; opening a statement it is "then" ("Whereupon the king took counsel").
      if (whereAsks(sentence, index)) return matchCase(word, 'on what')
      return matchCase(word, index === 0 ? 'then' : 'on which')
    case 'whereof':
    case 'wherein':
    case 'whereon':
    case 'whereunto':
    case 'wherewith': {
      return matchCase(word, `${WHERE_PREPOSITIONS.get(lowerWord) ?? ''} ${whereAsks(sentence, index) ? 'what' : 'which'}`)
    }
    case 'clave':
      // cleave is both "cling" (clave to the LORD) and "split" (clave the wood).
      if (next === 'asunder') return matchCase(word, 'split')
      return matchCase(word, next === 'to' || next === 'unto' || next === 'fast' ? 'clung' : 'split')
    case 'asunder':
      return prev === 'clave' || prev === 'split' ? 'apart' : word
    case 'yonder':
      // "on yonder side", "to yonder place": a demonstrative; "go yonder": a place.
      return matchCase(
        word,
        prev !== undefined && nextJoined && ['on', 'to', 'unto', 'in', 'at', 'from', 'upon', 'of', 'beyond'].includes(prev) ? 'that' : 'over there',
      )
    case 'whence':
      return matchCase(word, prev === 'from' ? 'where' : 'from where')
    case 'thence':
      return matchCase(word, prev === 'from' ? 'there' : 'from there')
    default:
      break
  }
  const plain = WORD_REPLACEMENTS.get(lowerWord) ?? BROAD_REPLACEMENTS.get(lowerWord)
  if (plain !== undefined) return matchCase(word, plain)
  const possessive = /^(\p{L}+)(['’])s$/u.exec(word)
  const owner = possessive === null ? undefined : BROAD_REPLACEMENTS.get(possessive[1]?.toLowerCase() ?? '')
  if (possessive !== null && owner !== undefined) {
    // "his brethren's heart" is "his brothers' heart".
    return matchCase(word, owner.endsWith('s') ? `${owner}${possessive[2] ?? "'"}` : `${owner}${possessive[2] ?? "'"}s`)
  }
  if (lowerWord.includes('-') && /^\p{Ll}/u.test(word)) {
    // A lower-case compound ("thee-ward" without its "to") may hide an archaic part.
    return word
      .split('-')
      .map((part) => matchCase(part, WORD_REPLACEMENTS.get(part.toLowerCase()) ?? part))
      .join('-')
  }
  const ctx = contextOf(sentence, index)
  // The second-person auxiliaries are verbs wherever they stand (art is decided above).
  if (EST_IRREGULAR_AUXILIARY.has(lowerWord) || isEstVerb(ctx)) return matchCase(word, estToModern(word))
  if (isEthVerb(ctx)) return matchCase(word, ethToModern(word))
  return word
}

/** Applies `rule` to a fresh split of `text` and joins the result. */
function pass(text: string, rule: (sentence: Sentence) => void): string {
  const sentence = split(text)
  rule(sentence)
  return join(sentence)
}

/**
 * Turns one KJV verse into modern English, keeping its structure, punctuation and names.
 * Deterministic and idempotent: modernize(modernize(x)) === modernize(x).
 * @example modernize('And he said unto them, Go ye into all the world.') // 'And he said to them, Go into all the world.'
 */
export function modernize(kjv: string): string {
  // "to thee-ward" and "to God-ward" are the old split form of "toward".
  let text = kjv.replace(/\b([Tt])o (\p{L}+)-ward\b/gu, '$1oward $2')
  text = text.replace(/\b([Aa])n hungred\b/g, (_match, a: string) => (a === 'A' ? 'Hungry' : 'hungry'))
  // "went no whither" is the old "went nowhere".
  text = text.replace(/\b([Nn])o whither\b/g, '$1owhere')
  // Phrases of the broad list with one modern form (the Holy Spirit of today's translations).
  text = text.replace(/\bHoly Ghost\b/g, 'Holy Spirit')
  text = text.replace(/\b(gave|give|giveth|giving|given|yielded|yield) up the ghost\b/gi, '$1 up the spirit')
  text = text.replace(/\bthe quick and the dead\b/g, 'the living and the dead')
  // "Our Father which art in heaven": the KJV's "which" of a person addressed is "who".
  text = text.replace(/\b([Ww])hich art\b/g, (_m, w: string) => `${w === 'W' ? 'W' : 'w'}ho art`)
  text = text.replace(
    /\b([Ff])orasmuch( then| therefore| now)? as\b/g,
    (_m, f: string, then: string | undefined) => `${f === 'F' ? 'S' : 's'}ince${then ?? ''}`,
  )
  text = text.replace(/\b([Ii])nsomuch (that|as)\b/g, (_m, i: string) => (i === 'I' ? 'So that' : 'so that'))
  // "meat" is food in the KJV: the "meat offering" is the grain offering, "at meat" at the table.
  text = text.replace(/\b([Mm])eat offering/g, (_m, m: string) => (m === 'M' ? 'Grain offering' : 'grain offering'))
  text = text.replace(/\bat meat\b/g, 'at the table')
  text = text.replace(/\b(sat|sit|sitteth|sitting) down to meat\b/g, '$1 down to eat')
  text = pass(text, dropReflexiveThee)
  text = pass(text, separateFrontedObject)
  text = pass(text, rewriteInvertedI)
  text = pass(text, rewriteInversions)
  text = pass(text, rewriteSubjunctiveBe)
  text = pass(text, rewriteMidSentenceYea)
  text = pass(text, rewriteImperativeNot)
  text = pass(text, rewriteCameToPass)
  text = pass(text, rewriteBehold)
  text = pass(text, rewriteChangedMeanings)
  text = pass(text, (sentence) => {
    sentence.words = sentence.words.map((_word, index) => modernizeWord(sentence, index))
  })
  text = pass(text, rewriteSuffer)
  // Word order a modern reader expects: "Then saith he to them" is "Then he says to them" (not
  // "These things says he that..." where "he that" is the subject), "see thou do it not" is
  // "see that you do not do it".
  text = text.replace(/\b([Tt]hen|after that) says (he|she)\b(?! that\b| which\b| who\b)/g, '$1 $2 says')
  text = text.replace(/\bdo it not\b/g, 'do not do it')
  return rewriteOldSenses(text)
}
