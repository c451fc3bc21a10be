/**
 * Imports the King James Version from the CrossWire SWORD module
 * `engKJV2006eb` (Debian package `sword-text-kjv`) and writes the committed
 * seed `db/seed/kjv.jsonl.gz`.
 *
 * Usage: npx tsx scripts/import-kjv.ts [swordDir] [outFile]
 *
 * The zText format is read directly with Node built-ins so that regenerating
 * the seed needs no SWORD library, only the module files.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync, inflateSync } from 'node:zlib'
import { KJV_BOOKS } from './kjv-versification.js'

/** SWORD module id of the KJV inside `sword-text-kjv`. */
export const MODULE_ID = 'engKJV2006eb'

/** Where `dpkg -x sword-text-kjv_*.deb /tmp/sword-kjv` puts the SWORD library. */
export const DEFAULT_SWORD_DIR = '/tmp/sword-kjv/usr/share/sword'

/** A [start, end) range of UTF-16 code unit offsets into a verse's text. */
export type Span = [number, number]

/** One verse of the seed, in the shape written to the JSON Lines file. */
export interface SeedVerse {
  /** Book number 1-66. */
  b: number
  /** Chapter number. */
  c: number
  /** Verse number. */
  v: number
  /** Plain verse text: no markup, notes, headings or pilcrows. */
  text: string
  /** True when a paragraph (or, in poetry, a stanza) starts at this verse. */
  p: boolean
  /** Translators' added words (printed in italics). */
  it: Span[]
  /** Words of Christ (printed in red in red-letter editions). */
  wj: Span[]
  /** Heading printed before the verse (Psalm superscription, Psalm 119 acrostic letter). */
  title?: string
}

/** Counters collected while converting, printed so a human can audit the import. */
export interface ImportStats {
  /** Element kinds seen, keyed by `name[attributes]`, with occurrence counts. */
  elements: Map<string, number>
  /** Verses whose text began with a pilcrow. */
  pilcrows: number
  /** Book-level titles dropped (e.g. "The First Book of Moses, called Genesis"). */
  bookTitles: number
  /** Titles written after the verse text (epistle colophons), dropped. */
  colophons: string[]
  /** Leaked USFM markers such as `\nd ` removed from the text. */
  usfmLeaks: number
  /** Closing tags with no matching opening tag, ignored. */
  strayCloses: number
  /** Elements left open inside a note, closed with the note. */
  unclosedInNotes: number
  /** Paragraph or stanza breaks inside a verse, which one flag per verse cannot express. */
  midVerseBreaks: string[]
}

/** Key/values of a SWORD .conf file; keys may repeat (e.g. GlobalOptionFilter). */
export type ModuleConf = Map<string, string[]>

/**
 * Finds the module's .conf in `mods.d/` and parses it. The file is found by
 * its `[moduleId]` section, as SWORD does, because the file name's case
 * differs between packagers.
 * @param swordDir root of the SWORD library (the folder holding `mods.d/`)
 * @param moduleId module id, e.g. `engKJV2006eb`
 */
export function readModuleConf(swordDir: string, moduleId: string = MODULE_ID): ModuleConf {
  const modsD = join(swordDir, 'mods.d')
  const text = readdirSync(modsD)
    .filter((f) => f.toLowerCase().endsWith('.conf'))
    .sort()
    .map((f) => readFileSync(join(modsD, f), 'utf8'))
    .find((t) => new RegExp(`^\\[${moduleId}\\]\\s*$`, 'm').test(t))
  if (text === undefined) throw new Error(`no .conf for module ${moduleId} in ${modsD}`)
  const conf: ModuleConf = new Map()
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z0-9_.]+)=(.*)$/.exec(line)
    if (!m) continue
    const values = conf.get(m[1]!) ?? []
    values.push(m[2]!.trim())
    conf.set(m[1]!, values)
  }
  return conf
}

/** First value of a .conf key, or undefined. */
function confValue(conf: ModuleConf, key: string): string | undefined {
  return conf.get(key)?.[0]
}

/**
 * Refuses modules this reader cannot decode correctly, instead of silently
 * producing garbage from e.g. an LZSS-compressed or differently versified module.
 */
function checkConf(conf: ModuleConf): void {
  const expected: Record<string, string> = {
    ModDrv: 'zText',
    CompressType: 'ZIP',
    SourceType: 'OSIS',
    Encoding: 'UTF-8',
    Versification: 'KJV',
  }
  for (const [key, want] of Object.entries(expected)) {
    const got = confValue(conf, key)
    if (got?.toLowerCase() !== want.toLowerCase()) {
      throw new Error(`module .conf ${key}=${got ?? '(missing)'}, this importer supports only ${want}`)
    }
  }
}

/**
 * Reads every index entry of one testament of a zText module, in index order.
 * @param dataDir folder holding `ot.bzs`, `ot.bzv`, `ot.bzz` (and the nt.* files)
 * @param testament `ot` or `nt`
 * @returns the raw (OSIS) text of each entry; empty string for empty entries
 */
export function readZTextTestament(dataDir: string, testament: 'ot' | 'nt'): string[] {
  const bzs = readFileSync(join(dataDir, `${testament}.bzs`))
  const bzv = readFileSync(join(dataDir, `${testament}.bzv`))
  const bzz = readFileSync(join(dataDir, `${testament}.bzz`))
  if (bzs.length % 12 !== 0 || bzv.length % 10 !== 0) {
    throw new Error(`${testament}: index sizes ${bzs.length}/${bzv.length} are not multiples of 12/10`)
  }
  // Blocks are inflated lazily because BlockType=BOOK means one block per
  // book, and an entry only ever needs its own block.
  const blocks = new Map<number, Buffer>()
  const block = (n: number): Buffer => {
    let data = blocks.get(n)
    if (data) return data
    if (n * 12 + 12 > bzs.length) throw new Error(`${testament}: block ${n} is not in the block index`)
    const offset = bzs.readUInt32LE(n * 12)
    const size = bzs.readUInt32LE(n * 12 + 4)
    const rawSize = bzs.readUInt32LE(n * 12 + 8)
    data = inflateSync(bzz.subarray(offset, offset + size))
    if (data.length !== rawSize) {
      throw new Error(`${testament}: block ${n} inflated to ${data.length} bytes, index says ${rawSize}`)
    }
    blocks.set(n, data)
    return data
  }
  const entries: string[] = []
  for (let at = 0; at < bzv.length; at += 10) {
    const blockNo = bzv.readUInt32LE(at)
    const start = bzv.readUInt32LE(at + 4)
    const size = bzv.readUInt16LE(at + 8)
    // A zero size marks an entry with no text (e.g. the module heading);
    // its block number is then meaningless and must not be dereferenced.
    entries.push(
      size === 0
        ? ''
        : block(blockNo)
            .subarray(start, start + size)
            .toString('utf8'),
    )
  }
  return entries
}

/** What an index slot holds in SWORD's layout of a testament. */
export type SlotKind = 'module' | 'testament' | 'book' | 'chapter' | 'verse'

/** One index slot mapped onto the KJV versification. */
export interface Slot {
  kind: SlotKind
  /** Book number 1-66 (0 for module/testament headings). */
  book: number
  /** Chapter (0 for module/testament/book headings). */
  chapter: number
  /** Verse (0 for every heading). */
  verse: number
}

/**
 * The index layout SWORD uses for one testament: slot 0 module heading,
 * slot 1 testament heading, then per book a book heading followed, per
 * chapter, by the chapter heading (verse 0) and the chapter's verses.
 * @param testament `ot` or `nt`
 */
export function testamentSlots(testament: 'ot' | 'nt'): Slot[] {
  const slots: Slot[] = [
    { kind: 'module', book: 0, chapter: 0, verse: 0 },
    { kind: 'testament', book: 0, chapter: 0, verse: 0 },
  ]
  for (const book of KJV_BOOKS) {
    if (book.testament !== testament.toUpperCase()) continue
    slots.push({ kind: 'book', book: book.number, chapter: 0, verse: 0 })
    book.verses.forEach((count, i) => {
      slots.push({ kind: 'chapter', book: book.number, chapter: i + 1, verse: 0 })
      for (let v = 1; v <= count; v++) slots.push({ kind: 'verse', book: book.number, chapter: i + 1, verse: v })
    })
  }
  return slots
}

/** A parsed OSIS tag. */
interface Tag {
  name: string
  close: boolean
  empty: boolean
  attrs: Map<string, string>
}

function parseTag(raw: string): Tag {
  const m = /^<(\/?)([A-Za-z][\w:.-]*)([^>]*?)(\/?)>$/.exec(raw)
  if (!m) throw new Error(`cannot parse tag ${raw}`)
  const attrs = new Map<string, string>()
  for (const a of m[3]!.matchAll(/([\w:.-]+)="([^"]*)"/g)) attrs.set(a[1]!, decodeEntities(a[2]!))
  return { name: m[2]!, close: m[1] === '/', empty: m[4] === '/', attrs }
}

function decodeEntities(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    switch (e) {
      case 'amp':
        return '&'
      case 'lt':
        return '<'
      case 'gt':
        return '>'
      case 'quot':
        return '"'
      case 'apos':
        return "'"
      default:
        return String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
    }
  })
}

/**
 * Summary key of an element kind: its name plus attribute names, with the
 * values of the attributes that change meaning (type, subType, who, ...).
 */
function elementKind(tag: Tag): string {
  const valued = new Set(['type', 'subType', 'who', 'marker', 'placement', 'canonical', 'level'])
  const attrs = [...tag.attrs.entries()]
    .map(([k, v]) => (valued.has(k) ? `${k}=${JSON.stringify(v)}` : k))
    .sort()
    .join(' ')
  return `${tag.name}${tag.empty ? '/' : ''}[${attrs}]`
}

// Elements that only carry structure we do not keep (book/chapter/line
// boundaries, USFM book metadata, pre-verse wrappers): their tags are dropped.
const STRUCTURAL = new Set(['chapter', 'div', 'lg', 'l', 'milestone', 'lb'])
// Elements whose text is verse text but whose markup (Strong's lemma,
// divine-name small caps, nesting, foreign script) we drop.
const TRANSPARENT = new Set(['w', 'divineName', 'seg', 'foreign', 'reference', 'transChange', 'q'])

/** Builds plain text with single spaces while recording span offsets. */
class TextBuilder {
  text = ''
  private pendingSpace = false

  /** Appends a chunk of already cleaned text, collapsing whitespace. */
  append(chunk: string): void {
    for (const part of chunk.split(/(\s+)/)) {
      if (part === '') continue
      if (/^\s+$/.test(part)) {
        this.pendingSpace = true
        continue
      }
      // Spaces are only materialised before the next word, so the text can
      // never start or end with one.
      if (this.pendingSpace && this.text !== '') this.text += ' '
      this.pendingSpace = false
      this.text += part
    }
  }

  get length(): number {
    return this.text.length
  }
}

/** Shrinks spans off surrounding spaces, drops empty ones, sorts and merges touching/overlapping ones. */
function normaliseSpans(text: string, spans: Span[]): Span[] {
  const cleaned: Span[] = []
  for (const [s0, e0] of spans) {
    let s = Math.max(0, Math.min(s0, text.length))
    let e = Math.max(0, Math.min(e0, text.length))
    while (s < e && text[s] === ' ') s++
    while (e > s && text[e - 1] === ' ') e--
    if (e > s) cleaned.push([s, e])
  }
  cleaned.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const merged: Span[] = []
  for (const span of cleaned) {
    const last = merged[merged.length - 1]
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1])
    else merged.push([span[0], span[1]])
  }
  return merged
}

/**
 * Cleans a text node: removes pilcrows (recorded as paragraph starts by the
 * caller) and USFM markers the module's converter leaked into the OSIS
 * (e.g. `\nd ` before some divine names), and uses a plain apostrophe so the
 * text searches like any other plain-text KJV.
 */
function cleanText(raw: string, stats: ImportStats): string {
  let s = decodeEntities(raw)
  s = s.replace(/\\\+?[a-z]+\d*\*?\s?/g, () => {
    stats.usfmLeaks++
    return ''
  })
  return s.replace(/[\u2018\u2019]/g, "'").replace(/¶/g, ' ')
}

/**
 * Converts the entries of a whole module (OT then NT, each in SWORD index
 * order) into seed verses. State such as an open red-letter milestone or a
 * paragraph start seen in a chapter heading carries over between entries.
 * @param slots layout of each entry, from {@link testamentSlots}
 * @param raws raw OSIS of each entry, parallel to `slots`
 */
export function convertEntries(slots: readonly Slot[], raws: readonly string[]): { verses: SeedVerse[]; stats: ImportStats } {
  const stats: ImportStats = {
    elements: new Map(),
    pilcrows: 0,
    bookTitles: 0,
    colophons: [],
    usfmLeaks: 0,
    strayCloses: 0,
    unclosedInNotes: 0,
    midVerseBreaks: [],
  }
  const verses: SeedVerse[] = []
  let pendingParagraph = false
  let pendingTitles: string[] = []
  // Red letter given as `<q who="Jesus" sID=.../>` ... `<q eID=.../>` may
  // span verses; the ids of the milestones still open are kept here.
  const openWjMilestones = new Set<string>()

  raws.forEach((raw, index) => {
    const slot = slots[index]!
    const ref = `${KJV_BOOKS[slot.book - 1]?.osis ?? '-'} ${slot.chapter}:${slot.verse}`
    const isVerse = slot.kind === 'verse'
    const out = new TextBuilder()
    const it: Span[] = []
    const wj: Span[] = []
    const stack: { tag: Tag; start: number }[] = []
    let noteDepth = 0
    let title: TextBuilder | null = null
    let paragraph = pendingParagraph
    let pilcrow = false
    if (openWjMilestones.size > 0) stack.push({ tag: parseTag('<q who="Jesus">'), start: 0 })

    // Breaks met after some of the verse's words: if no words follow they
    // belong before the next verse (Ps 119 puts a stanza break at the end
    // of a stanza's last verse), otherwise they fall inside this verse.
    const laterBreaks: { at: number; what: string }[] = []
    const markBreak = (what: string): void => {
      if (out.length === 0) paragraph = true
      else laterBreaks.push({ at: out.length, what })
    }

    for (const m of raw.matchAll(/<[^>]*>|[^<]+/g)) {
      const token = m[0]
      if (!token.startsWith('<')) {
        if (noteDepth > 0) continue
        if (title) {
          title.append(cleanText(token, stats))
          continue
        }
        if (out.length === 0 && token.trim().startsWith('¶')) pilcrow = true
        out.append(cleanText(token, stats))
        continue
      }
      const tag = parseTag(token)
      if (!tag.close) stats.elements.set(elementKind(tag), (stats.elements.get(elementKind(tag)) ?? 0) + 1)

      if (tag.close) {
        const at = stack.map((e) => e.tag.name).lastIndexOf(tag.name)
        if (at === -1) {
          // e.g. `\nd <w>LORD</w></divineName>`: the opening tag leaked as
          // USFM text, so only the closing tag is left.
          stats.strayCloses++
          continue
        }
        if (at !== stack.length - 1) {
          // Inside notes the same USFM leak loses closing tags instead
          // (`<divineName>LORD\+nd*`); notes are dropped, so closing the
          // note closes whatever it left open.
          if (tag.name !== 'note') throw new Error(`${ref}: </${tag.name}> closes across ${stack[stack.length - 1]!.tag.name}`)
          stats.unclosedInNotes += stack.length - 1 - at
          stack.length = at + 1
        }
        const { tag: open, start } = stack.pop()!
        if (open.name === 'note') noteDepth--
        else if (noteDepth > 0) continue
        else if (open.name === 'title') {
          const heading = title?.text ?? ''
          title = null
          if (heading === '') continue
          if (slot.kind === 'book' || slot.kind === 'module' || slot.kind === 'testament') stats.bookTitles++
          // A title after the verse's words is a subscription (the epistle
          // colophons), not a heading of this verse, and not KJV verse text.
          else if (isVerse && out.length > 0) stats.colophons.push(`${ref}: ${heading}`)
          else pendingTitles.push(heading)
        } else if (open.name === 'transChange' && open.attrs.get('type') === 'added') it.push([start, out.length])
        else if (open.name === 'q' && open.attrs.get('who') === 'Jesus') wj.push([start, out.length])
        continue
      }

      if (tag.name === 'note') {
        noteDepth++
        stack.push({ tag, start: out.length })
        continue
      }
      if (noteDepth > 0) {
        if (!tag.empty) stack.push({ tag, start: out.length })
        continue
      }
      if (tag.name === 'title') {
        if (tag.empty) continue
        title = new TextBuilder()
        stack.push({ tag, start: out.length })
        continue
      }
      if (tag.name === 'q' && tag.empty) {
        const sID = tag.attrs.get('sID')
        const eID = tag.attrs.get('eID')
        if (sID !== undefined && tag.attrs.get('who') === 'Jesus') {
          if (openWjMilestones.size === 0) stack.push({ tag: parseTag('<q who="Jesus">'), start: out.length })
          openWjMilestones.add(sID)
        } else if (eID !== undefined && openWjMilestones.delete(eID) && openWjMilestones.size === 0) {
          const at = stack.map((e) => e.tag.name).lastIndexOf('q')
          if (at !== -1) wj.push([stack.splice(at, 1)[0]!.start, out.length])
        }
        continue
      }
      // A paragraph (x-p div), a stanza (line group) or a blank line in
      // poetry (x-p line break) all start a new block of text when printed.
      const isParagraph =
        (tag.name === 'div' && tag.attrs.get('type') === 'x-p' && tag.attrs.has('sID')) ||
        (tag.name === 'lg' && tag.attrs.has('sID')) ||
        (tag.name === 'lb' && tag.attrs.get('type') === 'x-p') ||
        (tag.name === 'milestone' && (tag.attrs.get('type') === 'x-p' || tag.attrs.get('marker') === '¶'))
      if (isParagraph) {
        markBreak(tag.name)
        continue
      }
      if (STRUCTURAL.has(tag.name)) {
        if (!tag.empty) stack.push({ tag, start: out.length })
        continue
      }
      if (!TRANSPARENT.has(tag.name)) throw new Error(`${ref}: unhandled OSIS element ${token}`)
      if (!tag.empty) stack.push({ tag, start: out.length })
    }

    // A red-letter milestone still open at the end of the verse closes here
    // and is reopened at the start of the next verse (pushed above).
    const milestoneWj = stack.findIndex((e) => e.tag.name === 'q' && openWjMilestones.size > 0)
    if (milestoneWj !== -1) wj.push([stack.splice(milestoneWj, 1)[0]!.start, out.length])
    if (stack.length > 0) throw new Error(`${ref}: unclosed ${stack.map((e) => e.tag.name).join(', ')}`)

    let breakAfterVerse = false
    for (const { at, what } of laterBreaks) {
      if (at < out.length) stats.midVerseBreaks.push(`${ref} (${what})`)
      else breakAfterVerse = true
    }

    if (!isVerse) {
      if (out.length > 0) throw new Error(`${ref}: unexpected text in ${slot.kind} heading: ${out.text}`)
      if (slot.kind === 'chapter') checkHeading(raw, 'chapter', `${KJV_BOOKS[slot.book - 1]!.osis}.${slot.chapter}`, ref)
      if (slot.kind === 'book') checkHeading(raw, 'div', KJV_BOOKS[slot.book - 1]!.osis, ref)
      pendingParagraph = paragraph
      return
    }
    if (out.length === 0) throw new Error(`${ref}: empty verse`)
    if (pilcrow) stats.pilcrows++
    const verse: SeedVerse = {
      b: slot.book,
      c: slot.chapter,
      v: slot.verse,
      text: out.text,
      // Every chapter opens a new paragraph in print even where the module
      // has no paragraph marker (the Psalms use line groups instead).
      p: paragraph || pilcrow || slot.verse === 1,
      it: normaliseSpans(out.text, it),
      wj: normaliseSpans(out.text, wj),
    }
    if (pendingTitles.length > 0) verse.title = pendingTitles.join(' ')
    verses.push(verse)
    pendingTitles = []
    pendingParagraph = breakAfterVerse
  })
  return { verses, stats }
}

/**
 * Confirms a heading slot holds the heading the layout predicts; any
 * mismatch means the versification table or the slot layout is wrong.
 */
function checkHeading(raw: string, element: string, osisID: string, ref: string): void {
  if (!new RegExp(`<${element}\\b[^>]*\\bosisID="${osisID.replace(/\./g, '\\.')}"[^>]*\\bsID=`).test(raw)) {
    throw new Error(`${ref}: expected <${element} osisID="${osisID}" sID=...> in ${JSON.stringify(raw.slice(0, 200))}`)
  }
}

/**
 * Serialises verses as JSON Lines with a fixed key order, gzipped at level 9.
 * zlib's gzip header carries no timestamp or file name, so equal input gives
 * byte-identical output.
 * @param verses verses in canonical order
 */
export function encodeSeed(verses: readonly SeedVerse[]): Buffer {
  const lines = verses.map((v) => {
    const row: SeedVerse = { b: v.b, c: v.c, v: v.v, text: v.text, p: v.p, it: v.it, wj: v.wj }
    if (v.title !== undefined) row.title = v.title
    return JSON.stringify(row)
  })
  return gzipSync(Buffer.from(lines.join('\n') + '\n', 'utf8'), { level: 9 })
}

/**
 * Reads the module from a SWORD library folder and converts it.
 * @param swordDir root of the SWORD library (holding `mods.d/` and `modules/`)
 */
export function importKjv(swordDir: string): { verses: SeedVerse[]; stats: ImportStats; conf: ModuleConf } {
  const conf = readModuleConf(swordDir)
  checkConf(conf)
  const dataDir = resolve(swordDir, confValue(conf, 'DataPath') ?? '')
  const slots: Slot[] = []
  const raws: string[] = []
  for (const testament of ['ot', 'nt'] as const) {
    const entries = readZTextTestament(dataDir, testament)
    const layout = testamentSlots(testament)
    if (entries.length !== layout.length) {
      throw new Error(`${testament}: module has ${entries.length} index entries, KJV layout needs ${layout.length}`)
    }
    slots.push(...layout)
    raws.push(...entries)
  }
  const { verses, stats } = convertEntries(slots, raws)
  return { verses, stats, conf }
}

function main(): void {
  const here = dirname(fileURLToPath(import.meta.url))
  const swordDir = resolve(process.argv[2] ?? DEFAULT_SWORD_DIR)
  const outFile = resolve(process.argv[3] ?? join(here, '..', 'db', 'seed', 'kjv.jsonl.gz'))
  const { verses, stats, conf } = importKjv(swordDir)

  const chapters = new Set(verses.map((v) => `${v.b}.${v.c}`))
  const books = new Set(verses.map((v) => v.b))
  const expected = KJV_BOOKS.reduce((n, b) => n + b.verses.reduce((a, x) => a + x, 0), 0)
  if (verses.length !== expected || books.size !== 66 || chapters.size !== 1189) {
    throw new Error(`got ${verses.length} verses, ${books.size} books, ${chapters.size} chapters`)
  }

  const gz = encodeSeed(verses)
  mkdirSync(dirname(outFile), { recursive: true })
  writeFileSync(outFile, gz)

  const count = (f: (v: SeedVerse) => number): number => verses.reduce((n, v) => n + f(v), 0)
  console.log(
    `module ${MODULE_ID} version ${confValue(conf, 'Version')} (${confValue(conf, 'SwordVersionDate')}), versification ${confValue(conf, 'Versification')}`,
  )
  console.log('OSIS element kinds seen (count, name[attributes]):')
  for (const [kind, n] of [...stats.elements].sort((a, b) => a[0].localeCompare(b[0]))) console.log(`  ${String(n).padStart(7)}  ${kind}`)
  console.log(`verses ${verses.length}, books ${books.size}, chapters ${chapters.size}`)
  console.log(`paragraph starts (p) ${count((v) => (v.p ? 1 : 0))}, of which pilcrow verses ${stats.pilcrows}`)
  console.log(`italic spans ${count((v) => v.it.length)} in ${count((v) => (v.it.length > 0 ? 1 : 0))} verses`)
  console.log(`words-of-Christ spans ${count((v) => v.wj.length)} in ${count((v) => (v.wj.length > 0 ? 1 : 0))} verses`)
  console.log(`verse titles ${count((v) => (v.title !== undefined ? 1 : 0))}, book titles dropped ${stats.bookTitles}`)
  console.log(`colophons dropped ${stats.colophons.length}:`)
  for (const c of stats.colophons) console.log(`  ${c}`)
  console.log(
    `leaked USFM markers removed ${stats.usfmLeaks}, stray closing tags ignored ${stats.strayCloses}, tags left open in notes ${stats.unclosedInNotes}`,
  )
  console.log(`mid-verse paragraph/stanza breaks not representable ${stats.midVerseBreaks.length}: ${stats.midVerseBreaks.join('; ')}`)
  console.log(`wrote ${outFile}: ${gz.length} bytes, sha256 ${createHash('sha256').update(gz).digest('hex')}`)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main()
