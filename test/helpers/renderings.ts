/**
 * Plain renderings of KJV verses for the fake language models of the generation tests: the
 * modernizer's text with the forms it keeps but the editorial gates refuse (the guide's
 * full archaic list, British spelling) replaced, so that an answer passes validateContent
 * for any verse the tests ask about.
 */
import { modernize } from '../../src/content/pipeline/modernizer.js'
import { findBritishSpellings } from '../../src/text/american-spelling.js'

/** What the modernizer leaves that the guide does not allow, and a modern form of it. */
const REPLACEMENTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bHoly Ghost\b/giu, 'Holy Spirit'],
  [/\bbehold\b/giu, 'look'],
  [/\bbrethren\b/giu, 'brothers'],
  [/\bwhatsoever\b/giu, 'whatever'],
  [/\bwhosoever\b/giu, 'whoever'],
  [/\btherewith\b/giu, 'with that'],
  [/\bwherein\b/giu, 'in which'],
  [/\bthereof\b/giu, 'of it'],
  [/\bverily\b/giu, 'truly'],
]

/** Keeps a capital where the original word had one. */
function inCase(found: string, modern: string): string {
  return /^\p{Lu}/u.test(found) ? modern.charAt(0).toUpperCase() + modern.slice(1) : modern
}

/**
 * A rendering of a KJV verse that meets the editorial gates (a stand-in for a model's answer).
 * @example gateReadyRendering('Behold, I come quickly.') // 'Look, I come quickly.'
 */
export function gateReadyRendering(kjvText: string): string {
  let text = modernize(kjvText)
  for (const [pattern, modern] of REPLACEMENTS) text = text.replace(pattern, (found) => inCase(found, modern))
  for (const { found, american } of findBritishSpellings(text)) text = text.replace(new RegExp(`\\b${found}\\b`, 'gu'), american)
  return text
}
