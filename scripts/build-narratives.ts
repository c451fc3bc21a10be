/**
 * Builds the table of the 548 gospel narratives, db/narratives/narratives.json.
 *
 *   npx tsx scripts/build-narratives.ts [referenceDir] [--out file] [--report]
 *
 * Inputs: the public reference tables in ../shared/reference/gospels (relative
 * to the project root; `referenceDir` overrides it) and the hand decisions in
 * db/narratives/decisions.json (titles, boundary reviews, splits, link reviews).
 * The build is deterministic: the same inputs give byte-identical output.
 * db/narratives/README.md explains the method.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { NARRATIVES_FILE } from '../src/seed/seed-files.js'

/** One of the four Gospels, in the lower-case spelling used in slugs and output. */
export type Gospel = 'matthew' | 'mark' | 'luke' | 'john'

/** The Gospels in canonical order, which is also the output order. */
export const GOSPELS: readonly Gospel[] = ['matthew', 'mark', 'luke', 'john']

/**
 * Verses per chapter of each Gospel in KJV versification (index 0 is chapter 1).
 * Hand-entered from the standard KJV rather than read from the reference tables,
 * so that the tables can be checked against it.
 */
export const KJV_GOSPEL_CHAPTERS: Readonly<Record<Gospel, readonly number[]>> = {
  matthew: [25, 23, 17, 25, 48, 34, 29, 34, 38, 42, 30, 50, 58, 36, 39, 28, 27, 35, 30, 34, 46, 46, 39, 51, 46, 75, 66, 20],
  mark: [45, 28, 35, 41, 43, 56, 37, 38, 50, 52, 33, 44, 37, 72, 47, 20],
  luke: [80, 52, 38, 44, 39, 49, 50, 56, 62, 42, 54, 59, 35, 35, 32, 31, 37, 43, 48, 47, 38, 71, 56, 53],
  john: [51, 25, 36, 54, 47, 71, 53, 59, 41, 42, 57, 50, 38, 31, 27, 33, 26, 40, 42, 31, 25],
}

/** Verse totals of the Gospels in KJV versification, as the product issue states them. */
export const KJV_GOSPEL_TOTALS: Readonly<Record<Gospel, number>> = { matthew: 1071, mark: 678, luke: 1151, john: 879 }

/** The number of narratives the table must have. */
export const NARRATIVE_COUNT = 548

/** A verse reference inside one Gospel. */
export interface VerseRef {
  chapter: number
  verse: number
}

/** One row of narratives.json. The key order here is the output key order. */
export interface Narrative {
  slug: string
  title: string
  gospel: Gospel
  start: VerseRef
  end: VerseRef
  verse_count: number
  order: number
  parallels: string[]
}

/** Slug pattern: the Gospel name, then lower-case words joined by hyphens. */
export const SLUG_PATTERN = /^(matthew|mark|luke|john)-[a-z0-9]+(-[a-z0-9]+)*$/

// The BSB leaves out these KJV verses (README of the reference tables); a gap
// between two BSB units is only accepted if it is one of them.
const BSB_OMITTED = [
  'matthew 17:21',
  'matthew 18:11',
  'matthew 23:14',
  'mark 7:16',
  'mark 9:44',
  'mark 9:46',
  'mark 11:26',
  'mark 15:28',
  'luke 17:36',
  'luke 23:17',
  'john 5:4',
]

// Boundary refinement only looks this many verses either side of a BSB boundary:
// further away it would no longer be the same break.
const BOUNDARY_WINDOW = 3

const SOURCE_BOOKS: Readonly<Record<string, Gospel>> = { Matthew: 'matthew', Mark: 'mark', Luke: 'luke', John: 'john' }
const CANON_COLUMNS: ReadonlyArray<readonly [string, Gospel]> = [
  ['Mt', 'matthew'],
  ['Mk', 'mark'],
  ['Lk', 'luke'],
  ['Jn', 'john'],
]

// ---------------------------------------------------------------------------
// Versification: verses are numbered 1..total within each Gospel ("ordinals")
// so that ranges, gaps and overlaps are plain integer arithmetic.

function chapters(g: Gospel): readonly number[] {
  return KJV_GOSPEL_CHAPTERS[g]
}

/** Number of verses in a Gospel according to the hard-coded chapter table. */
export function gospelVerseCount(g: Gospel): number {
  return chapters(g).reduce((a, b) => a + b, 0)
}

/**
 * Ordinal (1-based, counted through the whole Gospel) of a verse.
 * Throws if the verse does not exist in KJV versification.
 */
export function verseOrdinal(g: Gospel, chapter: number, verse: number): number {
  const counts = chapters(g)
  const inChapter = counts[chapter - 1]
  if (inChapter === undefined || !Number.isInteger(verse) || verse < 1 || verse > inChapter) {
    throw new Error(`${g} ${chapter}:${verse} is not a KJV verse`)
  }
  let n = verse
  for (let c = 0; c < chapter - 1; c++) n += counts[c] ?? 0
  return n
}

/** Inverse of verseOrdinal. */
export function verseAt(g: Gospel, ordinal: number): VerseRef {
  let rest = ordinal
  const counts = chapters(g)
  for (let c = 0; c < counts.length; c++) {
    const inChapter = counts[c] ?? 0
    if (rest <= inChapter) return { chapter: c + 1, verse: rest }
    rest -= inChapter
  }
  throw new Error(`${g} has no verse number ${ordinal}`)
}

function cv(g: Gospel, ordinal: number): string {
  const r = verseAt(g, ordinal)
  return `${r.chapter}:${r.verse}`
}

function parseCv(g: Gospel, text: string): number {
  const m = /^(\d+):(\d+)$/.exec(text)
  if (m === null) throw new Error(`bad reference "${text}"`)
  return verseOrdinal(g, Number(m[1]), Number(m[2]))
}

// A verse with a part letter ("5:39b"): the letters say where inside the verse
// a section starts or ends.
interface PartPoint {
  ordinal: number
  part: string
}

function parsePartPoint(g: Gospel, text: string): PartPoint {
  const m = /^(\d+):(\d+)([a-z]*)$/.exec(text)
  if (m === null) throw new Error(`bad reference "${text}"`)
  return { ordinal: verseOrdinal(g, Number(m[1]), Number(m[2])), part: m[3] ?? '' }
}

// ---------------------------------------------------------------------------
// CSV

function parseCsv(text: string, name: string): Record<string, string>[] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i)
    if (quoted) {
      if (ch === '"' && text.charAt(i + 1) === '"') {
        field += '"'
        i++
      } else if (ch === '"') {
        quoted = false
      } else {
        field += ch
      }
    } else if (ch === '"') {
      quoted = true
    } else if (ch === ',') {
      row.push(field)
      field = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text.charAt(i + 1) === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else {
      field += ch
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  const header = rows.shift()
  if (header === undefined) throw new Error(`${name}: empty file`)
  return rows
    .filter((r) => r.length > 1 || (r[0] ?? '') !== '')
    .map((r, i) => {
      if (r.length !== header.length) throw new Error(`${name} row ${i + 2}: ${r.length} fields, expected ${header.length}`)
      const rec: Record<string, string> = {}
      header.forEach((h, k) => {
        rec[h] = r[k] ?? ''
      })
      return rec
    })
}

function field(rec: Record<string, string>, key: string, name: string): string {
  const v = rec[key]
  if (v === undefined) throw new Error(`${name}: missing column ${key}`)
  return v
}

function sourceGospel(book: string, name: string): Gospel {
  const g = SOURCE_BOOKS[book]
  if (g === undefined) throw new Error(`${name}: unknown book "${book}"`)
  return g
}

// ---------------------------------------------------------------------------
// Reference tables

interface Span {
  gospel: Gospel
  start: number
  end: number
}

interface BsbUnit extends Span {
  seq: number
  title: string
  parallels: Span[]
}

interface References {
  bsb: BsbUnit[]
  paragraphStarts: Record<Gospel, Set<number>>
  ammonianBreaks: Record<Gospel, Set<number>>
  sbBreaks: Record<Gospel, Set<number>>
  ammonian: Map<string, Span>
  canonRows: Array<{ canon: string; sections: Array<[Gospel, string]> }>
  sbSections: Map<string, Span[]>
}

function emptySets(): Record<Gospel, Set<number>> {
  return { matthew: new Set(), mark: new Set(), luke: new Set(), john: new Set() }
}

function loadReferences(dir: string): References {
  const read = (name: string): Record<string, string>[] => parseCsv(readFileSync(resolve(dir, name), 'utf8'), name)

  // BSB units: consecutive per book. A gap is only allowed for a verse the BSB
  // omits, and is given to the unit before it (README of the reference tables).
  const bsb: BsbUnit[] = []
  const bsbName = 'bsb_gospel_section_headings.csv'
  for (const rec of read(bsbName)) {
    const gospel = sourceGospel(field(rec, 'book', bsbName), bsbName)
    const parallels: Span[] = []
    const refs = field(rec, 'gospel_parallels', bsbName)
    for (const part of refs === '' ? [] : refs.split(';')) {
      const m = /^(Matthew|Mark|Luke|John) (\d+):(\d+)(?:-(?:(\d+):)?(\d+))?$/.exec(part.trim())
      if (m === null) throw new Error(`${bsbName}: bad parallel "${part}"`)
      const pg = sourceGospel(m[1] ?? '', bsbName)
      const c1 = Number(m[2])
      const start = verseOrdinal(pg, c1, Number(m[3]))
      const end = m[5] === undefined ? start : verseOrdinal(pg, m[4] === undefined ? c1 : Number(m[4]), Number(m[5]))
      parallels.push({ gospel: pg, start, end })
    }
    bsb.push({
      gospel,
      seq: Number(field(rec, 'seq', bsbName)),
      title: field(rec, 'title', bsbName),
      start: parseCv(gospel, field(rec, 'start', bsbName)),
      end: parseCv(gospel, field(rec, 'end', bsbName)),
      parallels,
    })
  }
  for (const g of GOSPELS) {
    const units = bsb.filter((u) => u.gospel === g).sort((a, b) => a.seq - b.seq)
    units.forEach((u, i) => {
      const next = units[i + 1]
      const stop = next === undefined ? gospelVerseCount(g) + 1 : next.start
      if (u.end >= stop) throw new Error(`BSB ${g} unit ${u.seq} overlaps the next`)
      for (let v = u.end + 1; v < stop; v++) {
        if (!BSB_OMITTED.includes(`${g} ${cv(g, v)}`)) throw new Error(`BSB ${g} leaves ${cv(g, v)} uncovered`)
      }
      u.end = stop - 1
    })
    if (units[0]?.start !== 1) throw new Error(`BSB ${g} does not start at 1:1`)
  }

  const paragraphStarts = emptySets()
  const parName = 'kjv_paragraph_starts_gospels.csv'
  for (const g of GOSPELS) paragraphStarts[g].add(1) // each book's 1:1 is implied
  for (const rec of read(parName)) {
    const g = sourceGospel(field(rec, 'book', parName), parName)
    paragraphStarts[g].add(verseOrdinal(g, Number(field(rec, 'chapter', parName)), Number(field(rec, 'verse', parName))))
  }

  // A section that begins with a whole verse (or its part a) marks a break
  // before that verse; so does one that ends with a whole verse.
  const ammonianBreaks = emptySets()
  const ammonian = new Map<string, Span>()
  const ammName = 'eusebian_ammonian_sections.csv'
  for (const rec of read(ammName)) {
    const g = sourceGospel(field(rec, 'book', ammName), ammName)
    const s = parsePartPoint(g, field(rec, 'start', ammName))
    const e = parsePartPoint(g, field(rec, 'end', ammName))
    if (s.part === '' || s.part.startsWith('a')) ammonianBreaks[g].add(s.ordinal)
    if (e.part === '') ammonianBreaks[g].add(e.ordinal + 1)
    ammonian.set(`${g} ${field(rec, 'section', ammName)}`, { gospel: g, start: s.ordinal, end: e.ordinal })
  }

  const canonRows: References['canonRows'] = []
  const canName = 'eusebian_canon_tables.csv'
  for (const rec of read(canName)) {
    const sections: Array<[Gospel, string]> = []
    for (const [col, g] of CANON_COLUMNS) {
      const s = field(rec, col, canName)
      if (s === '') continue
      if (!ammonian.has(`${g} ${s}`)) throw new Error(`${canName}: no Ammonian section ${g} ${s}`)
      sections.push([g, s])
    }
    canonRows.push({ canon: field(rec, 'canon', canName), sections })
  }

  const sbBreaks = emptySets()
  const sbSections = new Map<string, Span[]>()
  const sbName = 'stevens_burton_harmony_index.csv'
  for (const rec of read(sbName)) {
    const g = sourceGospel(field(rec, 'book', sbName), sbName)
    const ref = field(rec, 'ref', sbName)
    const m = /^(\d+):(\d+)([a-z]?)(?:[-,](?:(\d+):)?(\d+)([a-z]?))?$/.exec(ref)
    if (m === null) throw new Error(`${sbName}: bad ref "${ref}"`)
    const c1 = Number(m[1])
    const start = verseOrdinal(g, c1, Number(m[2]))
    const startPart = m[3] ?? ''
    const end = m[5] === undefined ? start : verseOrdinal(g, m[4] === undefined ? c1 : Number(m[4]), Number(m[5]))
    const endPart = m[5] === undefined ? startPart : (m[6] ?? '')
    if (startPart === '' || startPart === 'a') sbBreaks[g].add(start)
    if (endPart === '') sbBreaks[g].add(end + 1)
    const section = field(rec, 'section', sbName)
    const list = sbSections.get(section) ?? []
    list.push({ gospel: g, start, end })
    sbSections.set(section, list)
  }

  return { bsb, paragraphStarts, ammonianBreaks, sbBreaks, ammonian, canonRows, sbSections }
}

// ---------------------------------------------------------------------------
// Hand decisions

interface BoundaryReview {
  gospel: Gospel
  from: string
  to: string
  accept: boolean
  reason: string
}

interface BoundaryMove {
  gospel: Gospel
  from: string
  to: string
  reason: string
}

interface SplitDecision {
  gospel: Gospel
  at: string
  reason: string
}

interface LinkReview {
  a: string
  b: string
  keep: boolean
  reason: string
}

interface LinkAddition {
  a: string
  b: string
  reason: string
}

interface Decisions {
  boundary_review: BoundaryReview[]
  boundary_moves: BoundaryMove[]
  splits: SplitDecision[]
  titles: Record<string, string>
  /**
   * Slugs published before their title was reworded (a spelling fix, say), by unit key:
   * a published slug never changes, so these units keep it.
   */
  published_slugs: Record<string, string>
  link_reviews: LinkReview[]
  link_additions: LinkAddition[]
}

type Json = Record<string, unknown>

function asObject(x: unknown, ctx: string): Json {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) throw new Error(`${ctx}: expected an object`)
  return x as Json
}

function getString(o: Json, key: string, ctx: string): string {
  const v = o[key]
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`${ctx}: "${key}" must be a non-empty string`)
  return v
}

function getBoolean(o: Json, key: string, ctx: string): boolean {
  const v = o[key]
  if (typeof v !== 'boolean') throw new Error(`${ctx}: "${key}" must be true or false`)
  return v
}

function getGospel(o: Json, key: string, ctx: string): Gospel {
  const v = getString(o, key, ctx)
  const g = GOSPELS.find((x) => x === v)
  if (g === undefined) throw new Error(`${ctx}: unknown gospel "${v}"`)
  return g
}

function getList(o: Json, key: string, ctx: string): Json[] {
  const v = o[key]
  if (!Array.isArray(v)) throw new Error(`${ctx}: "${key}" must be an array`)
  return v.map((x: unknown, i) => asObject(x, `${ctx}.${key}[${i}]`))
}

function onlyKeys(o: Json, keys: readonly string[], ctx: string): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw new Error(`${ctx}: unexpected key "${k}"`)
}

function parseDecisions(text: string): Decisions {
  const root = asObject(JSON.parse(text), 'decisions')
  onlyKeys(root, ['$comment', 'boundary_review', 'boundary_moves', 'splits', 'titles', 'published_slugs', 'link_reviews', 'link_additions'], 'decisions')
  const titlesObj = asObject(root['titles'], 'decisions.titles')
  const titles: Record<string, string> = {}
  for (const [k, v] of Object.entries(titlesObj)) {
    if (typeof v !== 'string' || v.trim() !== v || v === '') throw new Error(`decisions.titles["${k}"]: bad title`)
    titles[k] = v
  }
  const published_slugs: Record<string, string> = {}
  for (const [k, v] of Object.entries(asObject(root['published_slugs'] ?? {}, 'decisions.published_slugs'))) {
    if (typeof v !== 'string' || !SLUG_PATTERN.test(v)) throw new Error(`decisions.published_slugs["${k}"]: bad slug`)
    published_slugs[k] = v
  }
  return {
    boundary_review: getList(root, 'boundary_review', 'decisions').map((o, i) => {
      const ctx = `boundary_review[${i}]`
      onlyKeys(o, ['gospel', 'from', 'to', 'accept', 'reason'], ctx)
      return {
        gospel: getGospel(o, 'gospel', ctx),
        from: getString(o, 'from', ctx),
        to: getString(o, 'to', ctx),
        accept: getBoolean(o, 'accept', ctx),
        reason: getString(o, 'reason', ctx),
      }
    }),
    boundary_moves: getList(root, 'boundary_moves', 'decisions').map((o, i) => {
      const ctx = `boundary_moves[${i}]`
      onlyKeys(o, ['gospel', 'from', 'to', 'reason'], ctx)
      return { gospel: getGospel(o, 'gospel', ctx), from: getString(o, 'from', ctx), to: getString(o, 'to', ctx), reason: getString(o, 'reason', ctx) }
    }),
    splits: getList(root, 'splits', 'decisions').map((o, i) => {
      const ctx = `splits[${i}]`
      onlyKeys(o, ['gospel', 'at', 'reason'], ctx)
      return { gospel: getGospel(o, 'gospel', ctx), at: getString(o, 'at', ctx), reason: getString(o, 'reason', ctx) }
    }),
    titles,
    published_slugs,
    link_reviews: getList(root, 'link_reviews', 'decisions').map((o, i) => {
      const ctx = `link_reviews[${i}]`
      onlyKeys(o, ['a', 'b', 'keep', 'reason'], ctx)
      return { a: getString(o, 'a', ctx), b: getString(o, 'b', ctx), keep: getBoolean(o, 'keep', ctx), reason: getString(o, 'reason', ctx) }
    }),
    link_additions: getList(root, 'link_additions', 'decisions').map((o, i) => {
      const ctx = `link_additions[${i}]`
      onlyKeys(o, ['a', 'b', 'reason'], ctx)
      return { a: getString(o, 'a', ctx), b: getString(o, 'b', ctx), reason: getString(o, 'reason', ctx) }
    }),
  }
}

// ---------------------------------------------------------------------------
// Titles and slugs

/** Lower-cases a title and joins its words with hyphens (apostrophes dropped, so "Jesus' " reads "jesus"). */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019\u02bc]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

// Titles must be our own; comparing the normalised words catches a BSB heading
// copied with different capitals or apostrophes.
function titleWords(title: string): string {
  return slugify(title).replace(/-/g, ' ')
}

// ---------------------------------------------------------------------------
// The build

interface Unit extends Span {
  key: string
  origin: BsbUnit
}

interface LinkInfo {
  fromBsb: boolean
  eusebius: string[]
  stevensBurton: string[]
  handKept: boolean
  added: boolean
}

/** What a build produces: the table and the figures for the summary. */
export interface BuildResult {
  narratives: Narrative[]
  summary: string[]
  report: string[]
}

/** Where the project root and default inputs are, relative to this script. */
export function defaultPaths(): { root: string; referenceDir: string; decisions: string; output: string } {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  return {
    root,
    referenceDir: resolve(root, '../shared/reference/gospels'),
    decisions: resolve(root, 'db/narratives/decisions.json'),
    output: resolve(root, NARRATIVES_FILE),
  }
}

function unitKey(g: Gospel, start: number): string {
  return `${g} ${cv(g, start)}`
}

function overlap(a: Span, b: Span): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start) + 1)
}

/**
 * Builds the narrative table from the reference tables in `referenceDir`
 * and the hand decisions (the text of decisions.json).
 */
export function buildNarratives(referenceDir: string, decisionsText: string): BuildResult {
  const refs = loadReferences(referenceDir)
  const decisions = parseDecisions(decisionsText)
  const report: string[] = []
  const harmonyMarks = (g: Gospel, v: number): number => (refs.ammonianBreaks[g].has(v) ? 1 : 0) + (refs.sbBreaks[g].has(v) ? 1 : 0)

  // 1. Boundaries: BSB unit starts, refined where the KJV paragraphs and the
  //    harmonies agree better than at the BSB's own break.
  const starts: Record<Gospel, number[]> = { matthew: [], mark: [], luke: [], john: [] }
  for (const g of GOSPELS)
    starts[g] = refs.bsb
      .filter((u) => u.gospel === g)
      .map((u) => u.start)
      .sort((a, b) => a - b)

  const reviewKey = (g: Gospel, from: string, to: string): string => `${g} ${from}>${to}`
  const reviews = new Map<string, BoundaryReview>()
  for (const r of decisions.boundary_review) {
    const k = reviewKey(r.gospel, r.from, r.to)
    if (reviews.has(k)) throw new Error(`boundary_review: ${k} reviewed twice`)
    reviews.set(k, r)
  }
  const accepted: Array<{ g: Gospel; from: number; to: number }> = []
  let boundaryCandidates = 0
  for (const g of GOSPELS) {
    const s = starts[g]
    const total = gospelVerseCount(g)
    s.forEach((b, i) => {
      if (i === 0 || refs.paragraphStarts[g].has(b)) return
      const lo = s[i - 1] ?? 0
      const hi = s[i + 1] ?? total + 1
      for (let p = Math.max(lo + 1, b - BOUNDARY_WINDOW); p <= Math.min(hi - 1, b + BOUNDARY_WINDOW); p++) {
        if (p === b || !refs.paragraphStarts[g].has(p)) continue
        if (harmonyMarks(g, p) === 0 || harmonyMarks(g, p) <= harmonyMarks(g, b)) continue
        boundaryCandidates++
        const k = reviewKey(g, cv(g, b), cv(g, p))
        const r = reviews.get(k)
        if (r === undefined) throw new Error(`boundary candidate ${k} has no entry in boundary_review`)
        reviews.delete(k)
        report.push(`boundary ${k}: ${r.accept ? 'moved' : 'kept at BSB'} (${r.reason})`)
        if (r.accept) accepted.push({ g, from: b, to: p })
      }
    })
  }
  if (reviews.size > 0) throw new Error(`boundary_review entries that are not candidates: ${[...reviews.keys()].join(', ')}`)
  const moveBoundary = (g: Gospel, from: number, to: number, what: string): void => {
    const s = starts[g]
    const i = s.indexOf(from)
    if (i <= 0) throw new Error(`${what}: ${g} ${cv(g, from)} is not an inner unit start`)
    const lo = s[i - 1] ?? 0
    const hi = s[i + 1] ?? gospelVerseCount(g) + 1
    if (to <= lo || to >= hi || to === from) throw new Error(`${what}: moving ${g} ${cv(g, from)} to ${cv(g, to)} would empty a unit`)
    s[i] = to
  }
  for (const m of accepted) moveBoundary(m.g, m.from, m.to, 'boundary_review')
  for (const m of decisions.boundary_moves) {
    moveBoundary(m.gospel, parseCv(m.gospel, m.from), parseCv(m.gospel, m.to), 'boundary_moves')
    report.push(`boundary ${m.gospel} ${m.from}>${m.to}: moved by hand (${m.reason})`)
  }

  // 2. Splits at natural breaks inside the longest units.
  const seenSplits = new Set<string>()
  for (const d of decisions.splits) {
    const g = d.gospel
    const at = parseCv(g, d.at)
    const k = `${g} ${d.at}`
    if (seenSplits.has(k) || starts[g].includes(at)) throw new Error(`splits: ${k} is already a boundary`)
    seenSplits.add(k)
    const kinds = [
      refs.paragraphStarts[g].has(at) ? 'KJV paragraph' : '',
      refs.ammonianBreaks[g].has(at) ? 'Ammonian section' : '',
      refs.sbBreaks[g].has(at) ? 'Stevens-Burton' : '',
    ].filter((x) => x !== '')
    if (kinds.length === 0) throw new Error(`splits: ${k} is not a natural break (no KJV paragraph, Ammonian section or Stevens-Burton start)`)
    starts[g].push(at)
    report.push(`split ${k} [${kinds.join(', ')}]: ${d.reason}`)
  }

  // 3. Units in canonical order, each with the BSB unit it mostly comes from.
  const units: Unit[] = []
  for (const g of GOSPELS) {
    const s = [...starts[g]].sort((a, b) => a - b)
    const bsbHere = refs.bsb.filter((u) => u.gospel === g)
    s.forEach((start, i) => {
      const end = (s[i + 1] ?? gospelVerseCount(g) + 1) - 1
      let origin: BsbUnit | undefined
      let best = 0
      for (const b of bsbHere) {
        const o = overlap(b, { gospel: g, start, end })
        if (o > best) {
          best = o
          origin = b
        }
      }
      if (origin === undefined) throw new Error(`${g} ${cv(g, start)} overlaps no BSB unit`)
      units.push({ gospel: g, start, end, key: unitKey(g, start), origin })
    })
  }
  if (units.length !== NARRATIVE_COUNT) throw new Error(`expected ${NARRATIVE_COUNT} narratives, the decisions give ${units.length}`)
  const byKey = new Map(units.map((u, i) => [u.key, i]))
  const indexOf = (key: string, ctx: string): number => {
    const i = byKey.get(key)
    if (i === undefined) throw new Error(`${ctx}: "${key}" is not the start of a narrative`)
    return i
  }

  // 4. Titles and slugs.
  const bsbTitles = new Set(refs.bsb.map((u) => titleWords(u.title)))
  const titleKeys = new Set(Object.keys(decisions.titles))
  const slugs = new Set<string>()
  const slugOf: string[] = []
  const titleOf: string[] = []
  for (const u of units) {
    const title = decisions.titles[u.key]
    if (title === undefined) throw new Error(`titles: no title for ${u.key}`)
    titleKeys.delete(u.key)
    if (bsbTitles.has(titleWords(title))) throw new Error(`titles: "${title}" (${u.key}) repeats a BSB heading`)
    const slug = decisions.published_slugs[u.key] ?? `${u.gospel}-${slugify(title)}`
    if (!SLUG_PATTERN.test(slug)) throw new Error(`slug ${slug} does not match the slug pattern`)
    if (slugs.has(slug)) throw new Error(`slug ${slug} is used twice`)
    slugs.add(slug)
    slugOf.push(slug)
    titleOf.push(title)
  }
  if (titleKeys.size > 0) throw new Error(`titles for units that do not exist: ${[...titleKeys].join(', ')}`)

  // 5. Links. Pairs are keyed "i|j" with i < j in canonical order.
  const pairKey = (i: number, j: number): string => (i < j ? `${i}|${j}` : `${j}|${i}`)
  const overlapping = (span: Span): number[] => {
    const out: number[] = []
    units.forEach((u, i) => {
      if (u.gospel === span.gospel && overlap(u, span) > 0) out.push(i)
    })
    return out
  }

  // 5a. BSB proposals, mapped onto our units by overlap of ranges.
  const bsbPairs = new Set<string>()
  const sameGospelRefs = new Set<string>()
  units.forEach((u, i) => {
    for (const p of u.origin.parallels) {
      if (p.gospel === u.gospel) {
        sameGospelRefs.add(`${u.origin.gospel} ${u.origin.seq} ${p.start}-${p.end}`)
        continue
      }
      for (const j of overlapping(p)) bsbPairs.add(pairKey(i, j))
    }
  })

  // 5b. Eusebius. A section counts for every unit holding at least two of its
  //     verses (or all of it); a verse spilling over a boundary is ignored,
  //     otherwise one long section would tie every neighbouring unit together.
  const landing = (span: Span): number[] => {
    const cands = overlapping(span)
    const need = Math.min(2, span.end - span.start + 1)
    const firm = cands.filter((i) => overlap(at(units, i), span) >= need)
    if (firm.length > 0) return firm
    const most = Math.max(...cands.map((i) => overlap(at(units, i), span)))
    return cands.filter((i) => overlap(at(units, i), span) === most)
  }
  const eusebius = new Map<string, Set<string>>()
  const eusebiusLinks = new Map<string, Set<number>>() // "unit gospel" -> units linked in that Gospel
  for (const row of refs.canonRows) {
    row.sections.forEach(([g1, s1], x) => {
      row.sections.slice(x + 1).forEach(([g2, s2]) => {
        const a = refs.ammonian.get(`${g1} ${s1}`)
        const b = refs.ammonian.get(`${g2} ${s2}`)
        if (a === undefined || b === undefined) return
        for (const i of landing(a)) {
          for (const j of landing(b)) {
            const k = pairKey(i, j)
            const set = eusebius.get(k) ?? new Set<string>()
            set.add(`canon ${row.canon}: ${g1} section ${s1} / ${g2} section ${s2}`)
            eusebius.set(k, set)
            for (const [p, q] of [
              [i, j],
              [j, i],
            ] as const) {
              const lk = `${p} ${at(units, q).gospel}`
              const ls = eusebiusLinks.get(lk) ?? new Set<number>()
              ls.add(q)
              eusebiusLinks.set(lk, ls)
            }
          }
        }
      })
    })
  }

  // 5c. Stevens and Burton: passages in one section are parallel. Its sections
  //     are coarse, so where Eusebius places BOTH units' parallels elsewhere in
  //     the other Gospel, the finer Eusebian placement wins.
  const stevensBurton = new Map<string, Set<string>>()
  for (const [section, passages] of [...refs.sbSections.entries()].sort((a, b) => Number(a[0]) - Number(b[0]))) {
    passages.forEach((p, x) => {
      passages.slice(x + 1).forEach((q) => {
        if (p.gospel === q.gospel) return
        for (const i of overlapping(p)) {
          for (const j of overlapping(q)) {
            const k = pairKey(i, j)
            const set = stevensBurton.get(k) ?? new Set<string>()
            set.add(`section ${section}`)
            stevensBurton.set(k, set)
          }
        }
      })
    })
  }
  const elsewhere = (i: number, j: number): boolean => {
    const ls = eusebiusLinks.get(`${i} ${at(units, j).gospel}`)
    return ls !== undefined && ls.size > 0 && !ls.has(j)
  }
  const sbConfirms = (k: string): boolean => {
    if (!stevensBurton.has(k)) return false
    const [i, j] = k.split('|').map(Number) as [number, number]
    return !(elsewhere(i, j) && elsewhere(j, i))
  }

  // 5d. Decide.
  const label = (i: number): string => {
    const u = at(units, i)
    return `${u.gospel} ${cv(u.gospel, u.start)}-${cv(u.gospel, u.end)}`
  }
  const linkReviews = new Map<string, LinkReview>()
  for (const r of decisions.link_reviews) {
    const i = indexOf(r.a, 'link_reviews')
    const j = indexOf(r.b, 'link_reviews')
    const k = pairKey(i, j)
    if (!bsbPairs.has(k)) throw new Error(`link_reviews: ${r.a} / ${r.b} is not a BSB-proposed link (use link_additions)`)
    if (linkReviews.has(k)) throw new Error(`link_reviews: ${r.a} / ${r.b} reviewed twice`)
    linkReviews.set(k, r)
  }
  const links = new Map<string, LinkInfo>()
  let droppedUnconfirmed = 0
  let droppedByHand = 0
  for (const k of [...bsbPairs].sort(comparePairs)) {
    const [i, j] = k.split('|').map(Number) as [number, number]
    const e = [...(eusebius.get(k) ?? [])].sort()
    const s = sbConfirms(k) ? [...(stevensBurton.get(k) ?? [])].sort() : []
    const r = linkReviews.get(k)
    const confirmed = e.length > 0 || s.length > 0
    if (r !== undefined && !r.keep) {
      droppedByHand++
      report.push(`link dropped by hand: ${label(i)} / ${label(j)}${confirmed ? ' (confirmed)' : ''}: ${r.reason}`)
      continue
    }
    if (!confirmed && r === undefined) {
      droppedUnconfirmed++
      report.push(`link dropped, unconfirmed: ${label(i)} / ${label(j)}`)
      continue
    }
    if (r !== undefined && confirmed) throw new Error(`link_reviews: ${r.a} / ${r.b} is confirmed; only unconfirmed links need a keep`)
    if (r !== undefined) report.push(`link kept by hand: ${label(i)} / ${label(j)}: ${r.reason}`)
    links.set(k, { fromBsb: true, eusebius: e, stevensBurton: s, handKept: r !== undefined, added: false })
  }
  for (const a of decisions.link_additions) {
    const i = indexOf(a.a, 'link_additions')
    const j = indexOf(a.b, 'link_additions')
    const k = pairKey(i, j)
    if (at(units, i).gospel === at(units, j).gospel) throw new Error(`link_additions: ${a.a} / ${a.b} are in the same Gospel`)
    if (bsbPairs.has(k)) throw new Error(`link_additions: ${a.a} / ${a.b} is proposed by the BSB; review it in link_reviews instead`)
    if (links.has(k)) throw new Error(`link_additions: ${a.a} / ${a.b} added twice`)
    const e = [...(eusebius.get(k) ?? [])].sort()
    const s = sbConfirms(k) ? [...(stevensBurton.get(k) ?? [])].sort() : []
    report.push(
      `link added: ${label(i)} / ${label(j)} [${e.length > 0 ? 'Eusebius' : ''}${e.length > 0 && s.length > 0 ? ', ' : ''}${s.length > 0 ? 'Stevens-Burton' : ''}${e.length + s.length === 0 ? 'hand only' : ''}]: ${a.reason}`,
    )
    links.set(k, { fromBsb: false, eusebius: e, stevensBurton: s, handKept: false, added: true })
  }
  const notAdopted = [...new Set([...eusebius.keys()])].filter((k) => !links.has(k) && !bsbPairs.has(k)).length

  // 6. Assemble.
  const parallels: number[][] = units.map(() => [])
  for (const k of links.keys()) {
    const [i, j] = k.split('|').map(Number) as [number, number]
    parallels[i]?.push(j)
    parallels[j]?.push(i)
  }
  const order: Record<Gospel, number> = { matthew: 0, mark: 0, luke: 0, john: 0 }
  const narratives: Narrative[] = units.map((u, i) => {
    order[u.gospel]++
    return {
      slug: at(slugOf, i),
      title: at(titleOf, i),
      gospel: u.gospel,
      start: verseAt(u.gospel, u.start),
      end: verseAt(u.gospel, u.end),
      verse_count: u.end - u.start + 1,
      order: order[u.gospel],
      parallels: [...(parallels[i] ?? [])].sort((a, b) => a - b).map((j) => at(slugOf, j)),
    }
  })

  const info = [...links.values()]
  const summary = [
    `narratives: ${narratives.length} (${GOSPELS.map((g) => `${g} ${order[g]}`).join(', ')})`,
    `verses: ${GOSPELS.map((g) => `${g} ${narratives.filter((n) => n.gospel === g).reduce((a, n) => a + n.verse_count, 0)}`).join(', ')}`,
    `boundaries: ${boundaryCandidates} refinement candidates, ${accepted.length} accepted, ${decisions.boundary_moves.length} moved by hand; ${decisions.splits.length} splits`,
    `links: ${links.size} (${info.filter((x) => x.fromBsb).length} from BSB, ${info.filter((x) => x.added).length} added from the harmonies)`,
    `  confirmed by Eusebius: ${info.filter((x) => x.eusebius.length > 0).length}`,
    `  confirmed by Stevens-Burton: ${info.filter((x) => x.stevensBurton.length > 0).length}`,
    `  confirmed by both: ${info.filter((x) => x.eusebius.length > 0 && x.stevensBurton.length > 0).length}`,
    `  by hand only (no independent confirmation): ${info.filter((x) => x.eusebius.length === 0 && x.stevensBurton.length === 0).length}`,
    `BSB proposals: ${bsbPairs.size} unit pairs; dropped ${droppedUnconfirmed} unconfirmed, ${droppedByHand} by hand; ${sameGospelRefs.size} same-Gospel references ignored`,
    `Eusebian pairs the BSB lacks and that were not added: ${notAdopted}`,
  ]
  return { narratives, summary, report }
}

function comparePairs(a: string, b: string): number {
  const [a1, a2] = a.split('|').map(Number) as [number, number]
  const [b1, b2] = b.split('|').map(Number) as [number, number]
  return a1 - b1 || a2 - b2
}

function at<T>(list: readonly T[], i: number): T {
  const v = list[i]
  if (v === undefined) throw new Error(`index ${i} out of range`)
  return v
}

/** The exact bytes written to narratives.json: 2-space JSON with a trailing newline. */
export function renderNarratives(narratives: readonly Narrative[]): string {
  return `${JSON.stringify(narratives, null, 2)}\n`
}

function main(argv: readonly string[]): void {
  const paths = defaultPaths()
  let referenceDir = paths.referenceDir
  let output = paths.output
  let showReport = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--report') showReport = true
    else if (arg === '--out') output = resolve(argv[++i] ?? '')
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`)
    else referenceDir = resolve(arg)
  }
  const result = buildNarratives(referenceDir, readFileSync(paths.decisions, 'utf8'))
  writeFileSync(output, renderNarratives(result.narratives))
  if (showReport) for (const line of result.report) console.log(line)
  console.log(`wrote ${output}`)
  for (const line of result.summary) console.log(line)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2))
}
