/**
 * English stems for search, KJV archaic forms included: "believeth", "believest" and
 * "believedst" all stem like "believed", so that `believe` finds every one of them.
 *
 * The archaic endings are rewritten to their modern equivalent first (our own rules), then
 * the Porter algorithm (the `stemmer` package) does the rest.
 */
import { stemmer as porter } from 'stemmer'

/**
 * Archaic forms too short or irregular for the ending rules, with the modern word they stand
 * for. Short verbs map to their base form, because Porter stems "goes" and "go" apart.
 */
const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['hath', 'has'],
  ['hast', 'have'],
  ['hadst', 'had'],
  ['doth', 'does'],
  ['doeth', 'does'],
  ['dost', 'do'],
  ['doest', 'do'],
  ['saith', 'says'],
  ['wast', 'was'],
  ['wert', 'were'],
  ['canst', 'can'],
  ['wilt', 'will'],
  ['shalt', 'shall'],
  ['couldst', 'could'],
  ['wouldst', 'would'],
  ['shouldst', 'should'],
  ['mayest', 'may'],
  ['mayst', 'may'],
  ['goeth', 'go'],
  ['goest', 'go'],
  ['seeth', 'see'],
  ['seest', 'see'],
  ['dieth', 'die'],
  ['diest', 'die'],
  ['lieth', 'lie'],
  ['liest', 'lie'],
  ['oweth', 'owe'],
  ['owest', 'owe'],
  ['useth', 'use'],
  ['usest', 'use'],
])

/**
 * Words whose -est or -eth belongs to the word itself (a noun or an adjective, not a verb
 * ending), so it must stay: otherwise "priest" would stem like "pried" but "priests" would not.
 * Words of five letters or fewer ("rest", "chest", "guest") are safe without being listed.
 */
const ROOTS: ReadonlySet<string> = new Set([
  'arrest',
  'attest',
  'behest',
  'bequest',
  'conquest',
  'contest',
  'detest',
  'digest',
  'dishonest',
  'divest',
  'earnest',
  'forest',
  'harvest',
  'honest',
  'incest',
  'infest',
  'ingest',
  'inquest',
  'interest',
  'invest',
  'manifest',
  'midwest',
  'modest',
  'molest',
  'northwest',
  'priest',
  'protest',
  'request',
  'southwest',
  'suggest',
  'tempest',
  'unrest',
  'teeth',
])

/**
 * The modern equivalent of an archaic verb form, or the word itself when it has none.
 * Second and third person endings become the regular "-ed" form, which Porter stems like
 * the base verb ("loveth" -> "loved" -> "love"; "sittest" -> "sitted" -> "sit").
 * @example modernForm('believeth') // 'believed'
 */
export function modernForm(word: string): string {
  const irregular = IRREGULAR.get(word)
  if (irregular !== undefined) return irregular
  // "lovedst", "didst", "saidst": the -st of the past tense.
  if (word.endsWith('dst') && word.length > 4 && word !== 'midst') return word.slice(0, -2)
  if (word.length <= 5 || ROOTS.has(word)) return word
  const ending = word.slice(-3)
  if (ending !== 'eth' && ending !== 'est') return word
  // Ordinals ("twentieth") are not verbs.
  if (word.endsWith('tieth')) return word
  // "fleeth", "agreest": the verb ends in -ee, and only -th or -st was added.
  if (word.endsWith('eeth') || word.endsWith('eest')) return word.slice(0, -2)
  return `${word.slice(0, -3)}ed`
}

/**
 * The search stem of a normalized (lower-case, unaccented, apostrophe-free) word.
 * @example stem('believeth') === stem('believe') // true
 */
export function stem(word: string): string {
  return porter(modernForm(word))
}
