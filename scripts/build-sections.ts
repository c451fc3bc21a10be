/**
 * Builds the section outline of all 66 books, db/sections/sections.json.
 *
 *   npx tsx scripts/build-sections.ts [referenceDir] [--out file] [--draft]
 *
 * Source: `bsb_section_headings.csv` in ../shared/reference/sections (relative to the project
 * root; `referenceDir` overrides it): the `\s1` section headings of the Berean Standard Bible,
 * usfm-bible/examples.bsb at commit 48a9feb (2025-08-04), as 3,015 consecutive units in KJV
 * versification. The BSB, headings included, is dedicated to the public domain.
 *
 * What it derives:
 * - For the 62 books other than the Gospels, one section per BSB unit: the unit's start and end
 *   verse are taken as they are. The BSB's heading is never used as a title; it is read only to
 *   check that ours differ from it. Our titles are written by hand, one JSONL file per book in
 *   db/sections/titles/ (keyed by the unit's sequence number and range, see
 *   db/sections/README.md).
 * - For Matthew, Mark, Luke and John, the sections are the 548 narratives of
 *   db/narratives/narratives.json, with the narratives' slugs, titles and ranges.
 * - Every section's slug (`{book}-{title in lower case, hyphenated}`, as the narratives' slugs
 *   are made, unless a title line pins an earlier slug) and its verse count.
 *
 * The build fails unless every book is covered verse by verse exactly once, in order, against the
 * KJV versification of scripts/kjv-versification.ts (hand-entered, independent of the reference),
 * unless every unit has a title line whose range still matches it, and unless every slug is
 * unique. `--draft` (for use while titles are being written, never for the shipped table) gives
 * untitled units a placeholder instead of failing.
 *
 * Deterministic: no clock, no randomness, books in canonical order and units in text order, so
 * running it twice gives byte-identical output; test/data/sections.test.ts checks the committed
 * table against a fresh build.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { KJV_BOOKS } from './kjv-versification.js'
import { BOOKS } from '../src/verses/books.js'
import { NARRATIVES_FILE, SECTIONS_FILE } from '../src/seed/seed-files.js'

/** The Gospels, whose sections are the narratives. */
export const GOSPEL_BOOKS: readonly string[] = ['matthew', 'mark', 'luke', 'john']

/** Units in the reference table (all 66 books). */
export const REFERENCE_UNIT_COUNT = 3015

/** Narratives, which are the Gospels' sections. */
export const NARRATIVE_COUNT = 548

/** The fewest and most words a title we write may have. */
export const TITLE_WORDS = { min: 2, max: 8 } as const

/** A verse inside one book. */
export interface VerseRef {
  chapter: number
  verse: number
}

/** One row of the reference table. */
export interface ReferenceUnit {
  readonly book: string
  readonly seq: number
  /** The BSB heading: read only to check that our title differs from it. */
  readonly title: string
  readonly start: VerseRef
  readonly end: VerseRef
}

/** One row of sections.json. The key order here is the output key order. */
export interface Section {
  slug: string
  title: string
  book: string
  seq: number
  start: VerseRef
  end: VerseRef
  verse_count: number
}

/** One line of a book's titles file. */
export interface TitleLine {
  readonly seq: number
  /** The unit's range as `c:v-c:v`, so a title can never slide onto another unit. */
  readonly range: string
  readonly title: string
  /** A published slug kept after its title was reworded (see db/sections/README.md). */
  readonly slug?: string
}

/** What a build gives. */
export interface BuildResult {
  readonly sections: Section[]
  /** `book seq` of every unit still without a title (only with `draft`). */
  readonly untitled: string[]
  readonly summary: string[]
}

/** The inputs of a build, as text, so tests can build from the committed files or from variants. */
export interface BuildInputs {
  /** bsb_section_headings.csv. */
  readonly referenceCsv: string
  /** db/narratives/narratives.json. */
  readonly narrativesJson: string
  /** Book slug to the text of its titles file; a book with no file is absent. */
  readonly titles: ReadonlyMap<string, string>
  /** Placeholders for units without a title instead of failing (while titles are being written). */
  readonly draft?: boolean
}

/** Section slugs: lower-case words and numbers joined by hyphens, the book slug first. */
export const SECTION_SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/

// ---------------------------------------------------------------------------
// Versification: verses are numbered 1..total within each book ("ordinals") so that
// ranges, gaps and overlaps are integer arithmetic.

/** Verse count of each chapter of a book (by slug), from the hand-entered KJV table. */
export function chapterCounts(book: string): readonly number[] {
  const info = BOOKS.find((b) => b.slug === book)
  const kjv = info === undefined ? undefined : KJV_BOOKS[info.position - 1]
  if (kjv === undefined) throw new Error(`unknown book ${book}`)
  return kjv.verses
}

/**
 * Ordinal (1-based, counted through the whole book) of a verse.
 * Throws if the verse does not exist in KJV versification.
 */
export function verseOrdinal(book: string, ref: VerseRef): number {
  const counts = chapterCounts(book)
  const inChapter = counts[ref.chapter - 1]
  if (inChapter === undefined || !Number.isInteger(ref.verse) || ref.verse < 1 || ref.verse > inChapter) {
    throw new Error(`${book} ${ref.chapter}:${ref.verse} is not a KJV verse`)
  }
  let n = ref.verse
  for (let c = 0; c < ref.chapter - 1; c++) n += counts[c] ?? 0
  return n
}

/** Number of verses in a book. */
export function bookVerseCount(book: string): number {
  return chapterCounts(book).reduce((a, b) => a + b, 0)
}

function parseRef(text: string, where: string): VerseRef {
  const match = /^([1-9][0-9]*):([1-9][0-9]*)$/.exec(text)
  if (match === null) throw new Error(`${where}: bad verse "${text}"`)
  return { chapter: Number(match[1]), verse: Number(match[2]) }
}

/** `1:1-2:3`, the form title lines use. */
export function rangeText(start: VerseRef, end: VerseRef): string {
  return `${start.chapter}:${start.verse}-${end.chapter}:${end.verse}`
}

// ---------------------------------------------------------------------------
// Titles and slugs

/**
 * Lower case, accents and apostrophes dropped, every other run of non-alphanumerics a hyphen:
 * the rule the narratives' slugs follow, so the Gospel sections and the rest read alike.
 * @example slugify("Jacob's Ladder") // 'jacobs-ladder'
 */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019\u02bc]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/**
 * A title's words for comparison: capitals, apostrophes and punctuation ignored, so a BSB
 * heading copied with other capitals or apostrophes is still caught.
 */
export function titleKey(title: string): string {
  return slugify(title).replace(/-/g, ' ')
}

/** The number of words of a title (runs separated by spaces). */
export function wordCount(title: string): number {
  return title
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '').length
}

// ---------------------------------------------------------------------------
// Reading the inputs

/** Parses RFC 4180 CSV (quoted fields may hold commas, doubled quotes and newlines). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      row.push(field)
      field = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += ch
  }
  if (quoted) throw new Error('CSV ends inside a quoted field')
  if (field !== '' || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows
}

/**
 * The reference units, checked: known books in canonical order, sequence numbers 1..n within
 * each book, and every book covered exactly, with no gap or overlap.
 */
export function readReferenceUnits(csv: string): ReferenceUnit[] {
  const [header, ...rows] = parseCsv(csv)
  if (header?.join(',') !== 'book,seq,title,start,end') throw new Error(`reference CSV header is "${header?.join(',') ?? ''}"`)
  const units = rows.map((cells, i): ReferenceUnit => {
    const where = `reference row ${i + 2}`
    if (cells.length !== 5) throw new Error(`${where}: ${cells.length} fields`)
    const [book = '', seq = '', title = '', start = '', end = ''] = cells
    return { book, seq: Number(seq), title, start: parseRef(start, where), end: parseRef(end, where) }
  })
  if (units.length !== REFERENCE_UNIT_COUNT) throw new Error(`reference has ${units.length} units, expected ${REFERENCE_UNIT_COUNT}`)
  const order = BOOKS.map((b) => b.slug)
  const books = [...new Set(units.map((u) => u.book))]
  if (books.join(',') !== order.join(',')) throw new Error('reference books are not the 66 books in canonical order')
  for (const book of order) {
    const own = units.filter((u) => u.book === book)
    checkPartition(
      book,
      own.map((u, i) => {
        if (u.seq !== i + 1) throw new Error(`reference ${book}: unit ${i + 1} has seq ${u.seq}`)
        return { start: u.start, end: u.end, label: `${book} ${u.seq}` }
      }),
    )
  }
  return units
}

/** Throws unless the ranges cover the book from its first verse to its last, in order, once each. */
function checkPartition(book: string, ranges: ReadonlyArray<{ start: VerseRef; end: VerseRef; label: string }>): void {
  let next = 1
  for (const range of ranges) {
    const from = verseOrdinal(book, range.start)
    const to = verseOrdinal(book, range.end)
    if (from !== next) throw new Error(`${range.label} starts at ${range.start.chapter}:${range.start.verse}: ${from < next ? 'overlap' : 'gap'}`)
    if (to < from) throw new Error(`${range.label} ends before it starts`)
    next = to + 1
  }
  if (next !== bookVerseCount(book) + 1) throw new Error(`${book}: the units end at verse ${next - 1} of ${bookVerseCount(book)}`)
}

/** Parses a book's titles file: one JSON object per line, blank lines ignored. */
export function parseTitleLines(book: string, text: string): TitleLine[] {
  return text.split('\n').flatMap((line, i): TitleLine[] => {
    if (line.trim() === '') return []
    const where = `titles/${book}.jsonl line ${i + 1}`
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      throw new Error(`${where}: not JSON`)
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where}: not an object`)
    const row = value as Record<string, unknown>
    const extra = Object.keys(row).filter((k) => !['seq', 'range', 'title', 'slug'].includes(k))
    if (extra.length > 0) throw new Error(`${where}: unknown keys ${extra.join(', ')}`)
    const { seq, range, title, slug } = row
    if (typeof seq !== 'number' || !Number.isInteger(seq) || typeof range !== 'string' || typeof title !== 'string')
      throw new Error(`${where}: needs seq, range and title`)
    if (slug !== undefined && typeof slug !== 'string') throw new Error(`${where}: slug must be a string`)
    return [slug === undefined ? { seq, range, title } : { seq, range, title, slug }]
  })
}

interface NarrativeRow {
  slug: string
  title: string
  gospel: string
  start: VerseRef
  end: VerseRef
  order: number
}

function readNarratives(json: string): NarrativeRow[] {
  const rows: unknown = JSON.parse(json)
  if (!Array.isArray(rows)) throw new Error('narratives.json is not an array')
  return rows.map((x: unknown, i): NarrativeRow => {
    const r = x as Record<string, unknown>
    const start = r['start'] as VerseRef | undefined
    const end = r['end'] as VerseRef | undefined
    if (
      typeof r['slug'] !== 'string' ||
      typeof r['title'] !== 'string' ||
      typeof r['gospel'] !== 'string' ||
      typeof r['order'] !== 'number' ||
      start === undefined ||
      end === undefined
    ) {
      throw new Error(`narrative ${i}: bad row`)
    }
    return {
      slug: r['slug'],
      title: r['title'],
      gospel: r['gospel'],
      start: { chapter: start.chapter, verse: start.verse },
      end: { chapter: end.chapter, verse: end.verse },
      order: r['order'],
    }
  })
}

// ---------------------------------------------------------------------------
// The build

function checkTitle(where: string, title: string, bsb: string): void {
  if (title !== title.trim() || /\s{2}/.test(title)) throw new Error(`${where}: stray spaces in "${title}"`)
  const words = wordCount(title)
  if (words < TITLE_WORDS.min || words > TITLE_WORDS.max) throw new Error(`${where}: "${title}" has ${words} words (${TITLE_WORDS.min}-${TITLE_WORDS.max})`)
  // Each half of a joined BSB heading ("A / B") counts as a heading of its own.
  const headings = [bsb, ...bsb.split(' / ')].map(titleKey)
  if (headings.includes(titleKey(title))) throw new Error(`${where}: "${title}" is the BSB heading`)
}

/**
 * Builds the table from the inputs.
 * @throws Error on any gap, overlap, missing or stale title, or repeated slug.
 */
export function buildSections(inputs: BuildInputs): BuildResult {
  const units = readReferenceUnits(inputs.referenceCsv)
  const narratives = readNarratives(inputs.narrativesJson)
  if (narratives.length !== NARRATIVE_COUNT) throw new Error(`narratives.json has ${narratives.length} rows, expected ${NARRATIVE_COUNT}`)
  const unknownFiles = [...inputs.titles.keys()].filter((book) => !BOOKS.some((b) => b.slug === book) || GOSPEL_BOOKS.includes(book))
  if (unknownFiles.length > 0) throw new Error(`titles files for no titled book: ${unknownFiles.join(', ')}`)

  const sections: Section[] = []
  const untitled: string[] = []
  const summary: string[] = []
  for (const { slug: book } of BOOKS) {
    let own: Section[]
    if (GOSPEL_BOOKS.includes(book)) {
      own = narratives
        .filter((n) => n.gospel === book)
        .sort((a, b) => a.order - b.order)
        .map((n, i) => ({ slug: n.slug, title: n.title, book, seq: i + 1, start: n.start, end: n.end, verse_count: 0 }))
    } else {
      const bookUnits = units.filter((u) => u.book === book)
      const text = inputs.titles.get(book)
      const lines = text === undefined ? [] : parseTitleLines(book, text)
      const bySeq = new Map<number, TitleLine>()
      for (const line of lines) {
        if (bySeq.has(line.seq)) throw new Error(`titles/${book}.jsonl: seq ${line.seq} twice`)
        if (line.seq < 1 || line.seq > bookUnits.length) throw new Error(`titles/${book}.jsonl: seq ${line.seq} names no unit (${bookUnits.length})`)
        bySeq.set(line.seq, line)
      }
      if (lines.map((l) => l.seq).join(',') !== [...bySeq.keys()].sort((a, b) => a - b).join(',')) throw new Error(`titles/${book}.jsonl: lines out of order`)
      own = bookUnits.map((unit) => {
        const where = `${book} ${unit.seq}`
        const line = bySeq.get(unit.seq)
        const range = rangeText(unit.start, unit.end)
        if (line === undefined) {
          if (inputs.draft !== true) throw new Error(`${where} (${range}) has no title`)
          untitled.push(where)
          return {
            slug: `${book}-untitled-s${unit.seq}`,
            title: `Untitled section ${unit.seq}`,
            book,
            seq: unit.seq,
            start: unit.start,
            end: unit.end,
            verse_count: 0,
          }
        }
        if (line.range !== range) throw new Error(`${where}: title line says ${line.range}, the unit is ${range}`)
        checkTitle(where, line.title, unit.title)
        return { slug: line.slug ?? `${book}-${slugify(line.title)}`, title: line.title, book, seq: unit.seq, start: unit.start, end: unit.end, verse_count: 0 }
      })
    }
    checkPartition(
      book,
      own.map((s) => ({ start: s.start, end: s.end, label: `${book} section ${s.seq}` })),
    )
    for (const s of own) {
      s.verse_count = verseOrdinal(book, s.end) - verseOrdinal(book, s.start) + 1
      if (!SECTION_SLUG_PATTERN.test(s.slug) || !s.slug.startsWith(`${book}-`)) throw new Error(`${book} ${s.seq}: bad slug ${s.slug}`)
    }
    sections.push(...own)
    summary.push(`${book} ${own.length}`)
  }
  const seen = new Set<string>()
  for (const s of sections) {
    if (seen.has(s.slug)) throw new Error(`slug ${s.slug} is used twice`)
    seen.add(s.slug)
  }
  return {
    sections,
    untitled,
    summary: [
      `sections: ${sections.length} (${sections.length - NARRATIVE_COUNT} titled here, ${NARRATIVE_COUNT} narratives)${untitled.length > 0 ? `, ${untitled.length} untitled (draft)` : ''}`,
      summary.join(', '),
    ],
  }
}

/** The table as written to disk: one section per line, so a change shows as a one-line diff. */
export function renderSections(sections: readonly Section[]): string {
  return `[\n${sections.map((s) => `  ${JSON.stringify(s)}`).join(',\n')}\n]\n`
}

/** Where the inputs and the output are by default. */
export function defaultPaths(): { root: string; referenceDir: string; narratives: string; titlesDir: string; output: string } {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  return {
    root,
    referenceDir: resolve(root, '../shared/reference/sections'),
    narratives: resolve(root, NARRATIVES_FILE),
    titlesDir: resolve(root, 'db/sections/titles'),
    output: resolve(root, SECTIONS_FILE),
  }
}

/** Every titles file that exists in a folder, by book. */
export function readTitleFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const { slug } of BOOKS) {
    const path = resolve(dir, `${slug}.jsonl`)
    if (existsSync(path)) files.set(slug, readFileSync(path, 'utf8'))
  }
  return files
}

function main(argv: readonly string[]): void {
  const paths = defaultPaths()
  let referenceDir = paths.referenceDir
  let output = paths.output
  let draft = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--draft') draft = true
    else if (arg === '--out') output = resolve(argv[++i] ?? '')
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`)
    else referenceDir = resolve(arg)
  }
  const result = buildSections({
    referenceCsv: readFileSync(resolve(referenceDir, 'bsb_section_headings.csv'), 'utf8'),
    narrativesJson: readFileSync(paths.narratives, 'utf8'),
    titles: readTitleFiles(paths.titlesDir),
    draft,
  })
  writeFileSync(output, renderSections(result.sections))
  console.log(`wrote ${output}`)
  for (const line of result.summary) console.log(line)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2))
}
