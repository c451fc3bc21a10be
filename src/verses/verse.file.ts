/**
 * The verse file: every verse's id and KJV text as the verses table holds them for one loaded
 * KJV seed, so that a later start reads one file instead of 31,102 rows through the database
 * (most of the time the stores took to load on the embedded database).
 *
 * File `kjv-<seed hash>.verses`: a header line `PVVERSES <format version> <count> <sha-256 of
 * the body>`, then the body (UTF-8): one record per verse in canonical order, id and text
 * separated by U+001F, records separated by U+001E. The table is written only by the seed,
 * which records the file's hash in the same transaction (seed_state): a file named for the
 * recorded hash holds what the table holds.
 */
import { createHash } from 'node:crypto'
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { publishDerivedFile, temporaryPathFor, writeAll } from '../infra/derived-files.js'
import type { VerseRecord } from './verse.store.js'

const MAGIC = 'PVVERSES'
const FORMAT_VERSION = 1
const FIELD = '\u001f'
const RECORD = '\u001e'
/** The verse files of every KJV seed. */
const VERSE_FILES = { prefix: 'kjv-', suffix: '.verses' }

/** The file name for a KJV seed hash, or undefined when the hash could not name a file. */
function fileName(seedHash: string): string | undefined {
  return /^[A-Za-z0-9-]{1,128}$/.test(seedHash) ? `${VERSE_FILES.prefix}${seedHash}${VERSE_FILES.suffix}` : undefined
}

function digest(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex')
}

/** The verse with this id and text (book, chapter and verse are parts of the id). */
export function verseRecord(id: number, text: string): VerseRecord {
  return { id, book: Math.floor(id / 1_000_000), chapter: Math.floor(id / 1_000) % 1_000, verse: id % 1_000, text }
}

/** Splits records `id U+001F text`, separated by U+001E, into verses (the verses table's packed form too). */
export function parseVerseRecords(packed: string, into: VerseRecord[] = []): VerseRecord[] {
  if (packed === '') return into
  for (const record of packed.split(RECORD)) {
    const separator = record.indexOf(FIELD)
    into.push(verseRecord(Number(record.slice(0, separator)), record.slice(separator + 1)))
  }
  return into
}

/**
 * The verses of the file for `seedHash` in `dir`, or undefined when there is none or it does not
 * check out (format, count, checksum, ids in ascending order): the caller reads the table instead.
 */
export function readVerseFile(dir: string, seedHash: string): VerseRecord[] | undefined {
  const name = fileName(seedHash)
  if (name === undefined) return undefined
  let bytes: Buffer
  try {
    bytes = readFileSync(join(dir, name))
  } catch (error) {
    // None yet, or another process's cleanup removed it: the table is the fallback either way.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const headerEnd = bytes.indexOf(0x0a)
  if (headerEnd < 0) return undefined
  const [magic, version, count, sum] = bytes.toString('latin1', 0, headerEnd).split(' ')
  if (magic !== MAGIC || version !== String(FORMAT_VERSION) || count === undefined || sum === undefined) return undefined
  const body = bytes.subarray(headerEnd + 1)
  if (digest(body) !== sum) return undefined
  const verses = parseVerseRecords(body.toString('utf8'))
  if (verses.length !== Number(count)) return undefined
  for (let i = 0; i < verses.length; i++) {
    const id = (verses[i] as VerseRecord).id
    if (!Number.isInteger(id) || id <= 0 || (i > 0 && id <= (verses[i - 1] as VerseRecord).id)) return undefined
  }
  return verses
}

/**
 * Writes the file for `seedHash` (verses in canonical order) under a unique temporary name,
 * flushed, then renamed (see derived-files.ts): a concurrent writer of the same hash writes the
 * same bytes. Files of other hashes in `dir` are removed once this one is in place. A hash that cannot name a file
 * (not one the seed makes) writes nothing.
 */
export function writeVerseFile(dir: string, seedHash: string, verses: readonly VerseRecord[]): void {
  const name = fileName(seedHash)
  if (name === undefined) return
  const records = verses.map((v) => {
    if (v.text.includes(FIELD) || v.text.includes(RECORD)) throw new Error(`verse ${v.id} holds U+001E or U+001F, which the verse file reserves`)
    return `${v.id}${FIELD}${v.text}`
  })
  const body = Buffer.from(records.join(RECORD), 'utf8')
  const header = Buffer.from(`${MAGIC} ${FORMAT_VERSION} ${verses.length} ${digest(body)}\n`, 'latin1')
  mkdirSync(dir, { recursive: true })
  const temporary = temporaryPathFor(dir, name)
  const fd = openSync(temporary, 'w')
  try {
    writeAll(fd, header, 0)
    writeAll(fd, body, header.length)
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    unlinkSync(temporary)
    throw error
  }
  closeSync(fd)
  publishDerivedFile(temporary, dir, name, VERSE_FILES)
}
