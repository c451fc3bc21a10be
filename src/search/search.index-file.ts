/**
 * The search index saved as one binary file, so that a later start reads it back (a few tens
 * of milliseconds, before the server listens) instead of building it (about a second of CPU
 * on the event loop while requests compete with it, leaving garbage behind).
 *
 * Layout, every integer little-endian:
 *
 *     magic "PVSRCHIX" (8 bytes) | format version u32 | CRC-32 of everything after these 16 bytes u32
 *     | key length u32 | section count u32 | the byte length of each section u32...
 *     | the key (UTF-8) | zero padding to a multiple of 8
 *     | each section, zero-padded to a multiple of 8
 *
 * The sections are the index's typed arrays as they are in memory (so reading one is a view
 * of the file's bytes, no decoding) and its string tables as UTF-8 joined by NUL (indexed
 * words are letters, digits and marks only). A file whose magic, version, key, length,
 * checksum or shape does not check out is never used: the caller builds the index again.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { crc32 } from 'node:zlib'
import { FIELDS, FieldIndex, SearchIndex, type FieldParts } from './search.index.js'

/**
 * Bump whenever what is saved changes: the layout, or anything that decides the index's
 * contents from the same texts (the tokenizer, the stemmer, the BM25 norms, the id order).
 */
export const SEARCH_INDEX_FORMAT_VERSION = 1

/** The file's name in its folder. */
export const SEARCH_INDEX_FILE = 'search-index.bin'

const MAGIC = Buffer.from('PVSRCHIX', 'latin1')
/** Magic, version, checksum: the bytes the checksum does not cover. */
const CHECKED_FROM = 16
const SEPARATOR = '\u0000'
const TEMPORARY = /^search-index\..+\.tmp$/

/** How one section is stored. */
type SectionKind = 'i32' | 'u32' | 'u16' | 'f32' | 'text'

/** The sections in file order: the index-wide ones, then the same seven for each field in FIELDS order. */
const INDEX_SECTIONS = ['counts', 'verseIds', 'books', 'stems', 'baseStems', 'baseStemIds', 'surfaces'] as const
const FIELD_SECTIONS = ['postingStart', 'postingDocs', 'postingTfs', 'norms', 'words', 'wordStart'] as const
const KINDS: Readonly<Record<(typeof INDEX_SECTIONS)[number] | (typeof FIELD_SECTIONS)[number], SectionKind>> = {
  counts: 'u32',
  verseIds: 'i32',
  books: 'i32',
  stems: 'text',
  baseStems: 'text',
  baseStemIds: 'i32',
  surfaces: 'text',
  postingStart: 'u32',
  postingDocs: 'i32',
  postingTfs: 'u16',
  norms: 'f32',
  words: 'i32',
  wordStart: 'u32',
}
const SECTION_KINDS: readonly SectionKind[] = [...INDEX_SECTIONS.map((name) => KINDS[name]), ...FIELDS.flatMap(() => FIELD_SECTIONS.map((name) => KINDS[name]))]
const ELEMENT_BYTES: Readonly<Record<SectionKind, number>> = { i32: 4, u32: 4, u16: 2, f32: 4, text: 1 }

/** Typed arrays are saved as the memory holds them, which the format fixes as little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** Why a file was not used. */
export class SearchIndexFileError extends Error {
  override readonly name = 'SearchIndexFileError'
}

const pad8 = (n: number): number => (n + 7) & ~7

function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength)
}

function textOf(values: Iterable<string>): Uint8Array {
  const list = [...values]
  for (const value of list) if (value.includes(SEPARATOR)) throw new Error(`an indexed word holds a NUL: ${JSON.stringify(value)}`)
  return Buffer.from(list.join(SEPARATOR), 'utf8')
}

/**
 * The file's bytes, as a list of chunks to write in order.
 * @param key identifies the texts the index was built from (see SearchServiceDeps.indexKey).
 */
export function encodeSearchIndex(index: SearchIndex, key: string): Uint8Array[] {
  if (!LITTLE_ENDIAN) throw new Error('the search index file is little-endian; this machine is not')
  const parts = index.parts()
  const fields = FIELDS.map((name) => parts.fields[name].parts())
  const sections: Uint8Array[] = [
    bytesOf(Uint32Array.from([parts.stemIds.size, parts.baseStems.size, parts.surfaceIds.size, ...fields.map((f) => f.docCount)])),
    bytesOf(parts.verseIds),
    bytesOf(Int32Array.from([...parts.books].flatMap(([book, [from, to]]) => [book, from, to]))),
    // Ids are given in insertion order (0, 1, 2...), so the keys in map order are the table.
    textOf(parts.stemIds.keys()),
    textOf(parts.baseStems.keys()),
    bytesOf(Int32Array.from(parts.baseStems.values())),
    textOf(parts.surfaceIds.keys()),
    ...fields.flatMap((f) => FIELD_SECTIONS.map((name) => bytesOf(f[name]))),
  ]
  const keyBytes = Buffer.from(key, 'utf8')
  const headerLength = pad8(CHECKED_FROM + 8 + 4 * sections.length + keyBytes.length)
  const header = Buffer.alloc(headerLength)
  MAGIC.copy(header, 0)
  header.writeUInt32LE(SEARCH_INDEX_FORMAT_VERSION, 8)
  header.writeUInt32LE(keyBytes.length, CHECKED_FROM)
  header.writeUInt32LE(sections.length, CHECKED_FROM + 4)
  sections.forEach((section, i) => header.writeUInt32LE(section.byteLength, CHECKED_FROM + 8 + 4 * i))
  keyBytes.copy(header, CHECKED_FROM + 8 + 4 * sections.length)
  const chunks: Uint8Array[] = [header]
  for (const section of sections) {
    chunks.push(section)
    const padding = pad8(section.byteLength) - section.byteLength
    if (padding > 0) chunks.push(new Uint8Array(padding))
  }
  let checksum = crc32(header.subarray(CHECKED_FROM))
  for (const chunk of chunks.slice(1)) checksum = crc32(chunk, checksum)
  header.writeUInt32LE(checksum, 12)
  return chunks
}

/**
 * The index a file holds, if it is a complete file of this format for this key. Typed arrays
 * are views of `file`'s memory, which must not be modified afterwards.
 * @throws SearchIndexFileError saying what does not check out.
 */
export function decodeSearchIndex(file: Buffer, key: string): SearchIndex {
  const fail = (reason: string): never => {
    throw new SearchIndexFileError(reason)
  }
  if (!LITTLE_ENDIAN) fail('this machine is not little-endian')
  if (file.length < CHECKED_FROM + 8 || !file.subarray(0, MAGIC.length).equals(MAGIC)) fail('not a search index file')
  const version = file.readUInt32LE(8)
  if (version !== SEARCH_INDEX_FORMAT_VERSION) fail(`format version ${version}, not ${SEARCH_INDEX_FORMAT_VERSION}`)
  const keyLength = file.readUInt32LE(CHECKED_FROM)
  const sectionCount = file.readUInt32LE(CHECKED_FROM + 4)
  if (sectionCount !== SECTION_KINDS.length) fail(`${sectionCount} sections, not ${SECTION_KINDS.length}`)
  const headerLength = pad8(CHECKED_FROM + 8 + 4 * sectionCount + keyLength)
  if (file.length < headerLength) fail('truncated')
  const keyStart = CHECKED_FROM + 8 + 4 * sectionCount
  if (file.toString('utf8', keyStart, keyStart + keyLength) !== key) fail('built from other texts (another key)')
  const lengths = SECTION_KINDS.map((kind, i) => {
    const length = file.readUInt32LE(CHECKED_FROM + 8 + 4 * i)
    if (length % ELEMENT_BYTES[kind] !== 0) fail(`section ${i} is ${length} bytes`)
    return length
  })
  const total = lengths.reduce((sum, length) => sum + pad8(length), headerLength)
  if (file.length !== total) fail(file.length < total ? 'truncated' : 'longer than its sections')
  if (crc32(file.subarray(CHECKED_FROM)) !== file.readUInt32LE(12)) fail('checksum mismatch')

  // Views need their offset aligned to the element size; a copy is made when the buffer is not.
  let bytes = file
  if (file.byteOffset % 8 !== 0) {
    bytes = Buffer.allocUnsafeSlow(file.length)
    file.copy(bytes)
  }
  let offset = headerLength
  let next = 0
  const section = <T>(make: (buffer: ArrayBufferLike, byteOffset: number, length: number) => T, kind: SectionKind): T => {
    const length = lengths[next] as number
    if (SECTION_KINDS[next++] !== kind) throw new Error('search index sections read out of order')
    const view = make(bytes.buffer, bytes.byteOffset + offset, length / ELEMENT_BYTES[kind])
    offset += pad8(length)
    return view
  }
  const i32 = (): Int32Array => section((b, o, n) => new Int32Array(b, o, n), 'i32')
  const u32 = (): Uint32Array => section((b, o, n) => new Uint32Array(b, o, n), 'u32')
  const u16 = (): Uint16Array => section((b, o, n) => new Uint16Array(b, o, n), 'u16')
  const f32 = (): Float32Array => section((b, o, n) => new Float32Array(b, o, n), 'f32')
  const text = (count: number): string[] => {
    const table = section((b, o, n) => Buffer.from(b, o, n).toString('utf8'), 'text')
    const values = count === 0 ? [] : table.split(SEPARATOR)
    if (values.length !== count) fail(`a word table holds ${values.length} words, not ${count}`)
    return values
  }

  const counts = u32()
  if (counts.length !== 3 + FIELDS.length) fail('bad counts')
  const [stemCount = 0, baseCount = 0, surfaceCount = 0] = counts
  const verseIds = i32()
  const bookTriples = i32()
  const stems = text(stemCount)
  const bases = text(baseCount)
  const baseStemIds = i32()
  const surfaces = text(surfaceCount)
  if (bookTriples.length % 3 !== 0 || baseStemIds.length !== baseCount) fail('bad tables')
  const books = new Map<number, readonly [number, number]>()
  for (let i = 0; i < bookTriples.length; i += 3) books.set(bookTriples[i] as number, [bookTriples[i + 1] as number, bookTriples[i + 2] as number])
  const stemIds = new Map<string, number>()
  stems.forEach((value, id) => stemIds.set(value, id))
  const baseStems = new Map<string, number>()
  bases.forEach((value, i) => baseStems.set(value, baseStemIds[i] as number))
  const surfaceIds = new Map<string, number>()
  surfaces.forEach((value, id) => surfaceIds.set(value, id))

  const documents = verseIds.length
  const field = (docCount: number): FieldIndex => {
    const parts: FieldParts = { postingStart: u32(), postingDocs: i32(), postingTfs: u16(), norms: f32(), docCount, words: i32(), wordStart: u32() }
    const postings = parts.postingStart[parts.postingStart.length - 1]
    if (postings !== parts.postingDocs.length || postings !== parts.postingTfs.length) fail('postings do not match their starts')
    if (parts.norms.length !== documents || parts.wordStart.length !== documents + 1 || parts.wordStart[documents] !== parts.words.length)
      fail('a field does not match the documents')
    return FieldIndex.fromParts(parts)
  }
  const [kjv, faithful, casual] = FIELDS.map((_, i) => field(counts[3 + i] as number)) as [FieldIndex, FieldIndex, FieldIndex]
  return SearchIndex.fromParts({ verseIds, books, stemIds, baseStems, surfaceIds, fields: { kjv, faithful, casual } })
}

/**
 * Reads the index saved in `dir` with one read of the file.
 * @returns undefined when there is no file.
 * @throws SearchIndexFileError when the file is there but does not check out.
 */
export async function readSearchIndexFile(dir: string, key: string): Promise<{ index: SearchIndex; bytes: number; decodeMs: number } | undefined> {
  let handle
  try {
    handle = await open(join(dir, SEARCH_INDEX_FILE), 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    const { size } = await handle.stat()
    // Its own ArrayBuffer (not a slice of Node's pool), so the typed arrays can be views of it.
    const file = Buffer.allocUnsafeSlow(size)
    let read = 0
    while (read < size) {
      const { bytesRead } = await handle.read(file, read, size - read, read)
      if (bytesRead === 0) break
      read += bytesRead
    }
    const decoding = performance.now()
    const index = decodeSearchIndex(file.subarray(0, read), key)
    return { index, bytes: read, decodeMs: performance.now() - decoding }
  } finally {
    await handle.close()
  }
}

/**
 * Saves the index in `dir` (created if missing): written under a unique temporary name,
 * flushed to disk, then renamed over the file, so that a reader sees the old file or the
 * new one, never a part. Temporary files left by an interrupted save are removed first (one
 * server owns a DATA_DIR, so no other save is in flight).
 * @returns the file's size in bytes.
 */
export async function writeSearchIndexFile(dir: string, index: SearchIndex, key: string): Promise<number> {
  const chunks = encodeSearchIndex(index, key)
  const size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)
  await mkdir(dir, { recursive: true })
  for (const name of await readdir(dir)) if (TEMPORARY.test(name)) await rm(join(dir, name), { force: true })
  const temporary = join(dir, `search-index.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await open(temporary, 'wx')
    try {
      const { bytesWritten } = await handle.writev(chunks)
      if (bytesWritten !== size) throw new Error(`wrote ${bytesWritten} of ${size} bytes`)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, join(dir, SEARCH_INDEX_FILE))
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  return size
}
