/** Starts the real server (src/server.ts, or a built one) as a child process, as an operator would. */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectPath } from '../../src/infra/paths.js'
import { pgliteTemplateDir } from './database.js'

/** A running server process and what it has logged. */
export interface ServerProcess {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly dataDir: string
  /** Every JSON line the server wrote to stdout so far. */
  readonly logs: Array<Record<string, unknown>>
  /** Everything written to stderr. */
  stderr(): string
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** A data folder holding a copy of the seeded PGlite template, removed by the caller. */
export function seededDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pv-data-'))
  cpSync(pgliteTemplateDir(), join(dir, 'pglite'), { recursive: true })
  return dir
}

/**
 * The per-second rate limits turned off: suites that send hundreds of requests at once test
 * quotas, concurrency and faults, not bursts. test/quotas/rate-limit.test.ts tests the limits.
 */
export const RATE_LIMITS_OFF: Readonly<Record<string, string>> = Object.freeze({
  RATE_LIMIT_FREE: '0',
  RATE_LIMIT_DEVELOPER: '0',
  RATE_LIMIT_SCALE: '0',
  RATE_LIMIT_ADDRESS: '0',
})

/**
 * Spawns the server on a free port and waits for its "ready" log line.
 * @param env extra environment; DATA_DIR defaults to a fresh seeded copy. PORT defaults to
 *   0: the system picks a free port, which the server reports in its "ready" line.
 * @param entry a built server (JavaScript, run by node itself); src/server.ts through tsx by default.
 */
export async function startServer(env: Record<string, string> = {}, timeoutMs = 120_000, entry?: string): Promise<ServerProcess> {
  const server = spawnServer(env, entry)
  await server.ready(timeoutMs)
  return server
}

/** A server process that may still be starting. */
export interface StartingServer extends ServerProcess {
  /** Waits for the "ready" line (resolves at once if the process has exited meanwhile). */
  ready(timeoutMs?: number): Promise<void>
}

/** Spawns the server without waiting for it: for tests that act while it starts. */
export function spawnServer(env: Record<string, string> = {}, entry?: string): StartingServer {
  const dataDir = env.DATA_DIR ?? seededDataDir()
  const port = env.PORT ?? '0'
  const child = spawn(process.execPath, entry === undefined ? ['--import', 'tsx', projectPath('src', 'server.ts')] : [entry], {
    cwd: projectPath(),
    // Embedded database and in-process counters unless the test asks for servers explicitly.
    // Per-second limits off unless the test sets them (see RATE_LIMITS_OFF).
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'info', HOST: '127.0.0.1', ...RATE_LIMITS_OFF, ...env, PORT: port, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const logs: Array<Record<string, unknown>> = []
  let stderr = ''
  let buffered = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const line of lines) if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>)
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let boundPort = port
  const server: StartingServer = {
    child,
    get baseUrl() {
      return `http://127.0.0.1:${boundPort}`
    },
    dataDir,
    logs,
    stderr: () => stderr,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
    async ready(timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const line = logs.find((l) => l.msg === 'ready')
        if (line !== undefined) {
          boundPort = String(line.port)
          return
        }
        if (child.exitCode !== null || child.signalCode !== null) return
        if (Date.now() > deadline) {
          child.kill('SIGKILL')
          throw new Error(`server did not become ready in ${timeoutMs} ms; stderr: ${stderr}`)
        }
        await new Promise((r) => setTimeout(r, 50))
      }
    },
  }
  return server
}

/** Removes a data folder made by seededDataDir(). */
export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
