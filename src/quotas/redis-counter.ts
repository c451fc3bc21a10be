/**
 * The Redis quota counter, used when REDIS_URL is set so that every API instance shares one
 * exact count per key and month.
 *
 * Each operation that reads and then writes is one Lua script: Redis runs a script without
 * interleaving other commands, which is what makes "increment if below the limit" exact when
 * many instances consume the last units at once. Errors are never swallowed: the caller
 * decides whether a Redis failure means 503 or something else.
 */
import { createHash, randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { assertCounterArgs, CounterUnavailableError, type ConsumeResult, type CounterStats, type QuotaCounter } from './counter.js'

/**
 * KEYS[1] counter, KEYS[2] recent operations, ARGV[1] limit, ARGV[2] operation id →
 * {code, count}: code -1 uninitialised, 0 exhausted, 1 consumed. A missing key is reported,
 * not created: it means Redis lost the count (restart, eviction) and the caller must rebuild
 * it from the ledger. INCR keeps the key's TTL. A consume that counts also records its
 * operation id in a short list (the last 256 per key and month), so that a consume whose reply
 * was lost can be told apart from one that never ran (RECONCILE_LUA).
 */
const CONSUME_LUA = `
local current = redis.call('GET', KEYS[1])
if current == false then return {-1, 0} end
local count = tonumber(current)
if count >= tonumber(ARGV[1]) then return {0, count} end
local after = redis.call('INCR', KEYS[1])
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, 255)
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return {1, after}
`

/**
 * KEYS[1] counter, KEYS[2] recent operations, ARGV[1] operation id → 1 when that consume had
 * counted and is now refunded, 0 when it never counted. Removing the id first makes a second
 * reconcile of the same operation a no-op.
 */
const RECONCILE_LUA = `
if redis.call('LREM', KEYS[2], 1, ARGV[1]) == 0 then return 0 end
local current = redis.call('GET', KEYS[1])
if current ~= false and tonumber(current) > 0 then redis.call('DECR', KEYS[1]) end
return 1
`

/**
 * KEYS[1] counter, ARGV[1] value, ARGV[2] time to live (ms) → the current count. SET NX never
 * overwrites a count another instance initialised (or already consumed from) first; the GET in
 * the same script returns whichever value won. The expiry is relative, computed from the
 * application's clock, so a Redis clock that differs from the application's cannot end a
 * period early (or store nothing while the application still counts in it).
 */
const INITIALISE_LUA = `
redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
local current = redis.call('GET', KEYS[1])
if current == false then return tonumber(ARGV[1]) end
return tonumber(current)
`

/**
 * KEYS[1] counter → the count after the refund, or -1 if the key is missing. Decrements only
 * above 0, and never creates the key (a refund must not start a counter at 0 either).
 */
const REFUND_LUA = `
local current = redis.call('GET', KEYS[1])
if current == false then return -1 end
if tonumber(current) > 0 then return redis.call('DECR', KEYS[1]) end
return 0
`

/**
 * KEYS[1] window counter, ARGV[1] time to live (ms) → the count after this hit. The first hit
 * of a window sets its expiry, so windows clean themselves up.
 */
const HIT_LUA = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`

interface Script {
  readonly lua: string
  readonly sha: string
}

function script(lua: string): Script {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') }
}

const CONSUME = script(CONSUME_LUA)
const RECONCILE = script(RECONCILE_LUA)
const INITIALISE = script(INITIALISE_LUA)
const REFUND = script(REFUND_LUA)
const HIT = script(HIT_LUA)
/**
 * A window's counter outlives its second, so that instances whose clocks differ a little
 * still share it and a window's last hits never find its counter already gone.
 */
const WINDOW_TTL_MS = 10_000

/** Options for {@link RedisQuotaCounter}. */
export interface RedisQuotaCounterOptions {
  /** Prepended to every key, e.g. `plainverse:`; defaults to none. */
  readonly prefix?: string
  /** The application's clock (epoch ms), defaulting to `Date.now`; expiries are relative to it. */
  readonly now?: () => number
}

/** Shortest time to live given to a counter, so one initialised at the very end of a period is still usable. */
const MIN_TTL_MS = 1_000

/**
 * A `QuotaCounter` whose counts live in Redis under `${prefix}quota:${keyId}:${period}`.
 *
 * Failure policy: while the client is not connected (Redis down, restarting, failing over)
 * every call fails at once with CounterUnavailableError (a 503 for the request) instead of
 * queueing; ioredis reconnects in the background and calls succeed again as soon as it has.
 * A consume whose reply is lost (a timeout, a connection dropped mid-command) is reported as
 * such, so that the caller can reconcile it and never charge a query it did not serve.
 */
export class RedisQuotaCounter implements QuotaCounter {
  /** Every instance counts in the same keys. */
  readonly shared = true
  readonly #redis: Redis
  /** Until the client has connected once; afterwards undefined. */
  #firstConnect: Promise<void> | undefined
  #closed = false
  /** Operations that failed for want of Redis, for stats(). */
  #errors = 0
  readonly #prefix: string
  readonly #now: () => number

  /**
   * @param redis - The client; the counter owns it from now on and quits it in `close()`.
   * @param options - `prefix`: a namespace for the keys.
   */
  constructor(redis: Redis, options: RedisQuotaCounterOptions = {}) {
    this.#redis = redis
    this.#firstConnect = redis.status === 'ready' ? undefined : new Promise<void>((resolve) => redis.once('ready', resolve))
    this.#prefix = options.prefix ?? ''
    this.#now = options.now ?? Date.now
  }

  /** The Redis key of one counter (exposed for tests and operational tooling). */
  key(keyId: string, period: string): string {
    return `${this.#prefix}quota:${keyId}:${period}`
  }

  /** The list of recent consumes of one counter, for `reconcile`. */
  opsKey(keyId: string, period: string): string {
    return `${this.#prefix}quota-ops:${keyId}:${period}`
  }

  /** Atomically adds one if the count is below `limit`. */
  async consume(keyId: string, period: string, limit: number, opId: string = randomUUID()): Promise<ConsumeResult> {
    assertCounterArgs({ keyId, period, limit })
    const reply = await this.#run(CONSUME, [this.key(keyId, period), this.opsKey(keyId, period)], [limit, opId], true)
    if (!Array.isArray(reply) || reply.length !== 2) throw unexpected('consume', reply)
    const [code, count] = reply as unknown[]
    if (typeof count !== 'number') throw unexpected('consume', reply)
    if (code === -1) return { status: 'uninitialised' }
    if (code === 0) return { status: 'exhausted', count }
    if (code === 1) return { status: 'consumed', count }
    throw unexpected('consume', reply)
  }

  /** Sets the counter to `value` if it does not exist, expiring at `expiresAt`; returns the current value. */
  async initialise(keyId: string, period: string, value: number, expiresAt: number): Promise<number> {
    assertCounterArgs({ keyId, period, value, expiresAt })
    const ttl = expiresAt - this.#now()
    // The period is over by the application's clock: nothing to keep (as the in-process counter does).
    if (ttl <= 0) return value
    const reply = await this.#run(INITIALISE, [this.key(keyId, period)], [value, Math.max(MIN_TTL_MS, ttl)])
    if (typeof reply !== 'number') throw unexpected('initialise', reply)
    return reply
  }

  /** Refunds the consume named `opId` if it counted; see RECONCILE_LUA. */
  async reconcile(keyId: string, period: string, opId: string): Promise<boolean> {
    assertCounterArgs({ keyId, period })
    const reply = await this.#run(RECONCILE, [this.key(keyId, period), this.opsKey(keyId, period)], [opId])
    if (reply !== 0 && reply !== 1) throw unexpected('reconcile', reply)
    return reply === 1
  }

  /** The current count, or undefined if the key does not exist. */
  async peek(keyId: string, period: string): Promise<number | undefined> {
    assertCounterArgs({ keyId, period })
    await this.#ready()
    const reply = await this.#redis.get(this.key(keyId, period)).catch((error: unknown) => {
      this.#errors++
      throw unavailable(error, false)
    })
    if (reply === null) return undefined
    const count = Number(reply)
    if (!Number.isSafeInteger(count)) throw unexpected('peek', reply)
    return count
  }

  /** Removes one previously consumed unit, never going below 0 and never creating the key. */
  async refund(keyId: string, period: string): Promise<void> {
    assertCounterArgs({ keyId, period })
    const reply = await this.#run(REFUND, [this.key(keyId, period)], [])
    if (typeof reply !== 'number') throw unexpected('refund', reply)
  }

  /** Counts a hit in one-second window `window` under `${prefix}rate:${id}:${window}`, shared by every instance. */
  async hit(id: string, window: number): Promise<number> {
    const reply = await this.#run(HIT, [`${this.#prefix}rate:${id}:${window}`], [WINDOW_TTL_MS])
    if (typeof reply !== 'number') throw unexpected('hit', reply)
    return reply
  }

  /** Resolves when Redis answers PING; rejects at once while it is not connected. */
  async ping(): Promise<void> {
    await this.#connected()
    const reply = await this.#redis.ping()
    if (reply !== 'PONG') throw unexpected('ping', reply)
  }

  /** Whether the client is connected now (false while Redis is down or reconnecting). */
  get connected(): boolean {
    return this.#redis.status === 'ready'
  }

  /** Up while connected; errors are the counting operations that failed (readiness pings are not counted). */
  stats(): CounterStats {
    return { backend: 'redis', up: !this.#closed && this.connected, errors: this.#errors }
  }

  /** Quits the client; if Redis is unreachable, drops the connection instead of waiting. */
  async close(): Promise<void> {
    this.#closed = true
    try {
      await this.#redis.quit()
    } catch {
      // QUIT fails when the connection is already gone; there is nothing left to flush.
      this.#redis.disconnect()
    }
  }

  /**
   * EVALSHA, falling back to EVAL (which also caches the script) when Redis does not know the
   * script yet — after a Redis restart or SCRIPT FLUSH. Sending only the hash keeps the hot
   * path small.
   */
  async #run(s: Script, keys: readonly string[], args: ReadonlyArray<string | number>, consumes = false): Promise<unknown> {
    await this.#ready()
    try {
      try {
        return await this.#redis.evalsha(s.sha, keys.length, ...keys, ...args)
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error
        return await this.#redis.eval(s.lua, keys.length, ...keys, ...args)
      }
    } catch (error) {
      this.#errors++
      // Once sent, a consume that got no reply may have run: the caller must reconcile it.
      throw unavailable(error, consumes)
    }
  }

  /** `#connected()` for the counting operations, which count Redis being away as an error (a closed counter is not). */
  #ready(): Promise<void> | undefined {
    return this.#connected()?.catch((error: unknown) => {
      if (error instanceof CounterUnavailableError) this.#errors++
      throw error
    })
  }

  /**
   * Resolves when the client can send: at once while connected; during the very first
   * connect, when it completes (up to the connect timeout); otherwise (Redis down, or
   * reconnecting after a drop) it fails at once, rather than queueing the command.
   */
  #connected(): Promise<void> | undefined {
    if (this.#closed) return Promise.reject(new Error('RedisQuotaCounter is closed'))
    if (this.#redis.status === 'ready') {
      this.#firstConnect = undefined
      return undefined
    }
    const first = this.#firstConnect
    if (first !== undefined && (this.#redis.status === 'connecting' || this.#redis.status === 'connect' || this.#redis.status === 'wait')) {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CounterUnavailableError(`Redis did not connect within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS)
      })
      return Promise.race([first, timeout]).finally(() => clearTimeout(timer))
    }
    return Promise.reject(new CounterUnavailableError(`Redis is not connected (${this.#redis.status})`))
  }
}

/** What a failed command means: the backend is unavailable (a 503), or a bug (anything else). */
function unavailable(error: unknown, mayHaveRun: boolean): Error {
  if (error instanceof Error && /^(?:ERR|WRONGTYPE|NOSCRIPT)\b/.test(error.message)) return error
  return new CounterUnavailableError(`Redis did not answer: ${error instanceof Error ? error.message : String(error)}`, mayHaveRun, { cause: error })
}

function unexpected(operation: string, reply: unknown): Error {
  return new Error(`RedisQuotaCounter.${operation}: unexpected reply ${JSON.stringify(reply)}`)
}

/** How long to wait for a TCP connection before failing (ms). */
const CONNECT_TIMEOUT_MS = 2000
/**
 * How long to wait for a command's reply (ms). Generous: on a busy event loop the timer can
 * fire before a reply that has already arrived is read, and a timed-out consume is a 503
 * (reconciled afterwards) for a request Redis actually answered.
 */
const COMMAND_TIMEOUT_MS = 5000

/**
 * A client tuned for the quota check on the request path, where failing fast (503) beats
 * hanging the request while Redis is away.
 *
 * @param url - A `redis://` or `rediss://` URL.
 * @param onError - Receives connection errors (ioredis emits them as events and prints them
 *   to stderr when nobody listens); commands still reject on their own.
 * @returns A client that starts connecting at once.
 */
export function createRedis(url: string, onError?: (error: Error) => void): Redis {
  const redis = new Redis(url, {
    // Connect at start-up so a wrong URL or an unreachable Redis shows in the logs and in
    // /readyz before the first request, which then does not pay for the handshake.
    lazyConnect: false,
    // The counter sends commands only while connected (a 503 at once otherwise); nothing
    // should wait in a queue for a Redis that may be gone for minutes.
    enableOfflineQueue: false,
    // A command in flight when the connection drops fails instead of being resent: a resent
    // consume could count twice. The counter reconciles it instead.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Reconnect delays are capped at 1 s (the default grows to 5 s) so that those 3 attempts
    // stay a few seconds long even after a long outage.
    retryStrategy: (times: number) => Math.min(50 * 2 ** (times - 1), 1000),
    // A host that drops packets would otherwise hold the connect for the 10 s default.
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Backstop for a Redis that accepts connections but does not answer (paused, overloaded).
    // A timed-out consume may still have run on the server: the counter reports its outcome
    // as unknown and the quota service reconciles it, so the key is never charged for it.
    commandTimeout: COMMAND_TIMEOUT_MS,
  })
  if (onError !== undefined) redis.on('error', onError)
  return redis
}
