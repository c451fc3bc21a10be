/**
 * Remembers the hash of a set of seed files against their fingerprint (path, size, modification
 * and change times in nanoseconds), so that a later start can tell the files are unchanged from
 * a thousand `stat` calls instead of reading and hashing tens of megabytes. Any difference in the
 * fingerprint, or no cache at all, hashes the bytes as before: the cache can make a start slower,
 * never wrong, short of a file rewritten with the same size and both of its times restored.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { epochMs, type Clock } from '../infra/clock.js'

/**
 * A file changed this recently is not cached: a write in the same clock tick as the read that
 * hashed it could leave the same size and times on different bytes (git's "racily clean").
 */
const SETTLE_NS = 3_000_000_000n

/** Where the hashes are remembered, and the clock that says whether a file has settled. */
export interface HashCache {
  readonly file: string
  readonly clock: Clock
}

interface CacheEntry {
  readonly fingerprint: string
  readonly hash: string
}

type CacheFile = Record<string, CacheEntry>

function readCache(file: string): CacheFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as CacheFile) : {}
  } catch {
    // No cache yet, or a damaged one: the hashes are computed from the bytes and written anew.
    return {}
  }
}

/** The fingerprint of the files, and whether every one of them has been still long enough to cache. */
function fingerprint(salt: string, files: readonly string[], clock: Clock): { value: string; settled: boolean } {
  const digest = createHash('sha256').update(`${salt}\n`)
  const now = BigInt(epochMs(clock)) * 1_000_000n
  let settled = true
  for (const file of files) {
    const stat = statSync(file, { bigint: true, throwIfNoEntry: false })
    if (stat === undefined) {
      digest.update(`${file}\0absent\n`)
      continue
    }
    digest.update(`${file}\0${stat.size}\0${stat.mtimeNs}\0${stat.ctimeNs}\n`)
    if (now - stat.mtimeNs < SETTLE_NS || now - stat.ctimeNs < SETTLE_NS) settled = false
  }
  return { value: digest.digest('hex'), settled }
}

/**
 * The hash of a set of files: from the cache when their fingerprint matches the one recorded
 * under `name`, otherwise from `compute` (which reads the bytes), then recorded.
 * @param cache where the cache is kept (a small JSON file in DATA_DIR) and the clock that says
 *   whether a file changed too recently to be cached; undefined computes every time.
 * @param salt anything else the hash depends on (other data sets' hashes, a code version).
 * @example const hash = cachedHash({ file: join(dataDir, 'seed-hashes.json'), clock }, 'kjv', '', [kjvPath], () => sha256(readFileSync(kjvPath)))
 */
export function cachedHash(cache: HashCache | undefined, name: string, salt: string, files: readonly string[], compute: () => string): string {
  if (cache === undefined) return compute()
  const cacheFile = cache.file
  const entries = readCache(cacheFile)
  const print = fingerprint(salt, files, cache.clock)
  const entry = entries[name]
  if (entry !== undefined && entry.fingerprint === print.value && typeof entry.hash === 'string') return entry.hash
  const hash = compute()
  if (print.settled) {
    entries[name] = { fingerprint: print.value, hash }
    try {
      mkdirSync(dirname(cacheFile), { recursive: true })
      const writing = `${cacheFile}.${process.pid}`
      writeFileSync(writing, JSON.stringify(entries))
      renameSync(writing, cacheFile)
    } catch {
      // A cache that cannot be written (a read-only folder) only costs the next start a re-hash.
    }
  }
  return hash
}
