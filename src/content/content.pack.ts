/**
 * The content pack: the effective content of every verse and style in one file, read on
 * demand. Only the index (typed arrays) lives in the JS heap; the texts stay in the file, where
 * the kernel's page cache holds them outside the process's resident memory.
 *
 * File `content-<token>.pack` (the token is the database's content revision):
 *   header (32 bytes, little-endian): magic "PVCPACK\0", format version (u32), record count (u32),
 *     token bytes (u32), index checksum (u32: the first four bytes of a SHA-256), records bytes (u64)
 *   token (UTF-8, padded to 8 bytes)
 *   records: one per verse and style, UTF-8, fields separated by U+001F (method, model,
 *     prompt version, simplified text, bottom line, historical context, practical reflection),
 *     a null field written as a lone U+0015 (an empty one as nothing)
 *   index: keys (u32 each, verse id * 2 + style bit, ascending), then record offsets (u32,
 *     count + 1 of them: record i is [offsets[i], offsets[i + 1]) of the records region)
 * The index follows the records so that a pack is written in one pass, slice by slice, without
 * holding the records; the header is written last, so a file cut short has no valid header.
 */
import { createHash } from 'node:crypto'
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { publishDerivedFile, temporaryPathFor, writeAll } from '../infra/derived-files.js'
import { U32List } from '../infra/u32-list.js'
import { outranks, type ContentMethod, type Style, type StyleContent } from './content.store.js'

const MAGIC = Buffer.from('PVCPACK\0', 'latin1')
/** 2: the index checksum is a SHA-256's (1 was FNV-1a, computed in JavaScript: 20 ms of every start). */
const FORMAT_VERSION = 2
const HEADER_BYTES = 32
const FIELD = '\u001f'
const NULL_FIELD = '\u0015'
const FIELDS = 7
/** Offsets are u32: a records region this large would not fit them. */
const MAX_RECORDS_BYTES = 0xffff_ffff
/** Bytes per read when every record is walked in order (the search index build). */
const CHUNK_BYTES = 1 << 20
/** The pack files of every revision. */
const PACK_FILES = { prefix: 'content-', suffix: '.pack' }
const STYLES: readonly Style[] = ['faithful', 'casual']
const METHODS: ReadonlySet<string> = new Set<ContentMethod>(['curated', 'generated', 'modernized'])

/** Raised when a stored value cannot be written to a pack (it holds a character the format reserves). */
export class ContentPackError extends Error {}

/** The file name of the pack for a content revision. */
export function contentPackName(token: string): string {
  // The token becomes a file name: nothing that could leave the folder or confuse the cleanup.
  if (!/^[A-Za-z0-9-]{1,64}$/.test(token)) throw new ContentPackError(`content revision ${JSON.stringify(token)} cannot name a pack file`)
  return `${PACK_FILES.prefix}${token}${PACK_FILES.suffix}`
}

function keyOf(verseId: number, style: Style): number {
  return verseId * 2 + (style === 'casual' ? 1 : 0)
}

function pad8(n: number): number {
  return Math.ceil(n / 8) * 8
}

/** A cheap check that the header and index were read as written (hashed natively: the index is hundreds of kilobytes). */
function checksum(...parts: Uint8Array[]): number {
  const hash = createHash('sha256')
  for (const bytes of parts) hash.update(bytes)
  return hash.digest().readUInt32LE(0)
}

function encodeRecord(row: StyleContent): string {
  const fields = [row.method, row.model, row.promptVersion, row.simplifiedText, row.bottomLine, row.historicalContext, row.practicalReflection]
  for (const value of fields) {
    if (value !== null && (value.includes(FIELD) || value.includes(NULL_FIELD)))
      throw new ContentPackError(`verse ${row.verseId} (${row.style}) holds the control character U+001F or U+0015, which the content pack reserves`)
  }
  return fields.map((value) => value ?? NULL_FIELD).join(FIELD)
}

/** The bytes of a typed array, in the platform's byte order (as readIndex reads them back). */
function bytesOf(values: Uint32Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength)
}

function readAll(fd: number, target: Uint8Array, position: number): boolean {
  for (let done = 0; done < target.length;) {
    const read = readSync(fd, target, done, target.length - done, position + done)
    if (read === 0) return false
    done += read
  }
  return true
}

/** The effective rows of one slice: several per verse and style resolve by precedence, as the store's rule says. */
function effectiveOf(rows: readonly StyleContent[]): StyleContent[] {
  const effective = new Map<number, StyleContent>()
  for (const row of rows) {
    const key = keyOf(row.verseId, row.style)
    const current = effective.get(key)
    if (current === undefined || outranks(row.method, current.method)) effective.set(key, row)
  }
  return [...effective.entries()].sort((a, b) => a[0] - b[0]).map(([, row]) => row)
}

/**
 * Writes the pack for `token` from `slices` (each holding every row of its verses, the slices in
 * ascending verse order) and returns it open. Written under a unique temporary name, flushed to
 * disk, then renamed: a concurrent writer of the same token writes the same content, so either
 * rename is right. Other packs in `dir` are removed once this one is in place (a process still
 * reading one keeps its open file).
 */
export async function writeContentPack(dir: string, token: string, slices: AsyncIterable<readonly StyleContent[]>): Promise<ContentPack> {
  const name = contentPackName(token)
  mkdirSync(dir, { recursive: true })
  const temporary = temporaryPathFor(dir, name)
  const fd = openSync(temporary, 'w+')
  try {
    const tokenBytes = Buffer.from(token, 'utf8')
    const recordsStart = HEADER_BYTES + pad8(tokenBytes.length)
    const keys = new U32List()
    const offsets = new U32List()
    let written = 0
    writeAll(fd, tokenBytes, HEADER_BYTES)
    for await (const slice of slices) {
      const parts: Buffer[] = []
      const sliceStart = written
      for (const row of effectiveOf(slice)) {
        const key = keyOf(row.verseId, row.style)
        const previous = keys.last()
        if (previous !== undefined && key <= previous) throw new ContentPackError(`verse ${row.verseId} (${row.style}) is out of order: slices must ascend`)
        const record = Buffer.from(encodeRecord(row), 'utf8')
        keys.push(key)
        offsets.push(written)
        parts.push(record)
        written += record.length
        if (written > MAX_RECORDS_BYTES) throw new ContentPackError('the content is too large for a content pack')
      }
      if (parts.length > 0) writeAll(fd, Buffer.concat(parts), recordsStart + sliceStart)
    }
    offsets.push(written)
    const count = keys.length
    const keyBytes = bytesOf(keys.view())
    const offsetBytes = bytesOf(offsets.view())
    writeAll(fd, keyBytes, recordsStart + written)
    writeAll(fd, offsetBytes, recordsStart + written + keyBytes.length)
    const header = headerOf(count, tokenBytes.length, written, 0)
    header.writeUInt32LE(checksum(header, tokenBytes, keyBytes, offsetBytes), 20)
    writeAll(fd, header, 0)
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    unlinkSync(temporary)
    throw error
  }
  // Read back through the reader's own checks, on the file descriptor already open: another
  // process may replace the file under this name at any time (with identical content).
  const index = readIndex(fd, token)
  if (index === undefined) {
    closeSync(fd)
    unlinkSync(temporary)
    throw new ContentPackError(`the content pack just written in ${dir} does not check out`)
  }
  publishDerivedFile(temporary, dir, name, PACK_FILES)
  return new ContentPack(fd, index)
}

function headerOf(count: number, tokenLength: number, recordsBytes: number, sum: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES)
  MAGIC.copy(header, 0)
  header.writeUInt32LE(FORMAT_VERSION, 8)
  header.writeUInt32LE(count, 12)
  header.writeUInt32LE(tokenLength, 16)
  header.writeUInt32LE(sum, 20)
  header.writeBigUInt64LE(BigInt(recordsBytes), 24)
  return header
}

/** The part of a pack kept in memory. */
interface PackIndex {
  /** The content revision the pack was written for. */
  readonly token: string
  /** Verse id * 2 + style bit, ascending. */
  readonly keys: Uint32Array
  /** Record i is [offsets[i], offsets[i + 1]) of the records region. */
  readonly offsets: Uint32Array
  /** Where the records region starts in the file. */
  readonly recordsStart: number
}

/**
 * Reads and checks a pack's header and index: undefined when the header, the size, the token
 * or the index is not as written.
 */
function readIndex(fd: number, token: string): PackIndex | undefined {
  const size = fstatSync(fd).size
  const header = Buffer.alloc(HEADER_BYTES)
  if (size < HEADER_BYTES || !readAll(fd, header, 0)) return undefined
  if (!header.subarray(0, 8).equals(MAGIC) || header.readUInt32LE(8) !== FORMAT_VERSION) return undefined
  const count = header.readUInt32LE(12)
  const tokenLength = header.readUInt32LE(16)
  const sum = header.readUInt32LE(20)
  const recordsBytes = Number(header.readBigUInt64LE(24))
  const recordsStart = HEADER_BYTES + pad8(tokenLength)
  const indexStart = recordsStart + recordsBytes
  if (size !== indexStart + count * 4 + (count + 1) * 4) return undefined
  const tokenBytes = Buffer.alloc(tokenLength)
  if (!readAll(fd, tokenBytes, HEADER_BYTES) || tokenBytes.toString('utf8') !== token) return undefined
  // Own buffers, so the typed arrays are aligned whatever the token's length.
  const keys = new Uint32Array(count)
  const offsets = new Uint32Array(count + 1)
  const keyBytes = new Uint8Array(keys.buffer)
  const offsetBytes = new Uint8Array(offsets.buffer)
  if (!readAll(fd, keyBytes, indexStart) || !readAll(fd, offsetBytes, indexStart + keyBytes.length)) return undefined
  header.writeUInt32LE(0, 20)
  if (checksum(header, tokenBytes, keyBytes, offsetBytes) !== sum) return undefined
  if (offsets[count] !== recordsBytes || offsets[0] !== 0) return undefined
  for (let i = 0; i < count; i++) {
    if ((offsets[i] as number) > (offsets[i + 1] as number) || (i > 0 && (keys[i - 1] as number) >= (keys[i] as number))) return undefined
  }
  return { token, keys, offsets, recordsStart }
}

/** An open content pack: the index in memory, the records read from the file on demand. */
export class ContentPack {
  /** The content revision this pack holds. */
  readonly revision: string
  private fd: number | undefined
  private readonly keys: Uint32Array
  private readonly offsets: Uint32Array
  private readonly recordsStart: number
  /** A buffer reused by every read, grown to the largest record read so far. */
  private buffer = Buffer.alloc(4096)

  /** @param fd an open pack file whose index {@link readIndex} has checked; the pack owns it. */
  constructor(fd: number, index: PackIndex) {
    this.fd = fd
    this.revision = index.token
    this.keys = index.keys
    this.offsets = index.offsets
    this.recordsStart = index.recordsStart
  }

  /**
   * Opens the pack for `token` in `dir`, or returns undefined when there is none or when it does
   * not check out (a header, size, token or index that is not as written): it is then rebuilt,
   * never served.
   */
  static open(dir: string, token: string): ContentPack | undefined {
    let fd: number
    try {
      fd = openSync(join(dir, contentPackName(token)), 'r')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
    let index: PackIndex | undefined
    try {
      index = readIndex(fd, token)
    } finally {
      if (index === undefined) closeSync(fd)
    }
    return index === undefined ? undefined : new ContentPack(fd, index)
  }

  /** Number of verse-and-style pairs that have content. */
  get size(): number {
    return this.keys.length
  }

  /** The content of this verse and style, if any: one read from the file. */
  get(verseId: number, style: Style): StyleContent | undefined {
    const i = this.find(keyOf(verseId, style))
    if (i < 0) return undefined
    const start = this.offsets[i] as number
    const length = (this.offsets[i + 1] as number) - start
    if (length > this.buffer.length) this.buffer = Buffer.alloc(Math.max(length, this.buffer.length * 2))
    if (!readAll(this.openFd(), this.buffer.subarray(0, length), this.recordsStart + start))
      throw new ContentPackError('the content pack was cut short while open')
    return decodeRecord(verseId, style, this.buffer.toString('utf8', 0, length))
  }

  /** Every entry in verse order (faithful before casual), read from the file in large chunks. */
  *entries(): Generator<StyleContent> {
    const count = this.keys.length
    let chunk = Buffer.alloc(0)
    for (let first = 0; first < count;) {
      const base = this.offsets[first] as number
      // As many whole records as fit in a chunk (at least one, whatever its size).
      let end = first + 1
      while (end < count && (this.offsets[end + 1] as number) - base <= CHUNK_BYTES) end++
      const length = (this.offsets[end] as number) - base
      if (chunk.length < length) chunk = Buffer.alloc(Math.max(length, CHUNK_BYTES))
      if (!readAll(this.openFd(), chunk.subarray(0, length), this.recordsStart + base)) throw new ContentPackError('the content pack was cut short while open')
      for (let i = first; i < end; i++) {
        const key = this.keys[i] as number
        const text = chunk.toString('utf8', (this.offsets[i] as number) - base, (this.offsets[i + 1] as number) - base)
        yield decodeRecord(Math.floor(key / 2), STYLES[key % 2] as Style, text)
      }
      first = end
    }
  }

  /** Closes the file; reads after this throw. */
  close(): void {
    if (this.fd === undefined) return
    closeSync(this.fd)
    this.fd = undefined
  }

  private openFd(): number {
    if (this.fd === undefined) throw new ContentPackError('the content pack is closed')
    return this.fd
  }

  /** Binary search over the sorted keys: the index, or -1. */
  private find(key: number): number {
    let low = 0
    let high = this.keys.length - 1
    while (low <= high) {
      const mid = (low + high) >>> 1
      const at = this.keys[mid] as number
      if (at === key) return mid
      if (at < key) low = mid + 1
      else high = mid - 1
    }
    return -1
  }
}

function decodeRecord(verseId: number, style: Style, text: string): StyleContent {
  const fields = text.split(FIELD)
  const [method, model, promptVersion, simplifiedText, bottomLine, historicalContext, practicalReflection] = fields
  if (fields.length !== FIELDS || method === undefined || !METHODS.has(method) || promptVersion === undefined)
    throw new ContentPackError(`the content pack's record for verse ${verseId} (${style}) is garbled`)
  const value = (field: string | undefined): string | null => (field === undefined || field === NULL_FIELD ? null : field)
  return {
    verseId,
    style,
    method: method as ContentMethod,
    model: value(model),
    promptVersion,
    simplifiedText: value(simplifiedText),
    bottomLine: value(bottomLine),
    historicalContext: value(historicalContext),
    practicalReflection: value(practicalReflection),
  }
}
