/**
 * How a command reaches DATA_DIR. The embedded database admits one process at a time, and
 * the process that holds DATA_DIR's lock (src/infra/data-dir-lock.ts) owns it: a command
 * never opens a database another process holds. Commands the running server can answer
 * (keys, usage) go through its admin socket; those that need the database itself (db,
 * content) take the lock or say who holds it.
 */
import { existsSync } from 'node:fs'
import { createConnection } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { adminPaths, readAdminToken } from '../admin/admin.server.js'
import { acquireDataDirLock, DataDirBusyError, describeHolder, readLockHolder, type DataDirLock } from '../infra/data-dir-lock.js'

/** Exit code of a command that cannot reach DATA_DIR now (EX_TEMPFAIL): try again later. */
export const EX_TEMPFAIL = 75

/**
 * The CLI's content pack folder (DATA_DIR/cli/content, beside its journal in DATA_DIR/cli): not
 * the server's DATA_DIR/content, since a command may run beside a server on PostgreSQL and see
 * another content revision, and each removes the packs of other revisions from its folder.
 */
export function cliContentPackDir(dataDir: string): string {
  return join(dataDir, 'cli', 'content')
}

/** A command that cannot proceed, with the reason to print. */
export class DataDirUnavailable extends Error {
  override readonly name = 'DataDirUnavailable'
}

/** How a command reaches the services: the running server's admin socket, or in-process with the lock held. */
export type DataDirAccess =
  { readonly kind: 'socket'; readonly socket: string; readonly token: string } | { readonly kind: 'local'; readonly lock: DataDirLock }

/** How long and how often a command waits for a starting server or a finishing command. */
export interface WaitPolicy {
  readonly timeoutMs: number
  readonly pollMs: number
  /** Prints a line about the wait (once per holder). */
  readonly note: (line: string) => void
}

/** How long a command waits for another command or a stopping server (a starting server is waited for as long as it lives). */
export const DEFAULT_WAIT: Omit<WaitPolicy, 'note'> = { timeoutMs: 120_000, pollMs: 200 }

/** True when a server accepts connections on the admin socket. */
export function socketAnswers(path: string): Promise<boolean> {
  if (!existsSync(path)) return Promise.resolve(false)
  return new Promise((done) => {
    const socket = createConnection(path)
    const finish = (answers: boolean): void => {
      socket.destroy()
      done(answers)
    }
    socket.once('connect', () => finish(true))
    // ECONNREFUSED: a socket file left by a server that died.
    socket.once('error', () => finish(false))
    socket.setTimeout(2000, () => finish(false))
  })
}

/**
 * For commands the running server can answer: its admin socket when it answers; otherwise
 * DATA_DIR's lock, to work in-process. While the holder is a server that is starting (a
 * first start seeds for several seconds before its socket opens), it waits for as long as
 * that server lives; while a server is stopping or another command holds it, up to `policy.timeoutMs`.
 * @throws DataDirUnavailable when it cannot proceed, with the reason.
 */
export async function reachDataDir(dataDir: string, policy: WaitPolicy): Promise<DataDirAccess> {
  const { socket } = adminPaths(dataDir)
  const deadline = Date.now() + policy.timeoutMs
  let noted = ''
  for (;;) {
    const token = readAdminToken(dataDir)
    if (token !== undefined && (await socketAnswers(socket))) return { kind: 'socket', socket, token }
    try {
      return { kind: 'local', lock: acquireDataDirLock(dataDir, 'cli') }
    } catch (error) {
      if (!(error instanceof DataDirBusyError)) throw error
      const holder = error.holder
      if (holder?.role === 'server' && holder.state === 'ready') {
        // Its socket should answer; the token may be unreadable to this user.
        throw new DataDirUnavailable(
          `${error.message}, but its admin socket ${socket} does not answer${token === undefined ? ' and its token cannot be read (run the command as the user the server runs as)' : ''}.`,
        )
      }
      // A starting server holds the lock until its socket opens: a first start loads the whole
      // KJV, which on a busy machine can take minutes. It either opens its socket or dies and
      // releases the lock, so the wait for it is not bounded; other holders are.
      const starting = holder?.role === 'server' && holder.state === 'starting'
      if (!starting && Date.now() >= deadline) {
        throw new DataDirUnavailable(`${error.message}; gave up waiting after ${Math.round(policy.timeoutMs / 1000)} s.`)
      }
      const key = `${holder?.pid}:${holder?.state}`
      if (key !== noted) {
        noted = key
        policy.note(`Waiting: DATA_DIR is held by ${describeHolder(holder)}.`)
      }
      await sleep(policy.pollMs)
    }
  }
}

/**
 * For commands that work on the embedded database itself: the lock, or the reason it is
 * held, naming the holder.
 * @throws DataDirUnavailable
 */
export function claimEmbeddedDatabase(dataDir: string): DataDirLock {
  try {
    return acquireDataDirLock(dataDir, 'cli')
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error
    const server = error.holder?.role === 'server' || readLockHolder(dataDir)?.role === 'server'
    throw new DataDirUnavailable(
      `${error.message}.\n` +
        'The embedded database (PGlite) admits one process at a time' +
        (server
          ? ': stop the server, run this command, then start the server again (it migrates, seeds and loads content at start).\n'
          : '; try again when that command has finished.\n') +
        'With DATABASE_URL set (PostgreSQL), commands and servers can share the database.',
    )
  }
}
