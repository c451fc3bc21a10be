/**
 * Reading a search query: bare words, each of which must appear in the verse (by stem), and
 * "quoted phrases", which must appear word for word as written.
 */
import { stem } from './stemmer.js'
import { tokenize } from './tokenizer.js'

/** A word the verse must contain, in any form with the same stem. */
export interface WordClause {
  readonly kind: 'word'
  readonly stem: string
}

/** Words the verse must contain in this order, next to each other, as written. */
export interface PhraseClause {
  readonly kind: 'phrase'
  /** The normalized words, compared with the text's (see Token.surface). */
  readonly surfaces: readonly string[]
  /** Their stems, to find candidate verses and to score them. */
  readonly stems: readonly string[]
}

export type Clause = WordClause | PhraseClause

// Typographic double quotes count as quotes: people paste them.
const QUOTES = /[“”„‟″«»]/g

/**
 * The clauses of a query, without duplicates; empty when it holds no word at all.
 * An unclosed quote runs to the end of the query.
 * @example parseQuery('love "thy neighbour"') // [{ kind: 'word', stem: 'love' }, { kind: 'phrase', surfaces: ['thy', 'neighbour'], ... }]
 */
export function parseQuery(q: string): Clause[] {
  const clauses: Clause[] = []
  const seen = new Set<string>()
  const add = (key: string, clause: Clause): void => {
    if (seen.has(key)) return
    seen.add(key)
    clauses.push(clause)
  }
  q.replace(QUOTES, '"')
    .split('"')
    .forEach((part, i) => {
      const tokens = tokenize(part)
      if (i % 2 === 0) {
        for (const token of tokens) {
          const s = stem(token.base)
          add(`w:${s}`, { kind: 'word', stem: s })
        }
      } else if (tokens.length > 0) {
        const surfaces = tokens.map((t) => t.surface)
        add(`p:${surfaces.join(' ')}`, { kind: 'phrase', surfaces, stems: tokens.map((t) => stem(t.base)) })
      }
    })
  return clauses
}
