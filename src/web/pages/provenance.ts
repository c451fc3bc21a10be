/** Provenance of derived text, said in words for readers. */
import type { VerseResource } from '../../verses/verses.service.js'

type Provenance = NonNullable<NonNullable<VerseResource['faithful']>['provenance']>

/**
 * How a style's text was made, as a sentence.
 * @example provenanceInWords({ method: 'modernized', model: null, prompt_version: 'modernizer-1' })
 */
export function provenanceInWords(provenance: Provenance): string {
  switch (provenance.method) {
    case 'curated':
      return `Written by the Plainverse team and checked line by line against the KJV by a second reader (${provenance.prompt_version}).`
    case 'generated':
      return `Written by a language model (${provenance.model ?? 'unnamed'}) to the Plainverse editorial guide (${provenance.prompt_version}), checked by the content validator, with a sample of each batch read against the KJV by the team.`
    case 'modernized':
      return "The KJV's own words turned into modern English by Plainverse's deterministic modernizer; no notes have been written for this verse yet."
  }
}
