/**
 * A PostgreSQL server of the test's own, on a free port, that the test may stop, crash and
 * restart without touching the shared server other tests use. Built from the machine's
 * PostgreSQL binaries (Debian's postgresql package); when they are missing, the caller skips.
 * PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user.
 */
import { execFile } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** A private PostgreSQL server. */
export interface PostgresInstance {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`. */
  readonly url: string
  readonly port: number
  /** Starts the server (again) on the same port and data. */
  start(): Promise<void>
  /** Stops it: `fast` disconnects clients cleanly, `immediate` is a crash (recovery on the next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  /** Stops it and removes its files. */
  destroy(): Promise<void>
}

/** The folder of initdb, pg_ctl and postgres, if installed. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin')
}

/** Why a private server cannot be made here, or undefined when it can. */
export function privatePostgresUnavailable(): string | undefined {
  if (binDir() === undefined) return 'PostgreSQL binaries (initdb, pg_ctl) are not installed: apt-get install postgresql'
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser')) return 'running as root without runuser to start PostgreSQL as another user'
  return undefined
}

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** Creates, initializes and starts a private server. */
export async function startPrivatePostgres(): Promise<PostgresInstance> {
  const bin = binDir()
  if (bin === undefined) throw new Error(privatePostgresUnavailable())
  const root = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), 'pv-pg-'))
  const data = join(dir, 'data')
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()))
  }
  const exec = (command: string, args: string[]) =>
    root ? run('/usr/sbin/runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { cwd: dir }) : run(join(bin, command), args, { cwd: dir })
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions'])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`
  const instance: PostgresInstance = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await exec('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '120', 'start'])
    },
    async stop(mode = 'fast') {
      await exec('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '120', 'stop'])
    },
    async destroy() {
      await instance.stop('immediate').catch(() => undefined)
      rmSync(dir, { recursive: true, force: true })
    },
  }
  await instance.start()
  return instance
}
