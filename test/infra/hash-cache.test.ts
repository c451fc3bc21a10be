/** The seed's hash cache: a file's bytes are read again whenever its size or times differ. */
import t from 'tap'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cachedHash } from '../../src/seed/hash-cache.js'
import { TestClock, type Teardown } from '../helpers/app.js'

/** A folder of three files, set one hour in the past, and a clock a minute after their times. */
function setUp(t: Teardown): { dir: string; files: string[]; clock: TestClock; cache: { file: string; clock: TestClock } } {
  const dir = mkdtempSync(join(tmpdir(), 'pv-hash-cache-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const files = ['a.jsonl', 'b.jsonl', 'c.jsonl'].map((name, n) => {
    const file = join(dir, name)
    writeFileSync(file, `line ${n}\n`.repeat(100))
    return file
  })
  const past = new Date(Date.now() - 3_600_000)
  for (const file of files) utimesSync(file, past, past)
  // The files' change times are now (utimes sets them); the clock is later, so they have settled.
  const clock = new TestClock(new Date(Date.now() + 60_000))
  return { dir, files, clock, cache: { file: join(dir, 'cache', 'seed-hashes.json'), clock } }
}

/** The hash of the files' bytes, counting how often the bytes were read. */
function hasher(files: readonly string[]): { compute: () => string; reads: () => number } {
  let reads = 0
  return {
    compute: () => {
      reads++
      const digest = createHash('sha256')
      for (const file of files) digest.update(readFileSync(file))
      return digest.digest('hex')
    },
    reads: () => reads,
  }
}

t.test('unchanged files are not read again; a changed one is, with the same size and modification time', async (t) => {
  const { files, cache } = setUp(t)
  const bytes = hasher(files)
  const first = cachedHash(cache, 'content', 'kjv-1', files, bytes.compute)
  t.equal(bytes.reads(), 1, 'the first time the bytes are hashed')
  t.equal(cachedHash(cache, 'content', 'kjv-1', files, bytes.compute), first)
  t.equal(bytes.reads(), 1, 'every size and time matches: the bytes are not read')

  // Same size, modification time put back: only the change time tells.
  const target = files[1] as string
  const before = statSync(target)
  writeFileSync(target, readFileSync(target, 'utf8').replace('line 1', 'LINE 1'))
  utimesSync(target, before.atime, before.mtime)
  t.equal(statSync(target).size, before.size)
  t.equal(statSync(target).mtimeMs, before.mtimeMs)
  cache.clock.set(new Date(Date.now() + 60_000))
  const second = cachedHash(cache, 'content', 'kjv-1', files, bytes.compute)
  t.equal(bytes.reads(), 2, 'the changed file is read again')
  t.not(second, first, 'and the hash follows its bytes')
  t.equal(cachedHash(cache, 'content', 'kjv-1', files, bytes.compute), second)
  t.equal(bytes.reads(), 2, 'then cached again')
})

t.test('a touched file, another salt, an added or removed file: hashed from the bytes', async (t) => {
  const { dir, files, cache } = setUp(t)
  const bytes = hasher(files)
  const hash = cachedHash(cache, 'content', 'kjv-1', files, bytes.compute)

  const later = new Date(Date.now() - 1_800_000)
  utimesSync(files[0] as string, later, later)
  t.equal(cachedHash(cache, 'content', 'kjv-1', files, bytes.compute), hash, 'same bytes, same hash')
  t.equal(bytes.reads(), 2, 'a new modification time is read again')

  cachedHash(cache, 'content', 'kjv-2', files, bytes.compute)
  t.equal(bytes.reads(), 3, 'another salt (a new KJV hash) is read again')

  const extra = join(dir, 'd.jsonl')
  writeFileSync(extra, 'more\n')
  cachedHash(cache, 'content', 'kjv-2', [...files, extra], bytes.compute)
  t.equal(bytes.reads(), 4, 'an added file')
  cachedHash(cache, 'content', 'kjv-2', files, bytes.compute)
  t.equal(bytes.reads(), 5, 'a removed file')

  const absent = join(dir, 'absent.jsonl')
  cachedHash(cache, 'narratives', '', [files[0] as string, absent], bytes.compute)
  cachedHash(cache, 'narratives', '', [files[0] as string, absent], bytes.compute)
  t.equal(bytes.reads(), 6, 'an absent file is part of the fingerprint (cached while absent)')
  writeFileSync(absent, 'now here\n')
  cachedHash(cache, 'narratives', '', [files[0] as string, absent], bytes.compute)
  t.equal(bytes.reads(), 7, 'and read once it appears')
})

t.test('files changed moments ago are not cached; no cache file or a damaged one computes', async (t) => {
  const { files, cache } = setUp(t)
  const bytes = hasher(files)
  const recent = { ...cache, clock: new TestClock(new Date()) }
  cachedHash(recent, 'content', '', files, bytes.compute)
  cachedHash(recent, 'content', '', files, bytes.compute)
  t.equal(bytes.reads(), 2, 'a write in the same clock tick as the read could go unseen: not cached')

  cachedHash(undefined, 'content', '', files, bytes.compute)
  t.equal(bytes.reads(), 3, 'without a cache every call reads')

  mkdirSync(join(cache.file, '..'), { recursive: true })
  writeFileSync(cache.file, '{ not json')
  cachedHash(cache, 'content', '', files, bytes.compute)
  t.equal(bytes.reads(), 4, 'a damaged cache file is ignored')
  cachedHash(cache, 'content', '', files, bytes.compute)
  t.equal(bytes.reads(), 4, 'and replaced')
})
