/**
 * The in-process quota counter, used when REDIS_URL is not set (a single instance).
 *
 * Every operation runs synchronously between awaits, so on Node's single thread each one is
 * atomic: N concurrent consumes with R units left count exactly R.
 */
import { assertCounterArgs, type ConsumeResult, type CounterStats, type QuotaCounter } from './counter.js'
import { MemoryRateWindow } from './rate-window.js'

interface Entry {
  count: number
  /** Epoch ms; the entry is gone from this instant on (the end of its period). */
  readonly expiresAt: number
}

/** How often, at most, every entry is scanned for expiry (ms). */
const SWEEP_INTERVAL_MS = 60_000

/** Options for {@link MemoryQuotaCounter}. */
export interface MemoryQuotaCounterOptions {
  /** The clock (epoch ms); injectable so tests can move past a period's end. */
  readonly now?: () => number
}

/** A `QuotaCounter` held in a Map; state is lost with the process, like a Redis restart. */
export class MemoryQuotaCounter implements QuotaCounter {
  /** One instance's counts: nobody else counts in them. */
  readonly shared = false
  /**
   * Entries by period, then key id: both strings are the same objects request after request
   * (the key's record, the cached month), so a lookup hashes nothing new and builds no key.
   */
  readonly #entries = new Map<string, Map<string, Entry>>()
  readonly #windows = new MemoryRateWindow()
  readonly #now: () => number
  #nextSweepAt = 0
  #closed = false

  /**
   * @param options - `now`: the clock, defaulting to `Date.now`.
   */
  constructor(options: MemoryQuotaCounterOptions = {}) {
    this.#now = options.now ?? Date.now
  }

  /** Atomically adds one if the count is below `limit` (an in-process call always has an outcome: `opId` is not needed). */
  async consume(keyId: string, period: string, limit: number, _opId?: string): Promise<ConsumeResult> {
    return this.consumeNow(keyId, period, limit)
  }

  /** `consume` without a promise: the hot path of the embedded default. */
  consumeNow(keyId: string, period: string, limit: number): ConsumeResult {
    if (!(Number.isSafeInteger(limit) && limit >= 0)) assertCounterArgs({ keyId, period, limit })
    const entry = this.#live(keyId, period)
    if (entry === undefined) return { status: 'uninitialised' }
    if (entry.count >= limit) return { status: 'exhausted', count: entry.count }
    entry.count += 1
    return { status: 'consumed', count: entry.count }
  }

  /** Sets the counter to `value` if it does not exist; returns the current value. */
  async initialise(keyId: string, period: string, value: number, expiresAt: number): Promise<number> {
    assertCounterArgs({ keyId, period, value, expiresAt })
    const existing = this.#live(keyId, period)
    if (existing !== undefined) return existing.count
    // Same as Redis with a PXAT in the past: the key would vanish at once, so store nothing.
    if (expiresAt <= this.#now()) return value
    let keys = this.#entries.get(period)
    if (keys === undefined) this.#entries.set(period, (keys = new Map()))
    keys.set(keyId, { count: value, expiresAt })
    return value
  }

  /** The current count, or undefined if uninitialised. */
  async peek(keyId: string, period: string): Promise<number | undefined> {
    return this.peekNow(keyId, period)
  }

  /** `peek` without a promise. */
  peekNow(keyId: string, period: string): number | undefined {
    // #live checks the arguments.
    return this.#live(keyId, period)?.count
  }

  /** Nothing to reconcile: an in-process consume never loses its outcome. */
  async reconcile(keyId: string, period: string, _opId: string): Promise<boolean> {
    assertCounterArgs({ keyId, period })
    return false
  }

  /** Removes one previously consumed unit, never going below 0. */
  async refund(keyId: string, period: string): Promise<void> {
    assertCounterArgs({ keyId, period })
    const entry = this.#live(keyId, period)
    if (entry !== undefined && entry.count > 0) entry.count -= 1
  }

  /** Counts a hit in the current one-second window. */
  hit(id: string, window: number): number {
    this.#assertOpen()
    return this.#windows.hit(id, window)
  }

  /** Resolves unless the counter is closed. */
  async ping(): Promise<void> {
    this.#assertOpen()
  }

  /** Drops every counter; later calls reject. */
  async close(): Promise<void> {
    this.#closed = true
    this.#entries.clear()
  }

  /** Up until closed; an in-process counter has no backend to fail. */
  stats(): CounterStats {
    return { backend: 'memory', up: !this.#closed, errors: 0 }
  }

  /** The entry if it exists and has not expired; expired entries are removed on the way. */
  #live(keyId: string, period: string): Entry | undefined {
    this.#assertOpen()
    // The argument checks of assertCounterArgs, without its object: keyId non-empty, and a
    // period checked once when it is first counted in (below) or looked up in vain.
    if (keyId.length === 0) assertCounterArgs({ keyId, period })
    const now = this.#now()
    // Keys that are never touched again would otherwise stay forever; an occasional full scan
    // keeps memory bounded by the keys active in the current period.
    if (now >= this.#nextSweepAt) {
      this.#nextSweepAt = now + SWEEP_INTERVAL_MS
      for (const [name, keys] of this.#entries) {
        for (const [key, entry] of keys) if (entry.expiresAt <= now) keys.delete(key)
        if (keys.size === 0) this.#entries.delete(name)
      }
    }
    const keys = this.#entries.get(period)
    if (keys === undefined) {
      assertCounterArgs({ keyId, period })
      return undefined
    }
    const entry = keys.get(keyId)
    if (entry === undefined) return undefined
    if (entry.expiresAt <= now) {
      keys.delete(keyId)
      return undefined
    }
    return entry
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('MemoryQuotaCounter is closed')
  }

  /** How many entries are held, expired or not (for tests of the memory bound). */
  get size(): number {
    let size = 0
    for (const keys of this.#entries.values()) size += keys.size
    return size
  }
}
