/**
 * The load generator of `make bench`: wrk (native, from Debian's package), driven through a
 * Lua script that cycles over pre-formatted requests, so that every target, the bare
 * baselines included, costs the generator the same per request.
 */
import { execFile, execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** What one wrk run measured. */
export interface WrkResult {
  readonly requestsPerSec: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Answers with a status of 400 or more (wrk's "Non-2xx or 3xx responses"). */
  readonly errorStatus: number
  /** Connect, read, write and timeout errors. */
  readonly socketErrors: number
  readonly requests: number
}

/** One request a target sends (cycled in order). */
export interface BenchRequest {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
}

/** The path of wrk, or exits naming how to install it. */
export function requireWrk(): string {
  const candidates = [process.env.WRK, '/usr/bin/wrk', '/usr/local/bin/wrk'].filter((c): c is string => c !== undefined && c !== '')
  for (const candidate of candidates) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' })
      return candidate
    } catch (error) {
      // wrk --version exits 1 after printing its version: it exists.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return candidate
    }
  }
  process.stderr.write('make bench needs wrk, a native HTTP load generator: install it with `apt-get install wrk` (Debian/Ubuntu), or set WRK=/path/to/wrk.\n')
  process.exit(69) // EX_UNAVAILABLE
}

function luaString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`
}

/** Writes a wrk script that sends `requests` in turn (each thread from its own offset). */
export function writeWrkScript(file: string, requests: readonly BenchRequest[]): void {
  const entries = requests.map((r) => {
    const headers = Object.entries(r.headers ?? {})
      .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`)
      .join(', ')
    return `  { ${luaString(r.method)}, ${luaString(r.path)}, { ${headers} }, ${r.body === undefined ? 'nil' : luaString(r.body)} },`
  })
  writeFileSync(
    file,
    [
      'local specs = {',
      ...entries,
      '}',
      'local formatted = {}',
      'local i = 0',
      'init = function(args)',
      '  for n, s in ipairs(specs) do formatted[n] = wrk.format(s[1], s[2], s[3], s[4]) end',
      '  i = math.random(#formatted) - 1',
      'end',
      'request = function()',
      '  i = (i % #formatted) + 1',
      '  return formatted[i]',
      'end',
      '',
    ].join('\n'),
  )
}

function milliseconds(value: string, unit: string): number {
  const n = Number(value)
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : n
}

/** Parses wrk's report (with --latency). */
export function parseWrk(output: string): WrkResult {
  const percentile = (p: string): number => {
    const match = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(output)
    return match === null ? Number.NaN : milliseconds(match[1] ?? '', match[2] ?? '')
  }
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
  return {
    requestsPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN),
    p50Ms: percentile('50'),
    p99Ms: percentile('99'),
    errorStatus: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: socket === null ? 0 : socket.slice(1).reduce((sum, n) => sum + Number(n), 0),
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? 0),
  }
}

/** Runs wrk against `baseUrl` with a script from `writeWrkScript`. */
export async function runWrk(
  wrk: string,
  baseUrl: string,
  script: string,
  options: { readonly connections: number; readonly threads: number; readonly seconds: number },
): Promise<WrkResult> {
  const { stdout } = await run(
    wrk,
    [`-t${options.threads}`, `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '--timeout', '5s', '-s', script, baseUrl],
    { maxBuffer: 1 << 20 },
  )
  return parseWrk(stdout)
}
