/**
 * Several instances behind a load balancer: three server processes on one PostgreSQL and one
 * Redis of the test's own. Quotas are exact across them, revocation and tier changes reach
 * every instance within the documented bound, usage reads the same whichever instance
 * answers, and Redis failing (flushed, stopped, restarted) under load loses nothing, serves
 * nothing over quota, and answers only documented problem bodies.
 */
import t from 'tap'
import pg from 'pg'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { contractViolations } from '../helpers/contract.js'
import { runCli } from '../helpers/cli.js'
import { privatePostgresUnavailable, startPrivatePostgres } from '../helpers/postgres-instance.js'
import { privateRedisUnavailable, startPrivateRedis } from '../helpers/redis-instance.js'
import { removeDataDir, spawnServer, type StartingServer } from '../helpers/server.js'

const skip = privatePostgresUnavailable() ?? privateRedisUnavailable() ?? false
const VERSE = '/api/v1/verse/john-3-16'

interface Answer {
  readonly status: number
  readonly code: string | undefined
}

/** A GET checked against the contract, throwing on a violation (the waves below run outside any one assertion). */
async function checkedGet(server: StartingServer, path: string, key: string): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(`${server.baseUrl}${path}`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(120_000) })
  const body = await response.text()
  const violations = contractViolations({ method: 'GET', url: path, status: response.status, headers: Object.fromEntries(response.headers.entries()), body })
  if (violations.length > 0) throw new Error(`contract: ${violations.join('; ')}`)
  return { status: response.status, headers: response.headers, body }
}

/** One counted lookup, checked against the contract; its status and problem code. */
async function lookup(server: StartingServer, key: string): Promise<Answer> {
  const { status, body } = await checkedGet(server, VERSE, key)
  return { status, code: status >= 400 ? (JSON.parse(body) as { code: string }).code : undefined }
}

/** Counts answers by status (and problem code). */
function tally(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const a of answers) {
    const label = a.code === undefined ? String(a.status) : `${a.status} ${a.code}`
    counts[label] = (counts[label] ?? 0) + 1
  }
  return counts
}

/** Waits (bounded, for liveness only) until `check` holds. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`)
    await sleep(100)
  }
}

t.test('three instances on one PostgreSQL and one Redis', { skip }, async (t) => {
  const postgres = await startPrivatePostgres()
  t.teardown(() => postgres.destroy())
  const redis = await startPrivateRedis(t)
  const admin = new pg.Client({ connectionString: postgres.url })
  await admin.connect()
  await admin.query('create database plainverse')
  await admin.end()
  const databaseUrl = postgres.url.replace(/\/postgres$/, '/plainverse')
  const ledger = async (keyId: string): Promise<number> => {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      const { rows } = await client.query<{ n: string }>('select coalesce(sum(queries), 0) as n from usage_ledger where key_id = $1', [keyId])
      return Number(rows[0]?.n)
    } finally {
      await client.end()
    }
  }

  const servers: StartingServer[] = []
  t.teardown(async () => {
    for (const server of servers) await server.stop('SIGKILL')
    for (const server of servers) removeDataDir(server.dataDir)
  })
  const start = (): StartingServer => {
    const server = spawnServer({
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      QUOTA_FREE: '500',
      QUOTA_DEVELOPER: '800',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pv-instance-')),
    })
    servers.push(server)
    return server
  }
  // The first migrates and seeds; the others start on the prepared database.
  const first = start()
  // A bound for liveness only: seeding the whole KJV takes minutes on a loaded machine (README).
  await first.ready(600_000)
  const rest = [start(), start()]
  await Promise.all(rest.map((s) => s.ready()))
  for (const server of servers)
    t.ok(
      server.logs.some((l) => l.msg === 'ready'),
      `instance ready: ${server.stderr()}`,
    )
  const cli = (args: string[], server: StartingServer = first) =>
    runCli(args, { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, DATA_DIR: server.dataDir, QUOTA_FREE: '500', QUOTA_DEVELOPER: '800' })
  const newKey = async (name: string): Promise<{ id: string; key: string }> => {
    const created = await cli(['keys', 'create', '--name', name, '--json'])
    if (created.code !== 0) throw new Error(created.stderr)
    return JSON.parse(created.stdout) as { id: string; key: string }
  }

  await t.test('1,500 concurrent lookups on a 500-query key: exactly 500 served, 500 in the ledger', async (t) => {
    const { id, key } = await newKey('exact')
    const answers = await Promise.all(Array.from({ length: 1_500 }, (_, i) => lookup(servers[i % 3] as StartingServer, key)))
    t.same(tally(answers), { '200': 500, '429 quota_exceeded': 1_000 })
    await eventually('every instance flushed', async () => (await ledger(id)) === 500)
    t.equal(await ledger(id), 500, 'the ledger holds exactly what was served')
    // Usage reads the same whichever instance answers.
    const views = await Promise.all(
      servers.map(async (server) => {
        return JSON.parse((await checkedGet(server, '/api/v1/usage', key)).body) as { total_queries: number; remaining: number }
      }),
    )
    t.same(
      views,
      [0, 1, 2].map(() => ({ ...views[0], total_queries: 500, remaining: 0 })),
      'the key form of /usage on every instance',
    )
    const accounts = await Promise.all(
      servers.map(async (server) => JSON.parse((await cli(['usage', '--json'], server)).stdout) as { keys: Array<{ id: string; total_queries: number }> }),
    )
    t.same(
      accounts.map((a) => a.keys.find((k) => k.id === id)?.total_queries),
      [500, 500, 500],
      'the account form, through each instance',
    )
  })

  await t.test('revocation and tier changes reach every instance within the documented bound', async (t) => {
    const { id, key } = await newKey('changes')
    for (const server of servers) t.equal((await lookup(server, key)).status, 200)
    t.equal((await cli(['keys', 'set-tier', id, 'developer'])).code, 0)
    // Each instance polls for changed keys every 2 s (README); 10 s leaves room on a busy machine.
    for (const server of servers) {
      await eventually('the new tier', async () => (await checkedGet(server, VERSE, key)).headers.get('x-ratelimit-limit') === '800', 10_000)
    }
    t.pass('every instance sees the developer tier')
    t.equal((await cli(['keys', 'revoke', id])).code, 0)
    for (const server of servers) await eventually('the revocation', async () => (await lookup(server, key)).code === 'invalid_api_key', 10_000)
    t.pass('every instance refuses the revoked key')
  })

  await t.test('Redis flushed under load: nothing counted is lost, nothing served over quota', async (t) => {
    const { id, key } = await newKey('flushed')
    const wave = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => lookup(servers[i % 3] as StartingServer, key)))
    const answers: Answer[] = [...(await wave(200))]
    // Every counter is lost; the next requests rebuild from what every instance counted.
    const during = wave(300)
    await redis.command('FLUSHALL')
    answers.push(...(await during), ...(await wave(300)))
    const counts = tally(answers)
    t.equal(counts['200'], 500, `exactly 500 served in all (${JSON.stringify(counts)})`)
    t.same(
      Object.keys(counts).filter((label) => !['200', '429 quota_exceeded', '503 quota_backend_unavailable'].includes(label)),
      [],
      'only documented answers',
    )
    await eventually('flushed', async () => (await ledger(id)) === 500)
    t.equal(await ledger(id), 500)
  })

  await t.test('Redis stopped: 503 with Retry-After, never a 500 or a hang; restarted: served again, exactly', async (t) => {
    const { id, key } = await newKey('outage')
    for (let i = 0; i < 10; i++) t.equal((await lookup(servers[i % 3] as StartingServer, key)).status, 200)
    await redis.stop()
    const down = await Promise.all(Array.from({ length: 30 }, (_, i) => lookup(servers[i % 3] as StartingServer, key)))
    t.same(tally(down), { '503 quota_backend_unavailable': 30 }, 'a documented 503 for each')
    t.equal((await checkedGet(first, VERSE, key)).headers.get('retry-after'), '2')
    await redis.start()
    await eventually('served again without a restart', async () => (await lookup(first, key)).status === 200)
    const rest = await Promise.all(Array.from({ length: 600 }, (_, i) => lookup(servers[i % 3] as StartingServer, key)))
    const served = 10 + 1 + (tally(rest)['200'] ?? 0)
    t.equal(served, 500, 'the rebuilt count carries on from what was counted before the outage')
    await eventually('flushed', async () => (await ledger(id)) === 500)
    for (const server of servers) t.equal(server.child.exitCode, null, 'no instance exited')
  })
})
