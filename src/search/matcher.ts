/**
 * Running a parsed query on the index: which verses match every clause (in any of the
 * searched texts), their BM25 scores, and one page of them best first.
 *
 * The corpus is small (31,102 verses), so matching walks the postings into dense per-verse
 * arrays: even "the" (in most verses) costs well under a millisecond, and `total` is exact.
 */
import type { Clause } from './query.js'
import { K1, type FieldIndex, type Postings, type SearchIndex } from './search.index.js'

/** The verses (documents, ascending) that match a query, with their scores. */
export interface Matches {
  readonly docs: Int32Array
  readonly scores: Float64Array
}

/** A place in the ranking: the last hit of a page. */
export interface RankKey {
  readonly score: number
  readonly doc: number
}

/** One page of a ranking. */
export interface Page {
  /** Indexes into Matches.docs, best first. */
  readonly hits: readonly number[]
  /** Whether more matches follow this page. */
  readonly more: boolean
}

type Compiled =
  { readonly kind: 'word'; readonly stemId: number } | { readonly kind: 'phrase'; readonly stemIds: readonly number[]; readonly surfaceIds: readonly number[] }

const NONE: Matches = { docs: new Int32Array(0), scores: new Float64Array(0) }

/**
 * The verses of `range` that satisfy every clause in at least one of `fields`, scored by
 * BM25 summed over the fields and over the distinct stems of the query.
 */
export function findMatches(index: SearchIndex, clauses: readonly Clause[], fields: readonly FieldIndex[], range: readonly [number, number]): Matches {
  const compiled = compile(index, clauses)
  if (compiled === undefined || compiled.length === 0) return NONE
  // Rarest clause first: a document satisfies clause k only if it satisfied the k before,
  // so later clauses only keep or drop what the rarest one found.
  const ordered = compiled
    .map((clause) => ({ clause, cost: fields.reduce((sum, field) => sum + (driver(field, clause)?.docs.length ?? 0), 0) }))
    .sort((a, b) => a.cost - b.cost)
    .map((c) => c.clause)
  // level[d] = how many of the ordered clauses document d satisfies so far.
  const level = new Uint16Array(index.size)
  ordered.forEach((clause, k) => {
    for (const field of fields) {
      const postings = driver(field, clause)
      if (postings === undefined) continue
      const docs = postings.docs
      const [from, to] = bounds(docs, range)
      const phrase = clause.kind === 'phrase' ? clause.surfaceIds : undefined
      for (let i = from; i < to; i++) {
        const doc = docs[i] as number
        if (level[doc] !== k || (phrase !== undefined && !field.hasSequence(doc, phrase))) continue
        level[doc] = k + 1
      }
    }
  })
  const wanted = ordered.length
  // One pass over the range yields the matches already in canonical order.
  let count = 0
  for (let doc = range[0]; doc < range[1]; doc++) if (level[doc] === wanted) count++
  const docs = new Int32Array(count)
  for (let doc = range[0], i = 0; doc < range[1]; doc++) if (level[doc] === wanted) docs[i++] = doc
  return { docs, scores: score(docs, compiled, fields, level, wanted, range) }
}

/**
 * The page after `after` (from the start without it), best first: higher score, then
 * canonical order.
 */
export function pageOf(matches: Matches, after: RankKey | undefined, limit: number): Page {
  const { docs, scores } = matches
  const better = (a: number, b: number): boolean =>
    (scores[a] ?? 0) > (scores[b] ?? 0) || ((scores[a] ?? 0) === (scores[b] ?? 0) && (docs[a] ?? 0) < (docs[b] ?? 0))
  const top: number[] = []
  let following = 0
  for (let i = 0; i < docs.length; i++) {
    if (after !== undefined) {
      const s = scores[i] ?? 0
      if (s > after.score || (s === after.score && (docs[i] ?? 0) <= after.doc)) continue
    }
    following++
    if (top.length === limit && !better(i, top[limit - 1] ?? 0)) continue
    // Insertion into the few best so far (limit is at most 50).
    let at = Math.min(top.length, limit - 1)
    top[at] = i
    while (at > 0 && better(i, top[at - 1] ?? 0)) {
      top[at] = top[at - 1] ?? 0
      top[--at] = i
    }
  }
  return { hits: top, more: following > top.length }
}

/** Clauses with index ids; undefined when a word is in no text at all (nothing can match). */
function compile(index: SearchIndex, clauses: readonly Clause[]): Compiled[] | undefined {
  const compiled: Compiled[] = []
  for (const clause of clauses) {
    if (clause.kind === 'word') {
      const stemId = index.stemId(clause.stem)
      if (stemId === undefined) return undefined
      compiled.push({ kind: 'word', stemId })
    } else {
      const stemIds = clause.stems.map((s) => index.stemId(s))
      const surfaceIds = clause.surfaces.map((s) => index.surfaceId(s))
      if (!isComplete(stemIds) || !isComplete(surfaceIds)) return undefined
      compiled.push({ kind: 'phrase', stemIds, surfaceIds })
    }
  }
  return compiled
}

function isComplete(ids: ReadonlyArray<number | undefined>): ids is readonly number[] {
  return ids.every((id) => id !== undefined)
}

/** The postings a clause is checked through in one field: its word's, or its phrase's rarest word's. */
function driver(field: FieldIndex, clause: Compiled): Postings | undefined {
  if (clause.kind === 'word') return field.postingsOf(clause.stemId)
  let rarest: Postings | undefined
  for (const stemId of clause.stemIds) {
    const postings = field.postingsOf(stemId)
    // A phrase word missing from this field: the phrase cannot be in it.
    if (postings === undefined) return undefined
    if (rarest === undefined || postings.docs.length < rarest.docs.length) rarest = postings
  }
  return rarest
}

/** BM25 of every match: each distinct stem of the query, in each searched field. */
function score(
  docs: Int32Array,
  clauses: readonly Compiled[],
  fields: readonly FieldIndex[],
  level: Uint16Array,
  wanted: number,
  range: readonly [number, number],
): Float64Array {
  const byDoc = new Float64Array(level.length)
  const stemIds = new Set(clauses.flatMap((c) => (c.kind === 'word' ? [c.stemId] : c.stemIds)))
  for (const stemId of stemIds) {
    for (const field of fields) {
      const postings = field.postingsOf(stemId)
      if (postings === undefined) continue
      // BM25: idf * tf * (K1 + 1) / (tf + norm), with the constant part taken out of the loop.
      const weight = field.idf(postings) * (K1 + 1)
      const { docs: postingDocs, tfs } = postings
      const norms = field.norms
      const [from, to] = bounds(postingDocs, range)
      for (let i = from; i < to; i++) {
        const doc = postingDocs[i] as number
        if (level[doc] !== wanted) continue
        const tf = tfs[i] as number
        byDoc[doc] = (byDoc[doc] as number) + (weight * tf) / (tf + (norms[doc] as number))
      }
    }
  }
  const scores = new Float64Array(docs.length)
  for (let i = 0; i < docs.length; i++) scores[i] = byDoc[docs[i] as number] as number
  return scores
}

/** The slice of sorted postings that falls in [range[0], range[1]). */
function bounds(docs: Int32Array, range: readonly [number, number]): [number, number] {
  if (range[0] === 0 && range[1] >= (docs[docs.length - 1] ?? 0) + 1) return [0, docs.length]
  return [lowerBound(docs, range[0]), lowerBound(docs, range[1])]
}

function lowerBound(docs: Int32Array, value: number): number {
  let lo = 0
  let hi = docs.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((docs[mid] ?? 0) < value) lo = mid + 1
    else hi = mid
  }
  return lo
}
