/**
 * One process at a time owns a DATA_DIR: the embedded database (PGlite) in it, the usage
 * journal and the admin socket are single-process. The owner holds an exclusive kernel lock
 * on `DATA_DIR/plainverse.lock` for as long as it runs (fs-native-extensions: an open file
 * description lock on Linux, flock on macOS). The kernel releases it when the process exits
 * in any way, `kill -9` included, so a lock is never left behind and no staleness guess is
 * needed. The file also says who holds it (pid, host, role, state) so that a second process
 * can name the holder; the file itself is never deleted, because deleting a lock file lets
 * two processes lock two different files of the same name.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync, constants } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { tryLock, unlock } from 'fs-native-extensions'

/** What a DATA_DIR's owner is doing. */
export type LockState = 'starting' | 'ready' | 'stopping'

/** Who holds a DATA_DIR, as written in its lock file. */
export interface LockHolder {
  readonly pid: number
  readonly hostname: string
  /** `server` for `plainverse` serving; `cli` for a command working on the embedded database in-process. */
  readonly role: 'server' | 'cli'
  readonly state: LockState
  /** When the holder took the lock (ISO 8601). */
  readonly since: string
  /** The command line, for the message a second process prints. */
  readonly command: string
}

/** A DATA_DIR that another process owns. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    /** Undefined when the holder has not written its details yet (it is just starting). */
    readonly holder: LockHolder | undefined,
  ) {
    super(`DATA_DIR ${dataDir} is in use by ${describeHolder(holder)}`)
    this.name = 'DataDirBusyError'
  }
}

/** A held lock. */
export interface DataDirLock {
  readonly dataDir: string
  /** Records a new state in the lock file (readers see it at once). */
  setState(state: LockState): void
  /** Releases the lock; safe to call twice. */
  release(): void
}

/** The lock file of a DATA_DIR. */
export function lockFilePath(dataDir: string): string {
  return join(dataDir, 'plainverse.lock')
}

/**
 * Takes the DATA_DIR for this process, creating the folder if needed.
 * @throws DataDirBusyError when another process (or another part of this one) holds it.
 * @example const lock = acquireDataDirLock('/var/lib/plainverse', 'server'); ... lock.release()
 */
export function acquireDataDirLock(dataDir: string, role: LockHolder['role']): DataDirLock {
  mkdirSync(dataDir, { recursive: true })
  const path = lockFilePath(dataDir)
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600)
  let held = false
  try {
    held = tryLock(fd)
  } finally {
    if (!held) closeSync(fd)
  }
  if (!held) throw new DataDirBusyError(dataDir, readLockHolder(dataDir))
  const base = { pid: process.pid, hostname: hostname(), role, since: new Date().toISOString(), command: process.argv.slice(1).join(' ') }
  const write = (state: LockState): void => {
    const text = Buffer.from(`${JSON.stringify({ ...base, state })}\n`)
    ftruncateSync(fd, 0)
    writeSync(fd, text, 0, text.length, 0)
  }
  write('starting')
  let released = false
  return {
    dataDir,
    setState(state) {
      if (!released) write(state)
    },
    release() {
      if (released) return
      released = true
      try {
        unlock(fd)
      } finally {
        closeSync(fd)
      }
    },
  }
}

/** Who holds the DATA_DIR's lock file, if it names anyone (a holder may not have written it yet). */
export function readLockHolder(dataDir: string): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(lockFilePath(dataDir), 'utf8'))
    if (typeof value !== 'object' || value === null) return undefined
    const holder = value as Partial<LockHolder>
    const ok =
      Number.isInteger(holder.pid) &&
      typeof holder.hostname === 'string' &&
      (holder.role === 'server' || holder.role === 'cli') &&
      (holder.state === 'starting' || holder.state === 'ready' || holder.state === 'stopping') &&
      typeof holder.since === 'string' &&
      typeof holder.command === 'string'
    return ok ? (holder as LockHolder) : undefined
  } catch {
    return undefined
  }
}

/** "a Plainverse server (pid 4242 on host web-1, starting since 2026-11-23T10:00:00.000Z)". */
export function describeHolder(holder: LockHolder | undefined): string {
  if (holder === undefined) return 'another process (it has not said who it is yet)'
  const what = holder.role === 'server' ? 'a Plainverse server' : `a plainverse command (${holder.command})`
  return `${what} (pid ${holder.pid} on host ${holder.hostname}, ${holder.state} since ${holder.since})`
}
