import t from 'tap'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { KJV_BOOKS } from '../../scripts/kjv-versification.js'

type Span = [number, number]

interface SeedVerse {
  b: number
  c: number
  v: number
  text: string
  p: boolean
  it: Span[]
  wj: Span[]
  title?: string
}

const seedFile = fileURLToPath(new URL('../../db/seed/kjv.jsonl.gz', import.meta.url))

function isSpanList(x: unknown): x is Span[] {
  return Array.isArray(x) && x.every((s) => Array.isArray(s) && s.length === 2 && s.every((n) => Number.isInteger(n)))
}

// Validates each line's shape so later checks can rely on the types
// instead of trusting JSON.parse.
function toVerse(line: string, lineNo: number): SeedVerse {
  const o: unknown = JSON.parse(line)
  if (typeof o !== 'object' || o === null) throw new Error(`line ${lineNo}: not an object`)
  const r = o as Record<string, unknown>
  const keys = Object.keys(r).join(',')
  if (keys !== 'b,c,v,text,p,it,wj' && keys !== 'b,c,v,text,p,it,wj,title') throw new Error(`line ${lineNo}: keys ${keys}`)
  const { b, c, v, text, p, it, wj, title } = r
  if (typeof b !== 'number' || typeof c !== 'number' || typeof v !== 'number') throw new Error(`line ${lineNo}: bad reference`)
  if (typeof text !== 'string' || typeof p !== 'boolean') throw new Error(`line ${lineNo}: bad text/p`)
  if (!isSpanList(it) || !isSpanList(wj)) throw new Error(`line ${lineNo}: bad spans`)
  if (title !== undefined && (typeof title !== 'string' || title === '')) throw new Error(`line ${lineNo}: bad title`)
  const verse: SeedVerse = { b, c, v, text, p, it, wj }
  if (typeof title === 'string') verse.title = title
  return verse
}

const raw = gunzipSync(readFileSync(seedFile)).toString('utf8')
const verses = raw
  .split('\n')
  .filter((l) => l !== '')
  .map(toVerse)
const byRef = new Map(verses.map((x) => [`${x.b}.${x.c}.${x.v}`, x]))
const bookNo = (osis: string): number => {
  const book = KJV_BOOKS.find((b) => b.osis === osis)
  if (!book) throw new Error(`unknown book ${osis}`)
  return book.number
}
const verse = (osis: string, c: number, v: number): SeedVerse | undefined => byRef.get(`${bookNo(osis)}.${c}.${v}`)
const spanText = (x: SeedVerse, spans: Span[]): string[] => spans.map(([s, e]) => x.text.slice(s, e))

t.test('file shape', async (t) => {
  t.ok(raw.endsWith('\n'), 'ends with a newline')
  t.equal(verses.length, 31102, '31,102 verses')
  t.equal(new Set(verses.map((x) => x.b)).size, 66, '66 books')
  t.equal(new Set(verses.map((x) => `${x.b}.${x.c}`)).size, 1189, '1,189 chapters')
  t.equal(byRef.size, verses.length, 'no duplicate references')
})

t.test('versification matches the hand-entered KJV table, in canonical order', async (t) => {
  t.equal(KJV_BOOKS.length, 66)
  const expected: string[] = []
  for (const book of KJV_BOOKS) {
    book.verses.forEach((count, i) => {
      for (let v = 1; v <= count; v++) expected.push(`${book.number}.${i + 1}.${v}`)
    })
  }
  t.equal(expected.length, 31102, 'table totals 31,102 verses')
  const actual = verses.map((x) => `${x.b}.${x.c}.${x.v}`)
  const firstDiff = actual.findIndex((ref, i) => ref !== expected[i])
  t.equal(firstDiff, -1, `order and chapter lengths match (first difference at ${actual[firstDiff] ?? '-'})`)
  for (const book of KJV_BOOKS) {
    const counts = book.verses.map((_, i) => verses.filter((x) => x.b === book.number && x.c === i + 1).length)
    t.same(counts, book.verses, `${book.osis} verse counts per chapter`)
  }
})

t.test('exact texts (standard 1769 KJV)', async (t) => {
  const expected: [string, number, number, string][] = [
    ['Gen', 1, 1, 'In the beginning God created the heaven and the earth.'],
    [
      'John',
      3,
      16,
      'For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life.',
    ],
    ['John', 11, 35, 'Jesus wept.'],
    [
      'Esth',
      8,
      9,
      "Then were the king's scribes called at that time in the third month, that is, the month Sivan, on the three and twentieth day thereof; and it was written according to all that Mordecai commanded unto the Jews, and to the lieutenants, and the deputies and rulers of the provinces which are from India unto Ethiopia, an hundred twenty and seven provinces, unto every province according to the writing thereof, and unto every people after their language, and to the Jews according to their writing, and according to their language.",
    ],
    ['Ps', 117, 1, 'O praise the LORD, all ye nations: praise him, all ye people.'],
    ['Ps', 117, 2, 'For his merciful kindness is great toward us: and the truth of the LORD endureth for ever. Praise ye the LORD.'],
    [
      '3John',
      1,
      14,
      'But I trust I shall shortly see thee, and we shall speak face to face. Peace be to thee. Our friends salute thee. Greet the friends by name.',
    ],
    ['Rev', 22, 21, 'The grace of our Lord Jesus Christ be with you all. Amen.'],
    ['Ps', 3, 1, 'LORD, how are they increased that trouble me! many are they that rise up against me.'],
    ['Matt', 5, 3, 'Blessed are the poor in spirit: for theirs is the kingdom of heaven.'],
  ]
  for (const [osis, c, v, text] of expected) t.equal(verse(osis, c, v)?.text, text, `${osis} ${c}:${v}`)
  t.equal(verse('Ps', 117, 3), undefined, 'Psalm 117 has two verses')
  t.ok(verse('3John', 1, 14), '3 John 1:14 exists')
  t.equal(verse('3John', 1, 15), undefined, '3 John 1:15 does not exist')
  const longest = verses.reduce((a, x) => (x.text.length > a.text.length ? x : a))
  t.same([longest.b, longest.c, longest.v], [bookNo('Esth'), 8, 9], 'Esther 8:9 is the longest verse')
})

t.test('text is plain', async (t) => {
  const problems: string[] = []
  for (const x of verses) {
    const ref = `${x.b}.${x.c}.${x.v}`
    for (const s of x.title === undefined ? [x.text] : [x.text, x.title]) {
      if (s === '') problems.push(`${ref}: empty`)
      if (/[<>¶]/.test(s)) problems.push(`${ref}: markup or pilcrow`)
      if (/\s\s/.test(s) || /[^\S ]/.test(s)) problems.push(`${ref}: double space or non-space whitespace`)
      if (s !== s.trim()) problems.push(`${ref}: untrimmed`)
      // The KJV text has no Arabic numerals at all, so any digit is a
      // leaked Strong's number, morphology code or verse number.
      if (/\d/.test(s)) problems.push(`${ref}: digit`)
      if (/\\/.test(s)) problems.push(`${ref}: USFM marker`)
      if (/ [,.;:?!]/.test(s)) problems.push(`${ref}: space before punctuation`)
    }
  }
  t.same(problems.slice(0, 20), [], 'no verse has markup, pilcrows, bad spacing or digits')
})

t.test('it/wj spans are in range, sorted and non-overlapping', async (t) => {
  const problems: string[] = []
  for (const x of verses) {
    for (const [name, spans] of [
      ['it', x.it],
      ['wj', x.wj],
    ] as const) {
      let prevEnd = -1
      for (const [s, e] of spans) {
        if (!(s >= 0 && s < e && e <= x.text.length)) problems.push(`${x.b}.${x.c}.${x.v} ${name} [${s},${e}) out of range`)
        if (s <= prevEnd) problems.push(`${x.b}.${x.c}.${x.v} ${name} unsorted or overlapping/touching`)
        if (x.text[s] === ' ' || x.text[e - 1] === ' ') problems.push(`${x.b}.${x.c}.${x.v} ${name} span has edge spaces`)
        prevEnd = e
      }
    }
  }
  t.same(problems.slice(0, 20), [], 'all spans valid')
})

t.test('structure of known verses', async (t) => {
  const gen1 = verse('Gen', 1, 1)
  const gen2 = verse('Gen', 1, 2)
  const john316 = verse('John', 3, 16)
  const matt52 = verse('Matt', 5, 2)
  const matt53 = verse('Matt', 5, 3)
  if (!gen1 || !gen2 || !john316 || !matt52 || !matt53) throw new Error('missing verse')

  t.equal(gen1.p, true, 'Genesis 1:1 starts a paragraph')
  t.same(gen1.wj, [], 'Genesis 1:1 has no words of Christ')
  t.equal(verse('Gen', 1, 2)?.p, false, 'Genesis 1:2 continues the paragraph')
  t.equal(verse('Gen', 1, 6)?.p, true, 'Genesis 1:6 has a pilcrow, so starts a paragraph')

  const was = gen2.text.indexOf('darkness was') + 'darkness '.length
  t.ok(
    gen2.it.some(([s, e]) => s <= was && e >= was + 3),
    'Genesis 1:2 "was" (after darkness) is italic',
  )
  t.notOk(
    gen2.it.some(([s, e]) => s < 17 && e > 14),
    'Genesis 1:2 first "was" (earth was) is not italic',
  )
  t.same(spanText(gen2, gen2.it), ['was'])

  const redLetters = john316.wj.reduce((n, [s, e]) => n + e - s, 0)
  t.ok(redLetters >= john316.text.length * 0.9, 'John 3:16 is (almost) entirely words of Christ')
  t.same(spanText(matt53, matt53.wj), [matt53.text], 'Matthew 5:3 is words of Christ')
  t.same(spanText(matt53, matt53.it), ['are'], 'Matthew 5:3 "are" is italic')
  t.same(matt52.wj, [], 'Matthew 5:2 is narration')
  t.same(verse('John', 11, 35)?.wj, [], 'John 11:35 is narration')
  const rev2220 = verse('Rev', 22, 20)
  if (rev2220) t.same(spanText(rev2220, rev2220.wj), ['Surely I come quickly.'], 'Revelation 22:20 part in red')
})

t.test('titles: Psalm superscriptions and Psalm 119 acrostics only', async (t) => {
  t.equal(verse('Ps', 3, 1)?.title, 'A Psalm of David, when he fled from Absalom his son.')
  t.equal(verse('Ps', 1, 1)?.title, undefined, 'Psalm 1 has no superscription')
  t.match(verse('Ps', 119, 1)?.title ?? '', /ALEPH\.$/, 'Psalm 119:1 is headed ALEPH')
  t.match(verse('Ps', 119, 9)?.title ?? '', /BETH\.$/, 'Psalm 119:9 is headed BETH')
  t.match(verse('Ps', 119, 169)?.title ?? '', /TAU\.$/, 'Psalm 119:169 is headed TAU')
  const titled = verses.filter((x) => x.title !== undefined)
  t.ok(
    titled.every((x) => x.b === bookNo('Ps')),
    'only Psalms have titles',
  )
  t.equal(titled.filter((x) => x.c === 119).length, 22, '22 acrostic headings in Psalm 119')
  t.equal(titled.filter((x) => x.c !== 119).length, 116, '116 Psalm superscriptions')
  t.ok(
    titled.every((x) => x.c === 119 || x.v === 1),
    'superscriptions sit on verse 1',
  )
  t.equal(verse('Hab', 3, 1)?.text, 'A prayer of Habakkuk the prophet upon Shigionoth.', 'Habakkuk 3:1 is verse text, not a title')
  t.notMatch(verse('Rom', 16, 27)?.text ?? '', /Written to the Romans/, 'epistle colophons are not verse text')
})
