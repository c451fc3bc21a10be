import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  GOSPELS,
  KJV_GOSPEL_CHAPTERS,
  KJV_GOSPEL_TOTALS,
  NARRATIVE_COUNT,
  SLUG_PATTERN,
  buildNarratives,
  defaultPaths,
  renderNarratives,
  type Gospel,
  type Narrative,
  type VerseRef,
} from '../../scripts/build-narratives.js'
import { findBritishSpellings } from '../../src/text/american-spelling.js'

const narrativesFile = fileURLToPath(new URL('../../db/narratives/narratives.json', import.meta.url))
const decisionsFile = fileURLToPath(new URL('../../db/narratives/decisions.json', import.meta.url))
const versificationFile = fileURLToPath(new URL('../../scripts/kjv-versification.ts', import.meta.url))

const KEYS = ['slug', 'title', 'gospel', 'start', 'end', 'verse_count', 'order', 'parallels']

function isRef(x: unknown): x is VerseRef {
  if (typeof x !== 'object' || x === null) return false
  const r = x as Record<string, unknown>
  return Object.keys(r).join(',') === 'chapter,verse' && Number.isInteger(r['chapter']) && Number.isInteger(r['verse'])
}

// Checks every row's shape so the tests below can rely on the types instead
// of trusting JSON.parse.
function toNarrative(x: unknown, i: number): Narrative {
  if (typeof x !== 'object' || x === null) throw new Error(`row ${i}: not an object`)
  const r = x as Record<string, unknown>
  if (Object.keys(r).join(',') !== KEYS.join(',')) throw new Error(`row ${i}: keys ${Object.keys(r).join(',')}`)
  const { slug, title, gospel, start, end, verse_count: count, order, parallels } = r
  const g = GOSPELS.find((x) => x === gospel)
  if (typeof slug !== 'string' || typeof title !== 'string' || title.trim() === '' || g === undefined) throw new Error(`row ${i}: bad slug/title/gospel`)
  if (!isRef(start) || !isRef(end) || typeof count !== 'number' || typeof order !== 'number') throw new Error(`row ${i}: bad range`)
  if (!Array.isArray(parallels) || !parallels.every((p): p is string => typeof p === 'string')) throw new Error(`row ${i}: bad parallels`)
  return { slug, title, gospel: g, start, end, verse_count: count, order, parallels }
}

const raw: unknown = JSON.parse(readFileSync(narrativesFile, 'utf8'))
if (!Array.isArray(raw)) throw new Error('narratives.json is not an array')
const narratives: Narrative[] = raw.map((x: unknown, i) => toNarrative(x, i))
const bySlug = new Map(narratives.map((n) => [n.slug, n]))

// Ordinal of a verse within its Gospel, from the chapter table, so that ranges compare as numbers.
function ordinal(g: Gospel, ref: VerseRef): number {
  const counts = KJV_GOSPEL_CHAPTERS[g]
  let n = ref.verse
  for (let c = 0; c < ref.chapter - 1; c++) n += counts[c] ?? 0
  return n
}

function verseExists(g: Gospel, ref: VerseRef): boolean {
  const inChapter = KJV_GOSPEL_CHAPTERS[g][ref.chapter - 1]
  return inChapter !== undefined && ref.verse >= 1 && ref.verse <= inChapter
}

/** The narrative of `gospel` whose range contains the verse; throws if there is none. */
function narrativeAt(gospel: Gospel, chapter: number, verse: number): Narrative {
  const v = ordinal(gospel, { chapter, verse })
  const found = narratives.find((n) => n.gospel === gospel && ordinal(gospel, n.start) <= v && v <= ordinal(gospel, n.end))
  if (found === undefined) throw new Error(`no narrative contains ${gospel} ${chapter}:${verse}`)
  return found
}

function linked(a: Narrative, b: Narrative): boolean {
  return a.parallels.includes(b.slug) && b.parallels.includes(a.slug)
}

t.test('there are exactly 548 narratives', async (t) => {
  t.equal(narratives.length, NARRATIVE_COUNT)
  t.equal(NARRATIVE_COUNT, 548)
})

t.test('the hard-coded KJV versification has the known totals', async (t) => {
  t.same(
    GOSPELS.map((g) => KJV_GOSPEL_CHAPTERS[g].length),
    [28, 16, 24, 21],
    'chapters per Gospel',
  )
  for (const g of GOSPELS)
    t.equal(
      KJV_GOSPEL_CHAPTERS[g].reduce((a, b) => a + b, 0),
      KJV_GOSPEL_TOTALS[g],
      `${g} verse total`,
    )
  t.same(KJV_GOSPEL_TOTALS, { matthew: 1071, mark: 678, luke: 1151, john: 879 })
})

t.test('the versification agrees with scripts/kjv-versification.ts when it exists', async (t) => {
  if (!existsSync(versificationFile)) {
    t.pass('scripts/kjv-versification.ts not present; nothing to cross-check')
    return
  }
  const mod: unknown = await import(pathToFileURL(versificationFile).href)
  const books = typeof mod === 'object' && mod !== null ? (mod as Record<string, unknown>)['KJV_BOOKS'] : undefined
  t.ok(Array.isArray(books), 'KJV_BOOKS is exported')
  if (!Array.isArray(books)) return
  const osis: Record<Gospel, string> = { matthew: 'Matt', mark: 'Mark', luke: 'Luke', john: 'John' }
  for (const g of GOSPELS) {
    const book: unknown = books.find((b: unknown) => typeof b === 'object' && b !== null && (b as Record<string, unknown>)['osis'] === osis[g])
    const verses = typeof book === 'object' && book !== null ? (book as Record<string, unknown>)['verses'] : undefined
    t.same(verses, KJV_GOSPEL_CHAPTERS[g], `${g} chapter verse counts`)
  }
})

t.test('rows are in canonical order with consecutive order numbers', async (t) => {
  const gospelIndex = narratives.map((n) => GOSPELS.indexOf(n.gospel))
  t.same(
    gospelIndex,
    [...gospelIndex].sort((a, b) => a - b),
    'Matthew, Mark, Luke, John',
  )
  for (const g of GOSPELS) {
    const rows = narratives.filter((n) => n.gospel === g)
    t.same(
      rows.map((n) => n.order),
      rows.map((_, i) => i + 1),
      `${g} order is 1..${rows.length}`,
    )
  }
})

t.test('each Gospel is partitioned exactly, with no gap or overlap', async (t) => {
  for (const g of GOSPELS) {
    const rows = narratives.filter((n) => n.gospel === g)
    const first = rows[0]
    const last = rows[rows.length - 1]
    t.same(first?.start, { chapter: 1, verse: 1 }, `${g} starts at 1:1`)
    const lastChapter = KJV_GOSPEL_CHAPTERS[g].length
    t.same(last?.end, { chapter: lastChapter, verse: KJV_GOSPEL_CHAPTERS[g][lastChapter - 1] }, `${g} ends at its last verse`)
    let problems = 0
    rows.forEach((n, i) => {
      const next = rows[i + 1]
      if (next !== undefined && ordinal(g, next.start) !== ordinal(g, n.end) + 1) {
        problems++
        t.fail(`${n.slug} ends at ${n.end.chapter}:${n.end.verse} but the next starts at ${next.start.chapter}:${next.start.verse}`)
      }
    })
    t.equal(problems, 0, `${g}: every narrative starts right after the previous one ends`)
    const covered = new Set<number>()
    for (const n of rows) for (let v = ordinal(g, n.start); v <= ordinal(g, n.end); v++) covered.add(v)
    t.equal(covered.size, KJV_GOSPEL_TOTALS[g], `${g}: every verse lies in a narrative`)
    t.equal(
      rows.reduce((a, n) => a + n.verse_count, 0),
      KJV_GOSPEL_TOTALS[g],
      `${g}: verse counts add up`,
    )
  }
})

t.test('ranges exist in KJV versification and verse_count matches them', async (t) => {
  const bad = narratives.filter((n) => !verseExists(n.gospel, n.start) || !verseExists(n.gospel, n.end))
  t.same(
    bad.map((n) => n.slug),
    [],
    'start and end are KJV verses',
  )
  const backwards = narratives.filter((n) => ordinal(n.gospel, n.end) < ordinal(n.gospel, n.start))
  t.same(
    backwards.map((n) => n.slug),
    [],
    'no range ends before it starts',
  )
  const wrong = narratives.filter((n) => n.verse_count !== ordinal(n.gospel, n.end) - ordinal(n.gospel, n.start) + 1)
  t.same(
    wrong.map((n) => n.slug),
    [],
    'verse_count is the length of the range',
  )
})

t.test('slugs are unique, readable and start with the Gospel', async (t) => {
  t.equal(bySlug.size, narratives.length, 'unique')
  t.same(
    narratives.filter((n) => !SLUG_PATTERN.test(n.slug)).map((n) => n.slug),
    [],
    'pattern',
  )
  t.same(
    narratives.filter((n) => !n.slug.startsWith(`${n.gospel}-`)).map((n) => n.slug),
    [],
    'Gospel prefix',
  )
  t.match(SLUG_PATTERN.source, '^(matthew|mark|luke|john)-[a-z0-9]+(-[a-z0-9]+)*$')
})

t.test('titles use American spelling (db/content/EDITORIAL.md section 9)', async (t) => {
  const british = narratives.flatMap((n) => findBritishSpellings(n.title).map((s) => `${n.slug}: "${s.found}" (write "${s.american}")`))
  t.same(british, [], 'american_spelling')
})

t.test('parallels are symmetric, known, unique and never in the same Gospel', async (t) => {
  const problems: string[] = []
  for (const n of narratives) {
    if (new Set(n.parallels).size !== n.parallels.length) problems.push(`${n.slug}: duplicate parallel`)
    for (const p of n.parallels) {
      const other = bySlug.get(p)
      if (other === undefined) problems.push(`${n.slug}: unknown parallel ${p}`)
      else if (other.gospel === n.gospel) problems.push(`${n.slug}: parallel ${p} is in the same Gospel`)
      else if (!other.parallels.includes(n.slug)) problems.push(`${n.slug} -> ${p} is not symmetric`)
    }
  }
  t.same(problems, [])
  t.ok(
    narratives.some((n) => n.parallels.length > 0),
    'there are links at all',
  )
})

t.test('well-known parallels are linked', async (t) => {
  // Each event: one verse from each Gospel that tells it; every pair must be linked.
  const events: Array<[string, Array<[Gospel, number, number]>]> = [
    [
      'feeding of the five thousand',
      [
        ['matthew', 14, 19],
        ['mark', 6, 41],
        ['luke', 9, 16],
        ['john', 6, 11],
      ],
    ],
    [
      'baptism of Jesus',
      [
        ['matthew', 3, 16],
        ['mark', 1, 10],
        ['luke', 3, 22],
      ],
    ],
    [
      'parable of the sower',
      [
        ['matthew', 13, 3],
        ['mark', 4, 3],
        ['luke', 8, 5],
      ],
    ],
    [
      'anointing at Bethany',
      [
        ['matthew', 26, 7],
        ['mark', 14, 3],
        ['john', 12, 3],
      ],
    ],
    [
      'institution of the Last Supper',
      [
        ['matthew', 26, 26],
        ['mark', 14, 22],
        ['luke', 22, 19],
      ],
    ],
    [
      'triumphal entry',
      [
        ['matthew', 21, 9],
        ['mark', 11, 9],
        ['luke', 19, 38],
        ['john', 12, 13],
      ],
    ],
    [
      'crucifixion',
      [
        ['matthew', 27, 35],
        ['mark', 15, 24],
        ['luke', 23, 33],
        ['john', 19, 18],
      ],
    ],
    [
      'empty tomb',
      [
        ['matthew', 28, 6],
        ['mark', 16, 6],
        ['luke', 24, 3],
        ['john', 20, 5],
      ],
    ],
    [
      'temptation',
      [
        ['matthew', 4, 1],
        ['mark', 1, 13],
        ['luke', 4, 2],
      ],
    ],
    [
      "Peter's confession",
      [
        ['matthew', 16, 16],
        ['mark', 8, 29],
        ['luke', 9, 20],
      ],
    ],
    [
      'transfiguration',
      [
        ['matthew', 17, 2],
        ['mark', 9, 2],
        ['luke', 9, 29],
      ],
    ],
    [
      'cleansing of the temple',
      [
        ['matthew', 21, 12],
        ['mark', 11, 15],
        ['luke', 19, 45],
      ],
    ],
  ]
  for (const [name, places] of events) {
    const found = places.map(([g, c, v]) => narrativeAt(g, c, v))
    found.forEach((a, i) => {
      found.slice(i + 1).forEach((b) => {
        t.ok(linked(a, b), `${name}: ${a.slug} <-> ${b.slug}`)
      })
    })
  }
  // The ranges the product issue names start the expected narratives.
  t.same(narrativeAt('matthew', 14, 13).start, { chapter: 14, verse: 13 }, 'Mt 14:13 opens the feeding')
  t.same(narrativeAt('mark', 1, 9).start, { chapter: 1, verse: 9 }, 'Mk 1:9 opens the baptism')
  t.same(narrativeAt('luke', 8, 4).end, { chapter: 8, verse: 8 }, 'Lk 8:4-8 is the sower alone')
  t.same(narrativeAt('mark', 8, 27).end, { chapter: 8, verse: 30 }, 'Mk 8:27-30 is the confession')
  // John's cleansing of the temple is early in his Gospel; Eusebius still pairs it with the Synoptic one.
  t.ok(linked(narrativeAt('john', 2, 15), narrativeAt('matthew', 21, 12)), 'John 2 is linked to the Synoptic cleansing')
})

const { referenceDir } = defaultPaths()
const referenceSkip = existsSync(referenceDir) ? false : `reference tables not found at ${referenceDir}; rebuild check skipped`
t.test('narratives.json is what the build script produces', { skip: referenceSkip }, async (t) => {
  const result = buildNarratives(referenceDir, readFileSync(decisionsFile, 'utf8'))
  t.equal(renderNarratives(result.narratives), readFileSync(narrativesFile, 'utf8'), 'byte-identical rebuild')
})
