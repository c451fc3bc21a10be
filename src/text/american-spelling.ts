/**
 * British spellings and their American forms (db/content/EDITORIAL.md section 9: "American
 * spelling for everything we write"). The KJV itself keeps its spelling; this applies to
 * the texts we write around it.
 *
 * Spellings that American English accepts as well are not listed: towards, worshipped,
 * fulfilled, burnt (offering), dialogue.
 */

/** A British spelling found in a text, with the American spelling to use instead. */
export interface BritishSpelling {
  /** The word as written. */
  readonly found: string
  /** The American spelling, in the same case as the word found. */
  readonly american: string
}

/**
 * Stems that are British wherever they appear in a word, with their American form:
 * "honour" in honours, honourable, dishonoured; "plough" in ploughshare. No American word
 * contains any of them.
 */
const STEMS: ReadonlyArray<readonly [string, string]> = [
  ...[
    'honour',
    'colour',
    'favour',
    'labour',
    'neighbour',
    'behaviour',
    'saviour',
    'rumour',
    'splendour',
    'harbour',
    'armour',
    'odour',
    'vigour',
    'valour',
    'endeavour',
    'savour',
    'succour',
    'clamour',
    'humour',
    'ardour',
    'fervour',
    'rancour',
    'tumour',
    'parlour',
    'candour',
    'demeanour',
    'flavour',
    'rigour',
    'vapour',
  ].map((w): [string, string] => [w, w.replace(/our$/u, 'or')]),
  ['plough', 'plow'],
  ['mould', 'mold'],
  ['sceptic', 'skeptic'],
  ['enquir', 'inquir'],
]

/**
 * Verbs British English may spell -ise and American English spells -ize, by the part
 * before "-ise". Only these: advise, arise, chastise, circumcise, compromise, despise,
 * exercise, praise, promise, revise, supervise, surprise and the like end in -ise in
 * American English too.
 */
const IZE_STEMS: readonly string[] = [
  'real',
  'recogn',
  'organ',
  'apolog',
  'bapt',
  'critic',
  'emphas',
  'symbol',
  'sympath',
  'empath',
  'agon',
  'summar',
  'memor',
  'civil',
  'character',
  'author',
  'harmon',
  'idol',
  'ideal',
  'legal',
  'minim',
  'maxim',
  'mobil',
  'modern',
  'neutral',
  'normal',
  'patron',
  'penal',
  'priorit',
  'public',
  'scandal',
  'special',
  'stabil',
  'standard',
  'util',
  'visual',
  'evangel',
  'proselyt',
  'energ',
  'familiar',
  'final',
  'formal',
  'general',
  'human',
  'immortal',
  'internal',
  'jeopard',
  'local',
  'material',
  'memorial',
  'moral',
  'personal',
  'polar',
  'popular',
  'rational',
  'revolution',
  'romantic',
  'sanit',
  'scrutin',
  'social',
  'spiritual',
  'stigmat',
  'subsid',
  'terror',
  'theor',
  'tyrann',
  'vandal',
  'vocal',
  'colon',
  'canon',
  'demon',
  'dramat',
  'epitom',
  'eulog',
  'fantas',
  'fertil',
  'hospital',
  'hypnot',
  'immun',
  'item',
  'lion',
  'magnet',
  'mesmer',
  'monopol',
  'capital',
  'central',
  'categor',
  'christian',
  'hellen',
  'sensit',
  'trivial',
  'catech',
  'ostrac',
  'sermon',
  'solemn',
  'fratern',
  'victim',
  'marginal',
  'legitim',
  'econom',
  'equal',
  'galvan',
  'industrial',
  'natural',
  'optim',
  'plagiar',
  'satir',
  'steril',
  'synchron',
  'tranquill',
  'urban',
  'verbal',
  'western',
  'global',
  'national',
  'philosoph',
  'allegor',
  'brutal',
  'criminal',
  'custom',
  'deput',
  'digit',
  'dogmat',
  'external',
  'homogen',
  'institutional',
  'liberal',
  'mechan',
  'militar',
  'moistur',
  'mytholog',
  'politic',
  'privat',
  'radical',
  'regular',
  'revital',
  'secular',
  'styl',
  'theolog',
  'traumat',
  'union',
  'vapor',
  'vulgar',
]

/** The endings an -ise stem takes, and their American form. */
const ISE_ENDINGS: ReadonlyArray<readonly [string, string]> = [
  ['ise', 'ize'],
  ['ises', 'izes'],
  ['ised', 'ized'],
  ['ising', 'izing'],
  ['isation', 'ization'],
  ['isations', 'izations'],
  ['iser', 'izer'],
  ['isers', 'izers'],
  ['isable', 'izable'],
]

/** Verbs in -yse (analyse), with their forms; "analyses" is also the plural of analysis. */
const YSE_STEMS: readonly string[] = ['anal', 'paral', 'catal']
const YSE_ENDINGS: ReadonlyArray<readonly [string, string]> = [
  ['yse', 'yze'],
  ['ysed', 'yzed'],
  ['ysing', 'yzing'],
]

/** Nouns in -re and their American -er, with plural and verb forms (centred, centring). */
const RE_WORDS: readonly string[] = [
  'centre',
  'theatre',
  'metre',
  'fibre',
  'sceptre',
  'sepulchre',
  'spectre',
  'sombre',
  'lustre',
  'calibre',
  'meagre',
  'mitre',
  'sabre',
  'kilometre',
  'epicentre',
]

/** Whole words, lower case: British spelling -> American. */
const WORDS: ReadonlyMap<string, string> = new Map<string, string>([
  ...RE_WORDS.flatMap((w): Array<[string, string]> => {
    const stem = w.slice(0, -2)
    return [
      [w, `${stem}er`],
      [`${w}s`, `${stem}ers`],
      [`${w}d`, `${stem}ered`],
      [`${stem}ring`, `${stem}ering`],
    ]
  }),
  ...IZE_STEMS.flatMap((stem) => ISE_ENDINGS.map(([british, american]): [string, string] => [stem + british, stem + american])),
  ...YSE_STEMS.flatMap((stem) => YSE_ENDINGS.map(([british, american]): [string, string] => [stem + british, stem + american])),
  ['defence', 'defense'],
  ['defences', 'defenses'],
  ['defenceless', 'defenseless'],
  ['offence', 'offense'],
  ['offences', 'offenses'],
  ['pretence', 'pretense'],
  ['pretences', 'pretenses'],
  ['licence', 'license'],
  ['licences', 'licenses'],
  ['judgement', 'judgment'],
  ['judgements', 'judgments'],
  ['acknowledgement', 'acknowledgment'],
  ['acknowledgements', 'acknowledgments'],
  ...[
    'travel',
    'marvel',
    'counsel',
    'quarrel',
    'cancel',
    'label',
    'model',
    'level',
    'revel',
    'signal',
    'fuel',
    'channel',
    'equal',
    'rival',
    'dial',
    'duel',
    'enamel',
    'funnel',
    'grovel',
    'kennel',
    'libel',
    'panel',
    'pencil',
    'shovel',
    'swivel',
    'tunnel',
    'towel',
    'unravel',
    'jewel',
    'total',
    'snivel',
    'chisel',
    'yodel',
    'bevel',
    'tassel',
  ].flatMap((verb): Array<[string, string]> => [
    [`${verb}led`, `${verb}ed`],
    [`${verb}ling`, `${verb}ing`],
  ]),
  ['traveller', 'traveler'],
  ['travellers', 'travelers'],
  ['marvellous', 'marvelous'],
  ['marvellously', 'marvelously'],
  ['counsellor', 'counselor'],
  ['counsellors', 'counselors'],
  ['jeweller', 'jeweler'],
  ['jewellers', 'jewelers'],
  ['jewellery', 'jewelry'],
  ['reveller', 'reveler'],
  ['revellers', 'revelers'],
  ['unrivalled', 'unrivaled'],
  ['woollen', 'woolen'],
  ['woollens', 'woolens'],
  ['grey', 'gray'],
  ['greys', 'grays'],
  ['greyer', 'grayer'],
  ['greyest', 'grayest'],
  ['greyish', 'grayish'],
  ['greying', 'graying'],
  ['greyed', 'grayed'],
  // Not 'spelt' (for spelled): in a verse note it is the grain (Exodus 9:32, Isaiah 28:25).
  ['whilst', 'while'],
  ['amongst', 'among'],
  ['learnt', 'learned'],
  ['spoilt', 'spoiled'],
  ['programme', 'program'],
  ['programmes', 'programs'],
  ['cheque', 'check'],
  ['cheques', 'checks'],
  ['gaol', 'jail'],
  ['gaols', 'jails'],
  ['gaoler', 'jailer'],
  ['storey', 'story'],
  ['storeys', 'stories'],
  ['kerb', 'curb'],
  ['kerbs', 'curbs'],
  ['fulfil', 'fulfill'],
  ['fulfils', 'fulfills'],
  ['fulfilment', 'fulfillment'],
  ['enrol', 'enroll'],
  ['enrols', 'enrolls'],
  ['enrolment', 'enrollment'],
  ['instalment', 'installment'],
  ['instalments', 'installments'],
  ['instil', 'instill'],
  ['instils', 'instills'],
  ['distil', 'distill'],
  ['distils', 'distills'],
  ['appal', 'appall'],
  ['appals', 'appalls'],
  ['skilful', 'skillful'],
  ['skilfully', 'skillfully'],
  ['wilful', 'willful'],
  ['wilfully', 'willfully'],
  ['ageing', 'aging'],
  ['practise', 'practice'],
  ['practised', 'practiced'],
  ['practises', 'practices'],
  ['practising', 'practicing'],
  ['catalogue', 'catalog'],
  ['catalogues', 'catalogs'],
  ['cosy', 'cozy'],
  ['draught', 'draft'],
  ['draughts', 'drafts'],
  ['moustache', 'mustache'],
  ['sulphur', 'sulfur'],
  ['foetus', 'fetus'],
  ['mediaeval', 'medieval'],
  ['artefact', 'artifact'],
  ['artefacts', 'artifacts'],
  ['despatch', 'dispatch'],
  ['despatched', 'dispatched'],
  ['waggon', 'wagon'],
  ['waggons', 'wagons'],
  ['manoeuvre', 'maneuver'],
  ['manoeuvres', 'maneuvers'],
  ['manoeuvred', 'maneuvered'],
  ['manoeuvring', 'maneuvering'],
  ['connexion', 'connection'],
  ['speciality', 'specialty'],
  ['focussed', 'focused'],
  ['focussing', 'focusing'],
])

/**
 * Words British only in lower case: "tyre" is a tire, but "Tyre" is the city of Phoenicia.
 */
const LOWER_CASE_WORDS: ReadonlyMap<string, string> = new Map([
  ['tyre', 'tire'],
  ['tyres', 'tires'],
])

/** Names that keep their own spelling in American English: the Church of the Holy Sepulchre. */
const NAMES = /\bHoly Sepulchre\b/gu

/** The American form in the case of the word found: "Saviour" -> "Savior", "HONOUR" -> "HONOR". */
function inCaseOf(found: string, american: string): string {
  if (found.length > 1 && found === found.toUpperCase()) return american.toUpperCase()
  if (/^\p{Lu}/u.test(found)) return american.charAt(0).toUpperCase() + american.slice(1)
  return american
}

/** The American spelling of one word, or undefined when it is not a British spelling. */
function americanOf(word: string): string | undefined {
  const lower = word.toLowerCase()
  const whole = WORDS.get(lower) ?? (word === lower ? LOWER_CASE_WORDS.get(lower) : undefined)
  if (whole !== undefined) return whole
  for (const [british, american] of STEMS) {
    if (lower.includes(british)) return lower.replace(british, american)
  }
  // Prefixed -ise forms: "unrecognised", "reorganised", "demoralising".
  for (const stem of IZE_STEMS) {
    const at = lower.indexOf(`${stem}is`)
    if (at > 0) {
      const ending = ISE_ENDINGS.find(([british]) => lower.slice(at + stem.length) === british)
      if (ending !== undefined) return lower.slice(0, at + stem.length) + ending[1]
    }
  }
  return undefined
}

/**
 * Lists the British spellings in a text, each once, in order of first appearance, with
 * the American spelling to use.
 * @example findBritishSpellings('The Saviour honoured them.') // [{ found: 'Saviour', american: 'Savior' }, { found: 'honoured', american: 'honored' }]
 */
export function findBritishSpellings(text: string): BritishSpelling[] {
  const found: BritishSpelling[] = []
  const seen = new Set<string>()
  for (const match of text.replace(NAMES, (name) => ' '.repeat(name.length)).matchAll(/\p{L}+/gu)) {
    const word = match[0]
    if (seen.has(word)) continue
    seen.add(word)
    const american = americanOf(word)
    if (american !== undefined) found.push({ found: word, american: inCaseOf(word, american) })
  }
  return found
}
