/**
 * The last pass of the modernizer: words a modern reader knows in another sense or spelling
 * ("she bare a son", "they were sore afraid", "go down quick into the pit", "Charity suffereth
 * long", "to day"). Each rule is written for the patterns where the old sense is certain in
 * the KJV; the modern senses ("naked and bare", "a sore", "quick understanding") are left.
 * It runs on modern text, so its outputs never match its own patterns (idempotent).
 */

/** The replacement in the case of the word it replaces ("Charity": "Love"). */
function cased(original: string, replacement: string): string {
  return /^\p{Lu}/u.test(original) ? `${replacement.charAt(0).toUpperCase()}${replacement.slice(1)}` : replacement
}

/**
 * Old spellings with one modern form: 1769's "-ick" (musick, publick), "handywork", "intreat"
 * (the KJV spells the same verb both ways), "to day" and "to morrow" (not "from day to day").
 */
function modernSpellings(text: string): string {
  const ick = /\b(mus|traff|lunat|publ|heret|garl|bishopr)ick(s?)\b/giu
  return text
    .replace(ick, (_m, stem: string, plural: string) => `${stem}ic${plural}`)
    .replace(/\b([Hh])andywork\b/gu, '$1andiwork')
    .replace(/\b([Ii])ntreat(ed|ies|y|s|ing)?\b/gu, (_m, i: string, end: string | undefined) => `${i === 'I' ? 'E' : 'e'}ntreat${end ?? ''}`)
    .replace(/(?<!\b(?:day|morrow) )\b([Tt])o (day|morrow)\b/gu, (_m, t: string, day: string) => `${t}o${day}`)
}

/** Adjectives and participles that the adverb "sore" (greatly) strengthens. */
const SORE_PARTICIPLES = 'displeased|amazed|vexed|troubled|distressed|pained|wounded|confounded|broken|grieved|longed'
/** Nouns that the adjective "sore" (severe) qualifies. */
const SORE_NOUNS = 'famine|destruction|evil|travail|battle|slaughter|lamentation|war|judgments|diseases|sicknesses|troubles|displeasure'

/**
 * "sore" as the KJV's adverb (greatly, bitterly, hard) and its adjective (severe); the noun
 * ("his sore", "a white reddish sore") and "sore boils" (painful) are today's senses.
 */
function oldSore(text: string): string {
  return (
    text
      .replace(new RegExp(`\\bvery sore (afraid|thirsty|${SORE_PARTICIPLES})\\b`, 'gu'), 'very $1')
      .replace(/\bsore (afraid|thirsty)\b/gu, 'very $1')
      .replace(new RegExp(`\\bsore (${SORE_PARTICIPLES})\\b`, 'gu'), 'greatly $1')
      .replace(/\b(wept|weep|weeps|weeping|mourn) (very )?sore\b/gu, '$1 $2bitterly')
      .replace(new RegExp(`\\bsore (${SORE_NOUNS})\\b`, 'gu'), 'severe $1')
      // "the famine was very sore", "the battle went sore against Saul", "great and sore".
      .replace(/\b(famine|battle|sickness) (was|is|grew|went) (so |very |too )?sore\b/gu, (_m, noun: string, verb: string, degree: string | undefined) =>
        verb === 'went' ? `${noun} went hard` : `${noun} ${verb} ${degree ?? ''}severe`,
      )
      .replace(/\bgreat and sore\b/gu, 'great and severe')
      .replace(/\bsore and great\b/gu, 'severe and great')
      .replace(/\bhand is sore upon\b/gu, 'hand is heavy upon')
      // After a verb and its object: pressing and chasing hard, punishing severely, grieving greatly.
      .replace(/\b(pressed|presses me|thrust|chased me|lay) sore\b/gu, '$1 hard')
      .replace(/\b(chastened me|rent him) sore\b/gu, '$1 severely')
      .replace(/\b(provoked her|grieved me|transgressed) sore\b/gu, '$1 greatly')
      .replace(/\b(angry|us) very sore\b/gu, '$1 very greatly')
      .replace(/\bhave sore broken\b/gu, 'have greatly broken')
  )
}

/**
 * "bare" is the KJV's past tense of "bear" (she bare a son, they bare the ark) except where it
 * is today's adjective: made or make bare, naked and bare, clean bare, his head bare, be bare,
 * bare grain.
 */
function oldBare(text: string): string {
  return text.replace(/\b([Bb])are\b/gu, (word: string, _b: string, offset: number, whole: string) => {
    const before = whole.slice(Math.max(0, offset - 24), offset)
    const after = whole.slice(offset + word.length, offset + word.length + 8)
    const adjective = /\b(?:make|made|makes|naked and|clean|head|be|made \p{L}+|make \p{L}+)\s$/u.test(before) || /^\s+grain\b/u.test(after)
    return adjective ? word : cased(word, 'bore')
  })
}

/**
 * "quick" is the KJV's "alive" (go down quick, the quick and the dead, quick raw flesh) and
 * "quicken" is "give life" ("quicken me": "give me life"); "quick understanding" is today's.
 */
function oldQuick(text: string): string {
  return text
    .replace(/\b(down|up) quick\b/gu, '$1 alive')
    .replace(/\bof quick and dead\b/gu, 'of the living and the dead')
    .replace(/\bis quick, and\b/gu, 'is living, and')
    .replace(/\bquick (raw )?flesh\b/gu, 'raw flesh')
    .replace(/\b([Qq])uicken (me|us|him|them|you)\b/gu, (_m, q: string, who: string) => `${q === 'Q' ? 'G' : 'g'}ive ${who} life`)
    .replace(/\b([Qq])uicken\b/gu, (_m, q: string) => `${q === 'Q' ? 'G' : 'g'}ive life to`)
    .replace(/\bquickens (them|us|me|him|you)\b/gu, 'gives $1 life')
    .replace(/\bquickens(?=[;,.:])/gu, 'gives life')
    .replace(/\bquickens\b/gu, 'gives life to')
    .replace(/\bquickened (me|us|him|them|you)\b/gu, 'made $1 alive')
    .replace(/\bquickened\b/gu, 'made alive')
    .replace(/\ba quickening spirit\b/gu, 'a life-giving spirit')
}

/**
 * The adjective "meet" is "fit" ("it is not meet to take the children's bread", "an help meet
 * for him"), after a form of "be", "it" or a noun it describes; the verb "meet" is today's.
 */
function oldMeet(text: string): string {
  return text
    .replace(/\ba help meet\b/gu, 'a helper fit')
    .replace(/\bmeetest\b/gu, 'fittest')
    .replace(/\b(is|was|be|are|were|am|not|it|us|seemed|fruits|works|herbs|sides,|and) meet\b(?=(?: for| to| that| so| yet)\b|[.,;:?]|$)/gu, '$1 fit')
}

/**
 * Single words whose KJV sense is not today's: "charity" is love (1 Corinthians 13), "nigh" is
 * near, "betimes" early, "drunken" after a verb is "drunk" ("a drunken man" stays), "evil
 * entreat" is mistreat.
 */
function oldWords(text: string): string {
  return text
    .replace(/\b([Cc])harity\b/gu, (word: string) => cased(word, 'love'))
    .replace(/\bwell nigh\b/gu, 'almost')
    .replace(/\b([Nn])igh\b/gu, (word: string) => cased(word, 'near'))
    .replace(/\b([Bb])etimes\b/gu, (word: string) => cased(word, 'early'))
    .replace(
      /\b(be|been|being|is|are|was|were|am|made|make|makes|very|not|them|him|me|earth|woman|assuredly|have|had|and) drunken\b(?! (?:man|men|woman)\b)/gu,
      '$1 drunk',
    )
    .replace(/\b(so )?evil entreat(ed|s)?\b/gu, (_m, so: string | undefined, end: string | undefined) => `${so ?? ''}mistreat${end ?? ''}`)
}

/**
 * Rewrites the words of changed sense and spelling in modernized text.
 * @example rewriteOldSenses('and she bare a son; they were sore afraid') // 'and she bore a son; they were very afraid'
 */
export function rewriteOldSenses(text: string): string {
  return oldWords(oldMeet(oldQuick(oldBare(oldSore(modernSpellings(text))))))
}
