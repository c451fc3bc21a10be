/**
 * Reads the committed KJV seed (`db/seed/kjv.jsonl.gz`, written by scripts/import-kjv.ts):
 * gzip of JSON Lines, one verse per line.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { verseId, type StructuredVerse } from '../verses/verse.store.js'

interface SeedLine {
  b: number
  c: number
  v: number
  text: string
  p?: boolean
  it?: Array<[number, number]>
  wj?: Array<[number, number]>
  title?: string
}

function isRange(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 && value.every((n) => Number.isInteger(n) && n >= 0)
}

function toRecord(line: SeedLine, lineNumber: number): StructuredVerse {
  const ok =
    Number.isInteger(line.b) &&
    line.b >= 1 &&
    line.b <= 66 &&
    Number.isInteger(line.c) &&
    line.c >= 1 &&
    Number.isInteger(line.v) &&
    line.v >= 1 &&
    typeof line.text === 'string' &&
    line.text.length > 0 &&
    (line.it ?? []).every(isRange) &&
    (line.wj ?? []).every(isRange)
  if (!ok) throw new Error(`KJV seed line ${lineNumber} is malformed`)
  return {
    id: verseId(line.b, line.c, line.v),
    book: line.b,
    chapter: line.c,
    verse: line.v,
    text: line.text,
    paragraph: line.p === true,
    italics: line.it ?? [],
    wordsOfChrist: line.wj ?? [],
    title: line.title ?? null,
  }
}

/** The seed file's bytes and the hash that identifies its version, without parsing it. */
export function readKjvSeedFile(path: string): { readonly hash: string; readonly compressed: Buffer } {
  const compressed = readFileSync(path)
  return { hash: createHash('sha256').update(compressed).digest('hex'), compressed }
}

/**
 * Parses and checks the seed file's contents.
 * @throws when a line is malformed, so a damaged seed never reaches the database.
 */
export function parseKjvSeed(compressed: Buffer): StructuredVerse[] {
  const lines = gunzipSync(compressed)
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
  return lines.map((line, i) => toRecord(JSON.parse(line) as SeedLine, i + 1))
}

/** Reads, hashes and parses the seed file in one go (for scripts and tests). */
export function readKjvSeed(path: string): { readonly hash: string; readonly verses: StructuredVerse[] } {
  const file = readKjvSeedFile(path)
  return { hash: file.hash, verses: parseKjvSeed(file.compressed) }
}
