/**
 * `make bench`: the real server (compiled, from dist/) against a bare node:http server and a
 * bare Fastify route, each in its own process, loaded from outside by wrk (native), 50
 * connections, in alternating rounds (every round measures every target in turn, which
 * cancels most of the drift of a shared machine). The verse lookup and the other counted
 * endpoints use a real scale-tier key created with the operator CLI through the running
 * server's admin socket, with authentication, the rate limits and durable metering on.
 *
 * Prints per target requests/s (each round and the mean), p50 (the rounds' median) and p99 (the
 * slowest round's; the verse lookup's verdict names every round's), answers >= 400 and the
 * ratio to bare node:http; then resident memory at idle after ready and at peak under load
 * (embedded, and on PostgreSQL when DATABASE_URL is set, in a scratch database created and
 * dropped here), start-up time to ready (first start on an empty DATA_DIR, later start), the
 * throughput of the first seconds after a restart, and the time to the first search result.
 * The seeding's figures: on PostgreSQL, the first start's own process (it loads the seed
 * bundle); embedded, whose first start copies the build's seeded template, the build's seed
 * steps run again into a temporary folder, each in its own process.
 *
 * BENCH_DURATION (s per target per round, default 5), BENCH_ROUNDS (default 3).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { SERVER_NODE_FLAGS } from '../src/infra/heap.js'
import { projectPath } from '../src/infra/paths.js'
import { captureWire } from './bench-wire.js'
import { requireWrk, runWrk, writeWrkScript, type BenchRequest, type WrkResult } from './bench-wrk.js'

const CONNECTIONS = 50
const THREADS = 2
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const WARMUP_S = 2
/** The verse lookup's extra round under tcpdump (scripts/bench-wire.ts). */
const WIRE_S = 3
/**
 * How long a server is left alone after its first search answered before its idle memory is
 * read. V8's memory reducer gives the young generation's pages back only once allocation has
 * been low for a while (about 8 s, then a few collections): read sooner, "idle" would count
 * start-up's garbage, which any server left idle that long no longer holds.
 */
const IDLE_SETTLE_MS = 30_000
const TARGETS = { ratio: 0.75, p99Ms: 5, idleMiB: 300, peakMiB: 400, pgIdleMiB: 150, pgPeakMiB: 250, laterStartMs: 1_000, firstStartMs: 8_000 }
/** The per-second limits stay on (their cost is part of the hot path) but far above any load this machine can make. */
const UNREACHED_LIMITS = { QUOTA_SCALE: '1000000000', RATE_LIMIT_SCALE: '2000000000', RATE_LIMIT_ADDRESS: '2000000000' }
const SERVER = projectPath('dist', 'server', 'server.js')
const CLI = projectPath('dist', 'src', 'cli', 'main.js')

interface Server {
  readonly child: ChildProcess
  readonly url: string
  /** From spawn to the first 200 from /readyz. */
  readonly startupMs: number
  /** performance.now() when it was first ready. */
  readonly readyAt: number
}

/** Starts `script` with `env` and waits until `readyPath` answers 200. */
async function start(script: string, args: string[], env: NodeJS.ProcessEnv, port: number, readyPath: string): Promise<Server> {
  const started = performance.now()
  // Every server, the baselines too, runs with the options the server is started with (make run).
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, script, ...args], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  let exited: number | null | undefined
  child.once('exit', (code) => (exited = code))
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (exited !== undefined) throw new Error(`${script} exited with ${exited} before it was ready`)
    const ok = await fetch(`${url}${readyPath}`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ok) return { child, url, startupMs: performance.now() - started, readyAt: performance.now() }
    await sleep(5)
  }
}

function startServer(env: NodeJS.ProcessEnv, port: number): Promise<Server> {
  return start(SERVER, [], env, port, '/readyz')
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGTERM')
  await exited
}

/** Resident memory now and at its peak (VmRSS, VmHWM), in MiB. */
function memory(server: Server): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${server.child.pid ?? 0}/status`, 'utf8')
  const field = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024
  return { rss: field('VmRSS'), peak: field('VmHWM') }
}

/** A key on the scale tier, created with the operator CLI (through the running server's admin socket). */
function createKey(env: NodeJS.ProcessEnv, name: string): string {
  const out = execFileSync(process.execPath, [CLI, 'keys', 'create', '--name', name, '--tier', 'scale'], { env: { ...process.env, ...env }, encoding: 'utf8' })
  const key = out.split('\n')[0] ?? ''
  if (!key.startsWith('pv_')) throw new Error(`keys create printed no key: ${out}`)
  return key
}

/** From ready to the first search's 200 (the index must be there, or built on demand). */
async function timeFirstSearch(server: Server, key: string): Promise<{ afterReadyMs: number; fromSpawnMs: number }> {
  const response = await fetch(`${server.url}/api/v1/search?q=love`, { headers: { 'x-api-key': key } })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`the first search answered ${response.status}`)
  const afterReadyMs = performance.now() - server.readyAt
  return { afterReadyMs, fromSpawnMs: server.startupMs + afterReadyMs }
}

/** What a run of the server in one mode measured besides throughput. */
interface ModeFigures {
  readonly firstStartMs: number
  /** Peak resident memory of the first start's process (on PostgreSQL, the process that seeds the empty database). */
  readonly firstStartPeakMiB: number
  /** From a first start's ready to its first search's 200 (the index is built then). */
  readonly firstStartSearchMs: number
  readonly laterStartMs: number
  readonly idleMiB: number
  readonly firstSearch: { afterReadyMs: number; fromSpawnMs: number }
}

/**
 * A first start on an empty DATA_DIR (and database), a key created through the CLI, and a
 * later start measured for start-up, first search and idle memory.
 */
async function prepareMode(
  env: NodeJS.ProcessEnv,
  port: number,
): Promise<{ figures: Omit<ModeFigures, 'idleMiB' | 'laterStartMs' | 'firstSearch'>; key: string; sample: Sample }> {
  const first = await startServer(env, port)
  try {
    const key = createKey(env, 'bench')
    const sample = await sampleContent(first.url, key)
    // A first start builds the search index once it listens and saves it for later starts; a
    // server stopped before its first search answered would leave the later start to build it
    // again, which no server that ran for more than a second or two has to.
    const firstSearch = await timeFirstSearch(first, key)
    return { figures: { firstStartMs: first.startupMs, firstStartPeakMiB: memory(first).peak, firstStartSearchMs: firstSearch.afterReadyMs }, key, sample }
  } finally {
    await stop(first)
  }
}

async function laterStart(env: NodeJS.ProcessEnv, port: number, key: string): Promise<Pick<ModeFigures, 'laterStartMs' | 'idleMiB' | 'firstSearch'>> {
  const server = await startServer(env, port)
  try {
    const firstSearch = await timeFirstSearch(server, key)
    await sleep(IDLE_SETTLE_MS)
    return { laterStartMs: server.startupMs, idleMiB: memory(server).rss, firstSearch }
  } finally {
    await stop(server)
  }
}

/** One of the build's seed steps, run again: how long it took and its peak resident memory. */
interface BuildStep {
  readonly label: string
  readonly ms: number
  readonly peakMiB: number
}

/**
 * The embedded first start copies a database the build migrated and seeded, so the seeding is
 * done by the build's steps (scripts/seed-bundle.ts, then scripts/seeded-template.ts, each its
 * own process): both run again here from scratch (--force) into a temporary folder, timed from
 * outside, each reporting its own peak (VmHWM, read by the process just before it exits).
 */
function runSeedBuild(dir: string): BuildStep[] {
  const bundle = join(dir, 'seed-bundle', 'verse-content.jsonl')
  const steps: Array<[string, string, string[]]> = [
    ['seed bundle (parse, validate, modernize)', 'seed-bundle.js', ['--out', bundle]],
    ['seeded template (migrate, seed from the bundle)', 'seeded-template.js', ['--out', join(dir, 'pglite-seeded'), '--bundle', bundle]],
  ]
  const figures: BuildStep[] = []
  for (const [label, script, args] of steps) {
    const started = performance.now()
    const out = execFileSync(process.execPath, [...SERVER_NODE_FLAGS, projectPath('dist', 'scripts', script), ...args, '--force'], { encoding: 'utf8' })
    const peak = /peak resident memory (\d+) MiB/.exec(out)?.[1]
    if (peak === undefined) throw new Error(`${script} printed no peak: ${out}`)
    figures.push({ label, ms: performance.now() - started, peakMiB: Number(peak) })
  }
  return figures
}

/** What the requests are made of: real verses, narratives, an entity tag. */
interface Sample {
  readonly verses: ReadonlyArray<{ slug: string; book: string; chapter: number; verse: number; last: number }>
  readonly narratives: readonly string[]
  readonly etag: string
  readonly body: Buffer
}

async function sampleContent(url: string, key: string): Promise<Sample> {
  const headers = { 'x-api-key': key }
  const books = (await (await fetch(`${url}/api/v1/books`)).json()) as { data: Array<{ slug: string; verse_counts: number[] }> }
  const verses: Array<{ slug: string; book: string; chapter: number; verse: number; last: number }> = []
  for (let n = 0; verses.length < 2_000; n++) {
    const book = books.data[(n * 7) % books.data.length]
    if (book === undefined) throw new Error('no books')
    const chapter = (n % book.verse_counts.length) + 1
    const last = book.verse_counts[chapter - 1] ?? 1
    const verse = (n % last) + 1
    verses.push({ slug: `${book.slug}-${chapter}-${verse}`, book: book.slug, chapter, verse, last })
  }
  const narratives = (await (await fetch(`${url}/api/v1/narratives?limit=100`, { headers })).json()) as { data: Array<{ slug: string }> }
  const john = await fetch(`${url}/api/v1/verse/john-3-16?style=all`, { headers })
  return {
    verses,
    narratives: narratives.data.map((n) => n.slug),
    etag: john.headers.get('etag') ?? '',
    body: Buffer.from(await john.arrayBuffer()),
  }
}

/** One thing measured: a server and the requests it gets. */
interface Target {
  readonly label: string
  readonly server: Server
  readonly script: string
  /** The status every answer must have (checked once before the load). */
  readonly status: number
  /** The first request, sent once to check the status before the load. */
  readonly first: BenchRequest
  readonly results: WrkResult[]
}

function target(dir: string, label: string, server: Server, requests: readonly BenchRequest[], status = 200): Target {
  const script = join(dir, `${label.replace(/[^a-z0-9]+/gi, '-')}.lua`)
  writeWrkScript(script, requests)
  const first = requests[0]
  if (first === undefined) throw new Error(`${label}: no requests`)
  return { label, server, script, status, first, results: [] }
}

const STYLES = ['faithful', 'casual', 'all'] as const
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/** The endpoints of the real server, all with the same key. */
function serverTargets(dir: string, mode: string, server: Server, key: string, sample: Sample, withAll: boolean): Target[] {
  const auth = { 'x-api-key': key }
  const get = (path: string, headers: Record<string, string> = auth): BenchRequest => ({ method: 'GET', path, headers })
  const verses = sample.verses.map((v, n) => get(`/api/v1/verse/${v.slug}?style=${STYLES[n % 3]}`))
  const targets = [target(dir, `verse, ${mode}`, server, verses)]
  if (!withAll) return targets
  const queries = JSON.parse(readFileSync(projectPath('scripts', 'search-queries.json'), 'utf8')) as Array<Record<string, string>>
  const mcp = sample.verses.slice(0, 500).map((v, n): BenchRequest => ({
    method: 'POST',
    path: '/mcp',
    headers: { ...auth, ...MCP_HEADERS },
    body: JSON.stringify({ jsonrpc: '2.0', id: n + 1, method: 'tools/call', params: { name: 'get_verse', arguments: { reference: v.slug } } }),
  }))
  return [
    ...targets,
    target(dir, `verse 304, ${mode}`, server, [get('/api/v1/verse/john-3-16?style=all', { ...auth, 'if-none-match': sample.etag })], 304),
    target(
      dir,
      `verse page, ${mode}`,
      server,
      sample.verses.map((v) => get(`/${v.book}/${v.chapter}/${v.verse}`, {})),
    ),
    target(
      dir,
      `passage, ${mode}`,
      server,
      sample.verses.map((v) => get(`/api/v1/passage/${v.book}-${v.chapter}-${v.verse}-${Math.min(v.last, v.verse + 4)}`)),
    ),
    target(
      dir,
      `search, ${mode}`,
      server,
      queries.map((q) => get(`/api/v1/search?${new URLSearchParams(q).toString()}`)),
    ),
    target(
      dir,
      `narrative, ${mode}`,
      server,
      sample.narratives.map((slug) => get(`/api/v1/narratives/${slug}`)),
    ),
    target(dir, `MCP get_verse, ${mode}`, server, mcp),
  ]
}

/** Sends the first request of a target once and checks its status. */
async function check(t: Target): Promise<void> {
  const { method, path, headers, body } = t.first
  const response = await fetch(`${t.server.url}${path}`, { method, ...(headers === undefined ? {} : { headers }), ...(body === undefined ? {} : { body }) })
  await response.arrayBuffer()
  if (response.status !== t.status) throw new Error(`${t.label}: ${method} ${path} answered ${response.status}, expected ${t.status}`)
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length)
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

function verdict(ok: boolean): string {
  return ok ? 'met' : 'NOT met'
}

/** A fresh PostgreSQL database next to DATABASE_URL's, and how to drop it. */
async function scratchDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `plainverse_bench_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}

function printTable(targets: readonly Target[], bare: Target): void {
  const bareRps = mean(bare.results.map((r) => r.requestsPerSec))
  console.log(`\n  ${'target'.padEnd(28)} ${'req/s (rounds)'.padEnd(24)} ${'mean'.padStart(7)}  ${'p50'.padStart(7)}  ${'p99'.padStart(7)}  >=400  ratio`)
  for (const t of targets) {
    const rps = t.results.map((r) => r.requestsPerSec)
    const errors = t.results.reduce((sum, r) => sum + r.errorStatus + r.socketErrors, 0)
    console.log(
      `  ${t.label.padEnd(28)} ${rps
        .map((r) => r.toFixed(0))
        .join(' / ')
        .padEnd(24)} ${mean(rps).toFixed(0).padStart(7)}  ` +
        `${median(t.results.map((r) => r.p50Ms))
          .toFixed(2)
          .padStart(5)}ms  ${Math.max(...t.results.map((r) => r.p99Ms))
          .toFixed(2)
          .padStart(5)}ms  ` +
        `${String(errors).padStart(5)}  ${(mean(rps) / bareRps).toFixed(2)}`,
    )
  }
}

/**
 * @param seeding the build's seed steps when the first start copies their result (embedded);
 *   without them the first start seeds in its own process (PostgreSQL), and its peak is the seeding's.
 */
function printMode(name: string, f: ModeFigures, peakMiB: number, limits: { idle: number; peak: number }, seeding?: readonly BuildStep[]): void {
  console.log(`\n  ${name}`)
  const how = seeding === undefined ? 'seeding from the seed bundle' : 'a copy of the seeded template'
  console.log(
    `    start-up to ready     first start (empty DATA_DIR, ${how}) ${f.firstStartMs.toFixed(0)} ms (target < ${TARGETS.firstStartMs}: ${verdict(f.firstStartMs < TARGETS.firstStartMs)})`,
  )
  console.log(
    `                          later start ${f.laterStartMs.toFixed(0)} ms (target < ${TARGETS.laterStartMs}: ${verdict(f.laterStartMs < TARGETS.laterStartMs)})`,
  )
  console.log(
    `    first search result   ${f.firstSearch.afterReadyMs.toFixed(0)} ms after ready (${f.firstSearch.fromSpawnMs.toFixed(0)} ms after the process started; later start)`,
  )
  console.log(`                          ${f.firstStartSearchMs.toFixed(0)} ms after ready on the first start (the index is built, then saved)`)
  console.log(`    resident memory       idle after ready ${f.idleMiB.toFixed(0)} MiB (target < ${limits.idle}: ${verdict(f.idleMiB < limits.idle)})`)
  console.log(`                          peak under load ${peakMiB.toFixed(0)} MiB (target < ${limits.peak}: ${verdict(peakMiB < limits.peak)})`)
  if (seeding === undefined) {
    console.log(
      `                          peak of the first start's seeding ${f.firstStartPeakMiB.toFixed(0)} MiB (the first start's process; target < ${limits.peak}: ${verdict(f.firstStartPeakMiB < limits.peak)})`,
    )
    return
  }
  console.log(`                          peak of the first start ${f.firstStartPeakMiB.toFixed(0)} MiB (it copies the seeded template)`)
  for (const step of seeding) {
    console.log(
      `                          peak of the seeding, build step ${step.label}: ${step.peakMiB.toFixed(0)} MiB in ${(step.ms / 1000).toFixed(1)} s ` +
        `(its own process; target < ${limits.peak}: ${verdict(step.peakMiB < limits.peak)})`,
    )
  }
}

async function main(): Promise<void> {
  const wrk = requireWrk()
  const dir = mkdtempSync(join(tmpdir(), 'pv-bench-'))
  const ports = { server: 18_080, redis: 18_082, postgres: 18_083, http: 18_084, fastify: 18_085 }
  // One public address for every server: it is in each representation (attribution.url), so
  // the 304 target's ETag, taken from the embedded server, matches on the other backends too.
  const base = {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
    METRICS_PORT: '',
    PUBLIC_BASE_URL: `http://127.0.0.1:${ports.server}`,
    ...UNREACHED_LIMITS,
  }
  const embeddedEnv = { ...base, DATA_DIR: join(dir, 'embedded') }
  const running: Server[] = []
  let dropDatabase: (() => Promise<void>) | undefined
  try {
    console.log(
      `Plainverse benchmark: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the start`,
    )
    console.log("  embedded: the build's seed steps again (seed bundle, seeded template), into a temporary folder ...")
    const seeding = runSeedBuild(join(dir, 'build'))
    console.log('  embedded: first start on an empty DATA_DIR, a key through the CLI, a later start ...')
    const prepared = await prepareMode(embeddedEnv, ports.server)
    const embedded: ModeFigures = { ...prepared.figures, ...(await laterStart(embeddedEnv, ports.server, prepared.key)) }
    const { key, sample } = prepared

    const redisUrl = process.env.REDIS_URL ?? ''
    const redisEnv = { ...base, REDIS_URL: redisUrl, DATA_DIR: join(dir, 'redis') }
    if (redisUrl !== '') cpSync(embeddedEnv.DATA_DIR, redisEnv.DATA_DIR, { recursive: true })

    let postgres: { figures: ModeFigures; key: string; env: NodeJS.ProcessEnv } | undefined
    const databaseUrl = process.env.DATABASE_URL ?? ''
    if (databaseUrl !== '') {
      console.log('  PostgreSQL: a scratch database, first start, a key through the CLI, a later start ...')
      const scratch = await scratchDatabase(databaseUrl)
      dropDatabase = scratch.drop
      const env = { ...base, DATABASE_URL: scratch.url, DATA_DIR: join(dir, 'postgres') }
      const pgPrepared = await prepareMode(env, ports.postgres)
      postgres = { figures: { ...pgPrepared.figures, ...(await laterStart(env, ports.postgres, pgPrepared.key)) }, key: pgPrepared.key, env }
    }

    const bodyFile = join(dir, 'verse.json')
    writeFileSync(bodyFile, sample.body)
    const http = await start(projectPath('dist', 'scripts', 'bench-baseline.js'), ['http', String(ports.http), bodyFile], {}, ports.http, '/')
    running.push(http)
    const fastify = await start(projectPath('dist', 'scripts', 'bench-baseline.js'), ['fastify', String(ports.fastify), bodyFile], {}, ports.fastify, '/')
    running.push(fastify)

    // The server under load: a later start, loaded at once (the first seconds show whether it is warm).
    const server = await startServer(embeddedEnv, ports.server)
    running.push(server)
    const verses = sample.verses.map((v, n): BenchRequest => ({
      method: 'GET',
      path: `/api/v1/verse/${v.slug}?style=${STYLES[n % 3]}`,
      headers: { 'x-api-key': key },
    }))
    const coldScript = join(dir, 'cold.lua')
    writeWrkScript(coldScript, verses)
    const cold = await runWrk(wrk, server.url, coldScript, { connections: CONNECTIONS, threads: THREADS, seconds: 2 })

    const plainRequests = sample.verses.map((v): BenchRequest => ({ method: 'GET', path: `/api/v1/verse/${v.slug}` }))
    const bare = target(dir, 'bare node:http', http, plainRequests)
    const targets: Target[] = [bare, target(dir, 'bare Fastify route', fastify, plainRequests), ...serverTargets(dir, 'embedded', server, key, sample, true)]
    if (redisUrl !== '') {
      const redis = await startServer(redisEnv, ports.redis)
      running.push(redis)
      targets.push(...serverTargets(dir, 'Redis', redis, key, sample, false))
    }
    let pgServer: Server | undefined
    if (postgres !== undefined) {
      pgServer = await startServer(postgres.env, ports.postgres)
      running.push(pgServer)
      targets.push(...serverTargets(dir, 'PostgreSQL', pgServer, postgres.key, sample, true))
    }

    for (const t of targets) await check(t)
    console.log(`  warm-up: ${WARMUP_S} s per target; then ${ROUNDS} rounds of ${DURATION_S} s per target ...`)
    for (const t of targets) await runWrk(wrk, t.server.url, t.script, { connections: CONNECTIONS, threads: THREADS, seconds: WARMUP_S })
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets) t.results.push(await runWrk(wrk, t.server.url, t.script, { connections: CONNECTIONS, threads: THREADS, seconds: DURATION_S }))
    }

    console.log(
      `\nwrk ${CONNECTIONS} connections, ${THREADS} threads, ${ROUNDS} alternating rounds of ${DURATION_S} s per target (after ${WARMUP_S} s of warm-up each); ` +
        'each server in its own process; real scale-tier key, authentication, rate limits and metering on; LOG_LEVEL=warn.',
    )
    console.log('  ">=400" counts answers with a status of 400 or more and socket errors (the 304 target expects 304).')
    printTable(targets, bare)

    const verse = targets.find((t) => t.label === 'verse, embedded')
    // One more round of the verse lookup, recorded by tcpdump (it takes CPU, so not one of the rounds above).
    const wire =
      verse === undefined
        ? undefined
        : await captureWire(ports.server, join(dir, 'verse.pcap'), () =>
            runWrk(wrk, verse.server.url, verse.script, { connections: CONNECTIONS, threads: THREADS, seconds: WIRE_S }),
          )
    if (verse !== undefined) {
      const ratio = mean(verse.results.map((r) => r.requestsPerSec)) / mean(bare.results.map((r) => r.requestsPerSec))
      const p99 = Math.max(...verse.results.map((r) => r.p99Ms))
      const errors = verse.results.reduce((sum, r) => sum + r.errorStatus + r.socketErrors, 0)
      console.log(
        `\n  verse lookup, embedded: ratio ${ratio.toFixed(2)} (target >= ${TARGETS.ratio}: ${verdict(ratio >= TARGETS.ratio)}), ` +
          `p99 ${p99.toFixed(2)} ms (the rounds' ${verse.results.map((r) => r.p99Ms.toFixed(2)).join(' / ')}; target < ${TARGETS.p99Ms}: ${verdict(p99 < TARGETS.p99Ms)}), ` +
          `>=400 ${errors} (target 0: ${verdict(errors === 0)})`,
      )
      if (wire !== undefined) {
        console.log(
          'unavailable' in wire
            ? `  seen from the wire: not measured (${wire.unavailable})`
            : `  seen from the wire (one more ${WIRE_S} s round, tcpdump on lo): the server answered in p50 ${wire.wire.p50Ms.toFixed(2)} ms, ` +
                `p99 ${wire.wire.p99Ms.toFixed(2)} ms, max ${wire.wire.maxMs.toFixed(1)} ms (request packet to answer packet, ${wire.wire.pairs} pairs` +
                `${wire.wire.dropped > 0 ? `, ${wire.wire.dropped} packets dropped by the capture` : ''}); wrk measured p99 ${wire.result.p99Ms.toFixed(2)} ms in the same round`,
        )
      }
      console.log(
        `  first 2 s after a later start: ${cold.requestsPerSec.toFixed(0)} req/s, p99 ${cold.p99Ms.toFixed(2)} ms ` +
          `(${(cold.requestsPerSec / mean(verse.results.map((r) => r.requestsPerSec))).toFixed(2)} of the rounds' mean)`,
      )
    }
    printMode('embedded (PGlite in DATA_DIR)', embedded, memory(server).peak, { idle: TARGETS.idleMiB, peak: TARGETS.peakMiB }, seeding)
    if (postgres !== undefined && pgServer !== undefined) {
      printMode('PostgreSQL (DATABASE_URL, scratch database)', postgres.figures, memory(pgServer).peak, { idle: TARGETS.pgIdleMiB, peak: TARGETS.pgPeakMiB })
    }
  } finally {
    for (const server of running) await stop(server)
    await dropDatabase?.()
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
