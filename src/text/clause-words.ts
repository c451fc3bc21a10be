/**
 * Conjunctions and relatives that open or join a clause: a word from this list standing
 * before "I" is never the verb of an inverted "VERB I you" ("that I you", "when I thee").
 * The modernizer (which rewrites such inversions) and the hybrid detector (which checks that
 * none is left half-rewritten) must agree on it, so it lives here once.
 */
export const CLAUSE_WORDS: readonly string[] = Object.freeze([
  'and',
  'but',
  'or',
  'nor',
  'that',
  'if',
  'when',
  'as',
  'than',
  'which',
  'whom',
  'what',
  'who',
  'because',
  'for',
  'so',
  'then',
  'now',
  'till',
  'until',
  'whether',
  'though',
  'lest',
  'where',
  'while',
  'since',
  'unless',
  'before',
  'after',
])
