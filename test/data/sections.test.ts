/**
 * The section outline (db/sections): coverage of every KJV verse, order, titles and the
 * Gospels' sections. Each check is a function that returns its problems, applied to the
 * shipped data (no problem expected) and to a broken copy (a problem expected), so that
 * every assertion is shown able to fail.
 */
import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  GOSPEL_BOOKS,
  NARRATIVE_COUNT,
  REFERENCE_UNIT_COUNT,
  TITLE_WORDS,
  buildSections,
  defaultPaths,
  parseTitleLines,
  rangeText,
  readReferenceUnits,
  readTitleFiles,
  renderSections,
  titleKey,
  type ReferenceUnit,
  type Section,
  type TitleLine,
} from '../../scripts/build-sections.js'
import { findBroadArchaicForms } from '../../src/text/archaic.js'
import { projectPath } from '../../src/infra/paths.js'
import { readKjvSeed } from '../../src/seed/kjv-seed.js'
import { KJV_SEED_FILE } from '../../src/seed/seed-files.js'
import { findBritishSpellings } from '../../src/text/american-spelling.js'
import { BOOKS } from '../../src/verses/books.js'

/**
 * Titles used twice in one book on purpose, by book, with the reason. Every other title is
 * unique within its book (their slugs are unique across the whole outline in any case).
 */
const JUSTIFIED_DUPLICATES: Readonly<Record<string, Readonly<Record<string, string>>>> = {}

const paths = defaultPaths()
const sectionsFile = fileURLToPath(new URL('../../db/sections/sections.json', import.meta.url))
const referenceCsv = resolveReference()
const KEYS = ['slug', 'title', 'book', 'seq', 'start', 'end', 'verse_count']

function resolveReference(): string | undefined {
  const file = `${paths.referenceDir}/bsb_section_headings.csv`
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined
}

function isRef(x: unknown): x is { chapter: number; verse: number } {
  if (typeof x !== 'object' || x === null) return false
  const r = x as Record<string, unknown>
  return Object.keys(r).join(',') === 'chapter,verse' && Number.isInteger(r['chapter']) && Number.isInteger(r['verse'])
}

// Checks every row's shape so the checks below can rely on the types instead of trusting JSON.parse.
function toSection(x: unknown, i: number): Section {
  if (typeof x !== 'object' || x === null) throw new Error(`row ${i}: not an object`)
  const r = x as Record<string, unknown>
  if (Object.keys(r).join(',') !== KEYS.join(',')) throw new Error(`row ${i}: keys ${Object.keys(r).join(',')}`)
  const { slug, title, book, seq, start, end, verse_count: count } = r
  if (typeof slug !== 'string' || typeof title !== 'string' || typeof book !== 'string' || typeof seq !== 'number' || typeof count !== 'number')
    throw new Error(`row ${i}: bad fields`)
  if (!isRef(start) || !isRef(end)) throw new Error(`row ${i}: bad range`)
  return { slug, title, book, seq, start, end, verse_count: count }
}

const raw: unknown = JSON.parse(readFileSync(sectionsFile, 'utf8'))
if (!Array.isArray(raw)) throw new Error('sections.json is not an array')
const sections: Section[] = raw.map((x: unknown, i) => toSection(x, i))

// The seeded KJV is the authority on which verses exist.
const seed = readKjvSeed(projectPath(KJV_SEED_FILE)).verses
const seedCounts = new Map<string, number[]>()
for (const v of seed) {
  const book = BOOKS[v.book - 1]
  if (book === undefined) throw new Error(`seed verse in book ${v.book}`)
  const counts = seedCounts.get(book.slug) ?? []
  counts[v.chapter - 1] = Math.max(counts[v.chapter - 1] ?? 0, v.verse)
  seedCounts.set(book.slug, counts)
}

const narratives = JSON.parse(readFileSync(paths.narratives, 'utf8')) as Array<{
  slug: string
  title: string
  gospel: string
  start: { chapter: number; verse: number }
  end: { chapter: number; verse: number }
  order: number
}>
const titleFiles = readTitleFiles(paths.titlesDir)
const titleLines = new Map<string, TitleLine[]>([...titleFiles].map(([book, text]) => [book, parseTitleLines(book, text)]))
const units: ReferenceUnit[] = referenceCsv === undefined ? [] : readReferenceUnits(referenceCsv)
const titledBooks = BOOKS.map((b) => b.slug).filter((b) => !GOSPEL_BOOKS.includes(b))

// ---------------------------------------------------------------------------
// Checks: each returns a list of problems (empty when the data passes).

/** Every verse of the seed in exactly one section, and no section verse outside the seed. */
function coverageProblems(rows: readonly Section[]): string[] {
  const problems: string[] = []
  const hits = new Map<string, number>()
  for (const s of rows) {
    const counts = seedCounts.get(s.book)
    if (counts === undefined) {
      problems.push(`${s.slug}: unknown book ${s.book}`)
      continue
    }
    let n = 0
    for (let c = s.start.chapter; c <= s.end.chapter; c++) {
      const first = c === s.start.chapter ? s.start.verse : 1
      const last = c === s.end.chapter ? s.end.verse : (counts[c - 1] ?? 0)
      for (let v = first; v <= last; v++) {
        if (v > (counts[c - 1] ?? 0)) problems.push(`${s.slug}: ${s.book} ${c}:${v} is not a KJV verse`)
        const key = `${s.book} ${c}:${v}`
        hits.set(key, (hits.get(key) ?? 0) + 1)
        n++
      }
    }
    if (n === 0) problems.push(`${s.slug}: empty`)
    if (n !== s.verse_count) problems.push(`${s.slug}: verse_count ${s.verse_count}, holds ${n}`)
  }
  for (const v of seed) {
    const key = `${BOOKS[v.book - 1]?.slug ?? '?'} ${v.chapter}:${v.verse}`
    const n = hits.get(key) ?? 0
    if (n !== 1) problems.push(`${key} is in ${n} sections`)
  }
  return problems
}

/** Books in canonical order, seq 1..n within each, each section starting after the one before. */
function orderProblems(rows: readonly Section[]): string[] {
  const problems: string[] = []
  const bookOrder = rows.map((s) => BOOKS.findIndex((b) => b.slug === s.book))
  for (let i = 1; i < bookOrder.length; i++)
    if ((bookOrder[i] ?? 0) < (bookOrder[i - 1] ?? 0)) problems.push(`row ${i} (${rows[i]?.slug ?? ''}) is out of book order`)
  for (const book of BOOKS) {
    const own = rows.filter((s) => s.book === book.slug)
    if (own.length === 0) problems.push(`${book.slug} has no sections`)
    own.forEach((s, i) => {
      if (s.seq !== i + 1) problems.push(`${s.slug}: seq ${s.seq}, position ${i + 1}`)
      const before = own[i - 1]
      const after = (a: Section['start'], b: Section['start']): boolean => a.chapter > b.chapter || (a.chapter === b.chapter && a.verse > b.verse)
      if (before !== undefined && !after(s.start, before.end)) problems.push(`${s.slug} does not start after ${before.slug}`)
      if (after(s.start, s.end)) problems.push(`${s.slug} ends before it starts`)
    })
  }
  return problems
}

/** Slugs: unique, URL-safe, the book first, and never shaped like a verse or passage slug. */
function slugProblems(rows: readonly Section[]): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  for (const s of rows) {
    if (seen.has(s.slug)) problems.push(`${s.slug} twice`)
    seen.add(s.slug)
    const rest = s.slug.startsWith(`${s.book}-`) ? s.slug.slice(s.book.length + 1) : undefined
    if (rest === undefined || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(rest)) problems.push(`${s.slug}: not {book}-{words}`)
    if (/-[0-9]+(-[0-9]+)?$/.test(s.slug)) problems.push(`${s.slug}: ends like a verse or passage slug`)
  }
  return problems
}

/** Our titles: present, within the word bound, American, modern, not the BSB's, unique within a book. */
function titleProblems(lines: ReadonlyMap<string, readonly TitleLine[]>, refUnits: readonly ReferenceUnit[], requireAll: boolean): string[] {
  const problems: string[] = []
  for (const book of titledBooks) {
    const own = lines.get(book) ?? []
    const bookUnits = refUnits.filter((u) => u.book === book)
    if (requireAll && own.length !== bookUnits.length) problems.push(`${book}: ${own.length} titles for ${bookUnits.length} units`)
    const seen = new Map<string, number>()
    for (const line of own) {
      const where = `${book} ${line.seq}`
      const unit = bookUnits[line.seq - 1]
      if (unit === undefined) {
        problems.push(`${where}: no such unit`)
        continue
      }
      if (line.range !== rangeText(unit.start, unit.end)) problems.push(`${where}: range ${line.range}, unit ${rangeText(unit.start, unit.end)}`)
      const title = line.title
      if (title.trim() === '') problems.push(`${where}: empty title`)
      const words = title.trim().split(/\s+/).length
      if (words < TITLE_WORDS.min || words > TITLE_WORDS.max) problems.push(`${where}: "${title}" has ${words} words`)
      if (title.trim().toLowerCase() === unit.title.trim().toLowerCase()) problems.push(`${where}: "${title}" is the BSB heading`)
      if (titleKey(title) === titleKey(unit.title)) problems.push(`${where}: "${title}" is the BSB heading but for punctuation`)
      const british = findBritishSpellings(title)
      if (british.length > 0) problems.push(`${where}: British spelling ${british.map((b) => b.found).join(', ')}`)
      const archaic = findBroadArchaicForms(title)
      if (archaic.length > 0) problems.push(`${where}: archaic ${archaic.join(', ')}`)
      if (!/^[A-Z0-9"]/.test(title)) problems.push(`${where}: "${title}" does not start with a capital`)
      if (/[.;:]$/.test(title)) problems.push(`${where}: "${title}" ends with punctuation`)
      const key = title.toLowerCase()
      seen.set(key, (seen.get(key) ?? 0) + 1)
    }
    for (const [key, n] of seen) {
      const justified = Object.keys(JUSTIFIED_DUPLICATES[book] ?? {}).map((k) => k.toLowerCase())
      if (n > 1 && !justified.includes(key)) problems.push(`${book}: "${key}" is used ${n} times`)
    }
  }
  return problems
}

/** The table agrees with its sources: BSB boundaries and our titles outside the Gospels, narratives inside. */
function sourceProblems(rows: readonly Section[], lines: ReadonlyMap<string, readonly TitleLine[]>, refUnits: readonly ReferenceUnit[]): string[] {
  const problems: string[] = []
  for (const book of titledBooks) {
    const own = rows.filter((s) => s.book === book)
    const bookUnits = refUnits.filter((u) => u.book === book)
    if (own.length !== bookUnits.length) problems.push(`${book}: ${own.length} sections, ${bookUnits.length} units`)
    for (const [i, unit] of bookUnits.entries()) {
      const s = own[i]
      if (s === undefined) continue
      if (rangeText(s.start, s.end) !== rangeText(unit.start, unit.end))
        problems.push(`${s.slug}: ${rangeText(s.start, s.end)}, unit ${rangeText(unit.start, unit.end)}`)
      const line = lines.get(book)?.find((l) => l.seq === unit.seq)
      if (line !== undefined && s.title !== line.title) problems.push(`${s.slug}: title "${s.title}", titles file "${line.title}"`)
      if (titleKey(s.title) === titleKey(unit.title)) problems.push(`${s.slug}: served title is the BSB heading`)
    }
  }
  for (const gospel of GOSPEL_BOOKS) {
    const own = rows.filter((s) => s.book === gospel)
    const told = narratives.filter((n) => n.gospel === gospel).sort((a, b) => a.order - b.order)
    if (own.length !== told.length) problems.push(`${gospel}: ${own.length} sections, ${told.length} narratives`)
    for (const [i, n] of told.entries()) {
      const s = own[i]
      if (s === undefined) continue
      const same = s.slug === n.slug && s.title === n.title && rangeText(s.start, s.end) === rangeText(n.start, n.end)
      if (!same) problems.push(`${gospel} section ${i + 1} (${s.slug}) is not the narrative ${n.slug}`)
    }
  }
  return problems
}

// ---------------------------------------------------------------------------

t.test('the outline has every unit: 2,528 of ours and the 548 narratives', async (t) => {
  // The reference table lives outside the repository (../shared); without it the two counts below still hold.
  if (referenceCsv !== undefined) t.equal(sections.length, REFERENCE_UNIT_COUNT - units.filter((u) => GOSPEL_BOOKS.includes(u.book)).length + NARRATIVE_COUNT)
  t.equal(sections.filter((s) => GOSPEL_BOOKS.includes(s.book)).length, 548)
  t.equal(sections.filter((s) => !GOSPEL_BOOKS.includes(s.book)).length, 2528)
  t.equal(seed.length, 31102, 'the seed has the whole KJV')
})

t.test('every verse of all 66 books is in exactly one section', async (t) => {
  t.same(coverageProblems(sections), [])
  const gap = sections.filter((s) => s.slug !== sections[10]?.slug)
  t.match(coverageProblems(gap).join('\n'), /is in 0 sections/, 'a missing section leaves verses uncovered')
  const later = sections.findIndex((s, i) => i > 0 && s.start.verse > 1)
  const overlap = sections.map((s, i) => (i === later ? { ...s, start: { ...s.start, verse: s.start.verse - 1 }, verse_count: s.verse_count + 1 } : s))
  t.match(coverageProblems(overlap).join('\n'), /is in 2 sections/, 'an overlap is found')
  const past = sections.map((s, i) => (i === 0 ? { ...s, end: { chapter: 1, verse: 40 } } : s))
  t.match(coverageProblems(past).join('\n'), /is not a KJV verse/, 'a verse the KJV lacks is found')
})

t.test('sections are in canonical order and in text order within each book', async (t) => {
  t.same(orderProblems(sections), [])
  const swapped = [...sections]
  ;[swapped[3], swapped[4]] = [sections[4] as Section, sections[3] as Section]
  t.ok(orderProblems(swapped).length > 0, 'two sections swapped are found')
  t.ok(orderProblems([...sections].reverse()).length > 0, 'books out of order are found')
})

t.test('slugs are unique, readable and URL-safe', async (t) => {
  t.same(slugProblems(sections), [])
  const first = sections[0] as Section
  t.ok(slugProblems([first, { ...first, seq: 2 }]).length > 0, 'a repeated slug is found')
  t.ok(slugProblems([{ ...first, slug: 'genesis-1-1' }]).length > 0, 'a verse-shaped slug is found')
  t.ok(slugProblems([{ ...first, slug: 'exodus-creation' }]).length > 0, "another book's prefix is found")
})

t.test(
  'our titles: present, 2-8 words, our own wording, American and modern, unique within a book',
  { skip: referenceCsv === undefined ? 'reference CSV not found' : false },
  async (t) => {
    t.same(titleProblems(titleLines, units, true), [])
    const untitled = titledBooks.filter((book) => (titleLines.get(book)?.length ?? 0) !== units.filter((u) => u.book === book).length)
    t.same(untitled, [], 'every book has every title')
    const genesis1 = units.find((u) => u.book === 'genesis' && u.seq === 1) as ReferenceUnit
    const bad = (title: string, requireAll = false): string =>
      titleProblems(new Map([['genesis', [{ seq: 1, range: '1:1-1:31', title }]]]), units, requireAll).join('\n')
    t.match(bad(genesis1.title.toUpperCase()), /is the BSB heading/, 'the BSB heading in other capitals is refused')
    t.match(bad(''), /empty title/)
    t.match(bad('Creation'), /has 1 words/)
    t.match(bad('God makes the heavens and the earth in six days'), /has 10 words/)
    t.match(bad('The Saviour of the world'), /British spelling Saviour/)
    t.match(bad('God speaketh and it is done'), /archaic speaketh/)
    t.match(bad('God makes the world', true), /genesis: 1 titles for 135 units/, 'missing titles are found when every title is required')
    const twice = titleProblems(
      new Map([
        [
          'genesis',
          [
            { seq: 1, range: '1:1-1:31', title: 'God makes the world' },
            { seq: 2, range: '2:1-2:3', title: 'God makes the world' },
          ],
        ],
      ]),
      units,
      false,
    )
    t.match(twice.join('\n'), /used 2 times/, 'a repeated title is found')
    const slid = titleProblems(new Map([['genesis', [{ seq: 1, range: '1:1-2:3', title: 'God makes the world' }]]]), units, false)
    t.match(slid.join('\n'), /range 1:1-2:3/, 'a title line whose range no longer matches is found')
  },
)

t.test(
  'the table follows its sources: BSB boundaries, our titles, and the narratives in the Gospels',
  { skip: referenceCsv === undefined ? 'reference CSV not found' : false },
  async (t) => {
    t.same(sourceProblems(sections, titleLines, units), [])
    const john = sections.findIndex((s) => s.book === 'john')
    const renamed = sections.map((s, i) => (i === john ? { ...s, title: 'Something else' } : s))
    t.match(sourceProblems(renamed, titleLines, units).join('\n'), /is not the narrative/, 'a Gospel section that is not its narrative is found')
    const moved = sections.map((s, i) => (i === 0 ? { ...s, end: { chapter: 1, verse: 30 } } : s))
    t.match(sourceProblems(moved, titleLines, units).join('\n'), /unit 1:1-1:31/, "a boundary that is not the reference's is found")
    const bsb = sections.map((s, i) => (i === 0 ? { ...s, title: units[0]?.title ?? '' } : s))
    t.match(sourceProblems(bsb, titleLines, units).join('\n'), /served title is the BSB heading/)
  },
)

t.test('sections.json is what the build script produces', { skip: referenceCsv === undefined ? 'reference CSV not found' : false }, async (t) => {
  const inputs = { referenceCsv: referenceCsv ?? '', narrativesJson: readFileSync(paths.narratives, 'utf8'), titles: titleFiles, draft: false }
  t.equal(renderSections(buildSections(inputs).sections), readFileSync(sectionsFile, 'utf8'), 'byte-identical rebuild')
  t.equal(renderSections(buildSections(inputs).sections), renderSections(buildSections(inputs).sections), 'deterministic')
  t.same(buildSections(inputs).untitled, [])

  // The build refuses broken inputs rather than writing a broken table.
  const csv = referenceCsv ?? ''
  t.throws(() => buildSections({ ...inputs, referenceCsv: csv.replace('\ngenesis,2,', '\ngenesis,3,') }), /seq/, 'a sequence gap')
  t.throws(() => buildSections({ ...inputs, referenceCsv: csv.replace('The Seventh Day,2:1,', 'The Seventh Day,2:2,') }), /gap/, 'a verse gap')
  t.throws(() => buildSections({ ...inputs, draft: false, titles: new Map() }), /has no title/, 'a missing title')
  const genesis = (title: string): Map<string, string> => new Map([['genesis', `${JSON.stringify({ seq: 1, range: '1:1-1:31', title })}\n`]])
  t.throws(() => buildSections({ ...inputs, titles: genesis(units[0]?.title ?? '') }), /is the BSB heading/, 'a BSB heading')
  t.throws(() => buildSections({ ...inputs, titles: genesis('Creation') }), /has 1 words/, 'too short a title')
  t.throws(
    () => buildSections({ ...inputs, titles: new Map([['genesis', `${JSON.stringify({ seq: 1, range: '1:1-1:30', title: 'God makes the world' })}\n`]]) }),
    /the unit is 1:1-1:31/,
    'a stale range',
  )
  t.throws(() => buildSections({ ...inputs, titles: new Map([['matthew', '']]) }), /titles files for no titled book/, 'titles for a Gospel')
})
