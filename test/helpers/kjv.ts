/**
 * The KJV verses of the committed seed, read straight from the file (not through src/seed),
 * so that the content tests depend only on the file format.
 */
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

/** One line of db/seed/kjv.jsonl.gz. */
export interface SeedVerse {
  readonly b: number
  readonly c: number
  readonly v: number
  readonly text: string
}

/** Every verse of the seed, in canonical order. */
export const SEED_VERSES: readonly SeedVerse[] = gunzipSync(readFileSync(new URL('../../db/seed/kjv.jsonl.gz', import.meta.url)))
  .toString('utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as SeedVerse)

const byRef = new Map(SEED_VERSES.map((v) => [`${v.b}.${v.c}.${v.v}`, v.text]))

/**
 * The KJV text of a verse by book number, chapter and verse.
 * @example kjv(43, 3, 16) // 'For God so loved the world, ...'
 */
export function kjv(book: number, chapter: number, verse: number): string {
  const text = byRef.get(`${book}.${chapter}.${verse}`)
  if (text === undefined) throw new Error(`no verse ${book} ${chapter}:${verse}`)
  return text
}
