/**
 * Verifies API keys on the hot path without a database round trip: every key is held in
 * memory by hash (all of them are loaded at start). Every instance polls the database for
 * changed and new keys every `pollIntervalMs`, so a revocation or a key created elsewhere
 * reaches every instance within that interval plus one query; the instance that creates or
 * revokes updates its cache at once.
 *
 * A key missing from memory is looked up in the database only within a small budget
 * (MISS_LOOKUPS_PER_SECOND): it can only be a key created on another instance since the
 * last poll, and a flood of made-up keys (cheap to make: the checksum is CRC-32) must not
 * turn into a flood of queries. Past the budget a miss is answered "unknown" from memory;
 * a genuinely new key is then accepted after the next poll.
 */
import type { FastifyBaseLogger } from 'fastify'
import { hashKey, isWellFormedKey } from './key-format.js'
import type { KeyRecord, KeysRepository } from './keys.repository.js'

/** The outcome of checking a presented key. */
export type KeyCheck = { readonly ok: true; readonly key: KeyRecord } | { readonly ok: false; readonly reason: 'malformed' | 'unknown' | 'revoked' }

/** How the cache has answered since start, for the metrics. */
export interface KeyCacheStats {
  /** Well-formed keys found in memory (active or revoked). */
  readonly hits: number
  /** Well-formed keys not in memory: looked up in the database within the budget, or answered unknown. */
  readonly misses: number
  /** Keys held in memory. */
  readonly keys: number
}

const MALFORMED: KeyCheck = Object.freeze({ ok: false, reason: 'malformed' })
const UNKNOWN: KeyCheck = Object.freeze({ ok: false, reason: 'unknown' })
const REVOKED: KeyCheck = Object.freeze({ ok: false, reason: 'revoked' })

/** Unknown hashes are remembered briefly, so that a flood of made-up keys does not reach the database. */
const NEGATIVE_TTL_MS = 2_000
const NEGATIVE_MAX = 10_000
const PRESENTED_MAX = 100_000
/** Database lookups for keys missing from memory, per second, with bursts up to the same number. */
export const MISS_LOOKUPS_PER_SECOND = 20

/** The in-memory key cache and its change poller. */
export class KeyVerifier {
  private readonly byHash = new Map<string, KeyRecord>()
  /** Hashes of keys already found, by the presented key (memory only, bounded). */
  private readonly hashByPresented = new Map<string, string>()
  private readonly hashById = new Map<string, string>()
  /** The accepted answer of each current record (a changed key is a new record). */
  private readonly accepted = new WeakMap<KeyRecord, KeyCheck>()
  private readonly unknown = new Map<string, number>()
  /** Database lookups under way, by key hash. */
  private readonly lookups = new Map<string, Promise<KeyRecord | undefined>>()
  private since: Date | undefined
  /** Completed polls, so a lookup can tell whether one ran while it waited. */
  private polls = 0
  private timer: NodeJS.Timeout | undefined
  /** A token bucket for database lookups of keys missing from memory. */
  private missTokens = MISS_LOOKUPS_PER_SECOND
  private missRefilledAt: number | undefined
  private hits = 0
  private misses = 0

  constructor(
    private readonly repository: KeysRepository,
    private readonly options: { readonly pollIntervalMs: number; readonly now: () => number; readonly logger: Pick<FastifyBaseLogger, 'error'> },
  ) {}

  /**
   * The answer from memory alone, when there is one (a malformed key, or a cached one); the
   * hot path uses it to skip a promise.
   */
  verifyCached(presented: string): KeyCheck | undefined {
    const answer = this.fromMemory(presented)
    // A malformed key is no question for the cache; a miss is counted once, by verify().
    if (answer !== undefined && (answer.ok || answer.reason !== 'malformed')) this.hits++
    return answer
  }

  /** The hits and misses so far and the keys held. */
  stats(): KeyCacheStats {
    return { hits: this.hits, misses: this.misses, keys: this.byHash.size }
  }

  private fromMemory(presented: string): KeyCheck | undefined {
    // Keys seen before skip the checksum and the SHA-256 (a quarter of the hot path's own work).
    const known = this.hashByPresented.get(presented)
    if (known === undefined && !isWellFormedKey(presented)) return MALFORMED
    const hash = known ?? hashKey(presented)
    const record = this.byHash.get(hash)
    if (record !== undefined && known === undefined) {
      if (this.hashByPresented.size >= PRESENTED_MAX) this.hashByPresented.clear()
      this.hashByPresented.set(presented, hash)
    }
    if (record === undefined) return undefined
    return this.checkOf(record)
  }

  /** The answer for a known key: one object per record, made once (every request asks). */
  private checkOf(record: KeyRecord): KeyCheck {
    if (record.revokedAt !== null) return REVOKED
    let check = this.accepted.get(record)
    if (check === undefined) this.accepted.set(record, (check = Object.freeze({ ok: true, key: record })))
    return check
  }

  /** Checks a presented key: shape and checksum first, then the cache, then the database. */
  async verify(presented: string): Promise<KeyCheck> {
    const cached = this.verifyCached(presented)
    if (cached !== undefined) return cached
    this.misses++
    const hash = hashKey(presented)
    const record = this.byHash.get(hash) ?? (await this.lookUpMissing(hash))
    if (record === undefined) return UNKNOWN
    return this.checkOf(record)
  }

  /**
   * A key missing from memory, from the database within the miss budget. Concurrent requests
   * with the same key share one lookup (a burst of a new key costs one query, one token).
   */
  private lookUpMissing(hash: string): Promise<KeyRecord | undefined> {
    const pending = this.lookups.get(hash)
    if (pending !== undefined) return pending
    const seen = this.unknown.get(hash)
    if (seen !== undefined && this.options.now() - seen < NEGATIVE_TTL_MS) return Promise.resolve(undefined)
    if (!this.takeMissToken()) return Promise.resolve(undefined)
    const lookup = this.fetch(hash).finally(() => this.lookups.delete(hash))
    this.lookups.set(hash, lookup)
    return lookup
  }

  private async fetch(hash: string): Promise<KeyRecord | undefined> {
    const polls = this.polls
    let record = await this.repository.findByHash(hash)
    // A poll that finished meanwhile may have seen a change to this key while it was not yet
    // cached (and so could not apply it); read it again so the cache never keeps a stale row.
    if (record !== undefined && polls !== this.polls) record = await this.repository.findByHash(hash)
    if (record === undefined) {
      if (this.unknown.size >= NEGATIVE_MAX) this.unknown.clear()
      this.unknown.set(hash, this.options.now())
      return undefined
    }
    this.unknown.delete(hash)
    this.byHash.set(hash, record)
    this.hashById.set(record.id, hash)
    return record
  }

  /** Applies a change made on this instance (a new key, a revocation, a tier) to the cache at once. */
  noteChanged(record: KeyRecord): void {
    this.byHash.set(record.keyHash, record)
    this.hashById.set(record.id, record.keyHash)
    this.unknown.delete(record.keyHash)
  }

  /** Loads every key, so that a key missing from memory is one created elsewhere since the last poll. */
  async load(): Promise<void> {
    const startedAt = await this.repository.now()
    for (const record of await this.repository.list(undefined, { includeRevoked: true })) this.noteChanged(record)
    this.since ??= startedAt
  }

  /** Whether the budget allows one more database lookup of a key missing from memory. */
  private takeMissToken(): boolean {
    const now = this.options.now()
    const elapsed = this.missRefilledAt === undefined ? 0 : Math.max(0, now - this.missRefilledAt)
    this.missTokens = Math.min(MISS_LOOKUPS_PER_SECOND, this.missTokens + (elapsed * MISS_LOOKUPS_PER_SECOND) / 1_000)
    this.missRefilledAt = now
    if (this.missTokens < 1) return false
    this.missTokens -= 1
    return true
  }

  /** Applies changes made anywhere since the last poll. */
  async poll(): Promise<void> {
    const startedAt = await this.repository.now()
    // Overlap by a second so that a change committed while the last poll ran is not missed.
    const since = this.since === undefined ? startedAt : new Date(this.since.getTime() - 1_000)
    for (const record of await this.repository.changedSince(since)) this.noteChanged(record)
    this.since = startedAt
    this.polls++
  }

  /** Loads every key, then polls for changes. */
  async start(): Promise<void> {
    await this.load()
    const tick = (): void => {
      this.poll()
        .catch((error: unknown) => this.options.logger.error({ err: error }, 'key change poll failed'))
        .finally(() => {
          if (this.timer !== undefined) this.timer = setTimeout(tick, this.options.pollIntervalMs).unref()
        })
    }
    this.timer = setTimeout(tick, 0).unref()
  }

  /** Polls completed so far: a poll that starts after a change has applied it once it completes. */
  get completedPolls(): number {
    return this.polls
  }

  /** How often {@link start} polls for changed keys (ms). */
  get pollIntervalMs(): number {
    return this.options.pollIntervalMs
  }

  /** Stops polling. */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }
}
