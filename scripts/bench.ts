/**
 * `make bench`: the verse endpoint of the real server (compiled, embedded PGlite) with a real
 * API key, authentication and metering on, and a bare node:http server returning a fixed
 * JSON buffer, measured one after the other in one run with the same load generator
 * (autocannon, 50 connections). Prints requests per second, their ratio (target >= 0.75 on
 * the embedded default), p99 latency, the server's peak resident memory and its start-up
 * time to ready; with REDIS_URL set, also the same endpoint with Redis counters. Then the
 * search endpoint: p50 and p99 latency of a fixed list of 200 queries (scripts/search-queries.json),
 * sent one after another, and how long after ready the first search waited for the index.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { projectPath } from '../src/infra/paths.js'

const CONNECTIONS = 50
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10)
/** Rounds of (server, baseline) pairs; alternating them cancels most of the drift of a shared machine. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const WARMUP_S = 3
const TARGET_RATIO = 0.75
/** Passes over the 200 search queries that are measured (after one warm-up pass). */
const SEARCH_ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 3)
const SEARCH_TARGET_P99_MS = 25
/** The per-second limits stay on (their cost is part of the hot path) but far above any load this machine can make. */
const UNREACHED_RATE_LIMITS = { RATE_LIMIT_SCALE: '2000000000', RATE_LIMIT_ADDRESS: '2000000000' }

interface Child {
  readonly process: ChildProcess
  readonly startupMs: number
}

function spawnUntil(command: string, args: string[], env: NodeJS.ProcessEnv, isReady: () => Promise<boolean>): Promise<Child> {
  const started = performance.now()
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] })
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)))
    const poll = async (): Promise<void> => {
      if (await isReady().catch(() => false)) resolve({ process: child, startupMs: performance.now() - started })
      else setTimeout(() => void poll(), 10)
    }
    void poll()
  })
}

/** Resolves true once `url` answers 200. */
function answers(url: string): () => Promise<boolean> {
  return async () => (await fetch(url)).status === 200
}

/** Peak resident set size (VmHWM) of a process, in MiB. */
function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return kb / 1024
}

async function load(url: string, paths: readonly string[], headers: Record<string, string>, duration: number): Promise<autocannon.Result> {
  let i = 0
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[i++ % paths.length] ?? '/' }) }],
  })
}

/** Figures of one target over all rounds. */
interface Figures {
  readonly label: string
  readonly reqPerSec: number
  readonly p99: number
  readonly errors: number
  readonly rssMiB: number
}

/** Loads `url` for one round and adds the result to `into`. */
async function round(url: string, paths: readonly string[], headers: Record<string, string>, into: autocannon.Result[]): Promise<void> {
  into.push(await load(url, paths, headers, DURATION_S))
}

function figures(label: string, results: readonly autocannon.Result[], pid: number | undefined): Figures {
  return {
    label,
    reqPerSec: results.reduce((sum, r) => sum + r.requests.average, 0) / results.length,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
    rssMiB: peakRssMiB(pid ?? 0),
  }
}

/**
 * Starts the compiled server with `env` beside the baseline, and measures both in alternating
 * rounds with a real key (alternation cancels most of the drift of a shared machine).
 */
async function measure(
  label: string,
  env: NodeJS.ProcessEnv,
  port: number,
  baseUrl: string,
  basePid: number | undefined,
  key: string,
  paths: readonly string[],
): Promise<{ server: Figures; bare: Figures; startupMs: number }> {
  const ready = answers(`http://127.0.0.1:${port}/readyz`)
  const server = await spawnUntil(process.execPath, [projectPath('dist', 'src', 'server.js')], { ...env, PORT: String(port) }, ready)
  try {
    const url = `http://127.0.0.1:${port}`
    const headers = { 'x-api-key': key }
    await load(url, paths, headers, WARMUP_S)
    await load(baseUrl, ['/'], {}, WARMUP_S)
    const served: autocannon.Result[] = []
    const bare: autocannon.Result[] = []
    for (let i = 0; i < ROUNDS; i++) {
      await round(url, paths, headers, served)
      await round(baseUrl, ['/'], {}, bare)
    }
    return { server: figures(label, served, server.process.pid), bare: figures('bare node:http', bare, basePid), startupMs: server.startupMs }
  } finally {
    server.process.kill('SIGTERM')
    await new Promise((r) => server.process.once('exit', r))
  }
}

/** Search latency over the fixed query list. */
interface SearchFigures {
  readonly p50: number
  readonly p99: number
  readonly samples: number
  readonly errors: number
  /** From ready to the first search's answer: the wait for the index built in the background. */
  readonly firstSearchMs: number
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}

/** Starts the server and times each query of scripts/search-queries.json, one at a time, over a kept-alive connection. */
async function measureSearch(env: NodeJS.ProcessEnv, port: number, key: string): Promise<SearchFigures> {
  const queries = JSON.parse(readFileSync(projectPath('scripts', 'search-queries.json'), 'utf8')) as Array<Record<string, string>>
  const urls = queries.map((query) => `http://127.0.0.1:${port}/api/v1/search?${new URLSearchParams(query).toString()}`)
  const server = await spawnUntil(
    process.execPath,
    [projectPath('dist', 'src', 'server.js')],
    { ...env, PORT: String(port) },
    answers(`http://127.0.0.1:${port}/readyz`),
  )
  try {
    const headers = { 'x-api-key': key }
    const timed = async (url: string): Promise<{ ms: number; ok: boolean }> => {
      const started = performance.now()
      const response = await fetch(url, { headers })
      await response.arrayBuffer()
      return { ms: performance.now() - started, ok: response.status === 200 }
    }
    const firstSearchMs = (await timed(urls[0] ?? '')).ms
    for (const url of urls) await timed(url)
    const latencies: number[] = []
    let errors = 0
    for (let round = 0; round < SEARCH_ROUNDS; round++) {
      for (const url of urls) {
        const { ms, ok } = await timed(url)
        latencies.push(ms)
        if (!ok) errors++
      }
    }
    latencies.sort((a, b) => a - b)
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), samples: latencies.length, errors, firstSearchMs }
  } finally {
    server.process.kill('SIGTERM')
    await new Promise((r) => server.process.once('exit', r))
  }
}

function line(f: Figures, ratio?: number): string {
  return `  ${f.label.padEnd(18)} ${f.reqPerSec.toFixed(0).padStart(8)} req/s   p99 ${String(f.p99).padStart(4)} ms   peak RSS ${f.rssMiB.toFixed(0).padStart(4)} MiB${ratio === undefined ? '' : `   ratio ${ratio.toFixed(2)}   non-2xx/errors ${f.errors}`}`
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-bench-'))
  const port = 18_080
  const basePort = 18_081
  const serverEnv = { HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' }
  try {
    // The first start seeds the fresh data folder; later starts measure start-up to ready on it.
    const ready = answers(`http://127.0.0.1:${port}/readyz`)
    const seeding = await spawnUntil(process.execPath, [projectPath('dist', 'src', 'server.js')], { ...serverEnv, PORT: String(port) }, ready)
    const url = `http://127.0.0.1:${port}`
    const books = (await (await fetch(`${url}/api/v1/books`)).json()) as { data: Array<{ slug: string; verse_counts: number[] }> }
    seeding.process.kill('SIGTERM')
    await new Promise((r) => seeding.process.once('exit', r))
    // A real key on the scale tier, created with the operator CLI, as an operator would.
    const key =
      execFileSync(process.execPath, [projectPath('dist', 'src', 'cli', 'main.js'), 'keys', 'create', '--name', 'bench', '--tier', 'scale'], {
        env: { ...process.env, ...serverEnv, QUOTA_SCALE: '100000000', ...UNREACHED_RATE_LIMITS },
        encoding: 'utf8',
      }).split('\n')[0] ?? ''

    // A spread of verses and styles, so the benchmark is not one cached entry.
    const paths: string[] = []
    // The same verses' public pages (no key needed; never counted).
    const pagePaths: string[] = []
    const styles = ['faithful', 'casual', 'all']
    for (let n = 0; paths.length < 2_000; n++) {
      const book = books.data[(n * 7) % books.data.length]
      if (book === undefined) continue
      const chapter = (n % book.verse_counts.length) + 1
      const verse = (n % (book.verse_counts[chapter - 1] ?? 1)) + 1
      paths.push(`/api/v1/verse/${book.slug}-${chapter}-${verse}?style=${styles[n % 3]}`)
      pagePaths.push(`/${book.slug}/${chapter}/${verse}`)
    }
    const env = { ...serverEnv, QUOTA_SCALE: '100000000', ...UNREACHED_RATE_LIMITS }
    const sampleServer = await spawnUntil(process.execPath, [projectPath('dist', 'src', 'server.js')], { ...env, PORT: String(port) }, ready)
    const bodyFile = join(dataDir, 'baseline.json')
    writeFileSync(bodyFile, Buffer.from(await (await fetch(`${url}/api/v1/verse/john-3-16?style=all`, { headers: { 'x-api-key': key } })).arrayBuffer()))
    sampleServer.process.kill('SIGTERM')
    await new Promise((r) => sampleServer.process.once('exit', r))

    const baseline = await spawnUntil(
      process.execPath,
      [projectPath('dist', 'scripts', 'bench-baseline.js'), String(basePort), bodyFile],
      {},
      answers(`http://127.0.0.1:${basePort}/`),
    )
    const baseUrl = `http://127.0.0.1:${basePort}`
    try {
      const embedded = await measure('verse, embedded', env, port, baseUrl, baseline.process.pid, key, paths)
      const redisUrl = process.env.REDIS_URL
      const redis =
        redisUrl !== undefined && redisUrl !== ''
          ? await measure('verse, Redis', { ...env, REDIS_URL: redisUrl }, port, baseUrl, baseline.process.pid, key, paths)
          : undefined
      const pages = await measure('verse page, embedded', env, port, baseUrl, baseline.process.pid, key, pagePaths)
      const search = await measureSearch(env, port, key)
      const ratio = embedded.server.reqPerSec / embedded.bare.reqPerSec
      console.log(
        `\nPlainverse benchmark: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_S} s per target, autocannon, LOG_LEVEL=warn, real API key, auth and metering on`,
      )
      console.log(line(embedded.server, ratio))
      console.log(line(embedded.bare))
      if (redis !== undefined) {
        console.log(line(redis.server, redis.server.reqPerSec / redis.bare.reqPerSec))
        console.log(line({ ...redis.bare, label: 'bare (Redis run)' }))
      }
      console.log(line(pages.server, pages.server.reqPerSec / pages.bare.reqPerSec))
      console.log(line({ ...pages.bare, label: 'bare (page run)' }))
      console.log(`  ratio (embedded)   ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`)
      console.log(`  start-up to ready  ${embedded.startupMs.toFixed(0)} ms (embedded PGlite, 31,102 verses loaded; target < 2000 ms)`)
      console.log(
        `  search p50 ${search.p50.toFixed(1)} ms, p99 ${search.p99.toFixed(1)} ms (target p99 < ${SEARCH_TARGET_P99_MS} ms: ${search.p99 < SEARCH_TARGET_P99_MS ? 'met' : 'NOT met'}; ${search.samples} requests, 200 queries x ${SEARCH_ROUNDS}, one at a time, non-200 ${search.errors})`,
      )
      console.log(
        `  search index       first search answered ${search.firstSearchMs.toFixed(0)} ms after ready (the index is built in the background after listen)`,
      )
    } finally {
      baseline.process.kill('SIGTERM')
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
