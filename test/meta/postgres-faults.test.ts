/**
 * PostgreSQL failing under a running server, on a PostgreSQL server of the test's own: the
 * server starts while the database is down and waits for it; dropped connections are
 * replaced; while the database is stopped every request answers (a documented 503, or 200
 * from memory) instead of hanging, nothing served is lost, and no log line carries the
 * connection's secrets.
 */
import t from 'tap'
import pg from 'pg'
import { setTimeout as sleep } from 'node:timers/promises'
import { generateKey } from '../../src/keys/key-format.js'
import { runCli } from '../helpers/cli.js'
import { fetchChecked } from '../helpers/http.js'
import { privatePostgresUnavailable, startPrivatePostgres, type PostgresInstance } from '../helpers/postgres-instance.js'
import { removeDataDir, spawnServer, type StartingServer } from '../helpers/server.js'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Present in the URL, never sent (trust authentication), and never to be logged. */
const CANARY = 'canary-password-8c1f'
const unavailable = privatePostgresUnavailable()

/** Runs SQL as the superuser on the private server (on its `postgres` database unless told). */
async function admin(instance: PostgresInstance, statement: string, database = 'postgres'): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: instance.url.replace(/\/postgres$/, `/${database}`) })
  await client.connect()
  try {
    return (await client.query(statement)).rows as Array<Record<string, unknown>>
  } finally {
    await client.end()
  }
}

/** Waits (bounded, for liveness only) until `check` holds. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`)
    await sleep(200)
  }
}

t.test('PostgreSQL faults under a running server', { skip: unavailable ?? false }, async (t) => {
  const instance = await startPrivatePostgres()
  t.teardown(() => instance.destroy())
  await admin(instance, 'create database plainverse')
  const url = `postgres://postgres:${CANARY}@127.0.0.1:${instance.port}/plainverse`
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-pgfault-'))
  t.teardown(() => removeDataDir(dataDir))
  const env = { DATABASE_URL: url, DATA_DIR: dataDir, DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '20000' }
  let server: StartingServer | undefined
  t.teardown(() => server?.stop('SIGKILL'))
  // If the server dies, say how: its exit code, the end of stderr and its last log lines.
  t.afterEach(() => {
    if (server?.child.exitCode !== null && server?.child.exitCode !== undefined) {
      t.comment(`server exited with ${server.child.exitCode}; stderr: ${server.stderr().slice(-4000)}; last logs: ${JSON.stringify(server.logs.slice(-5))}`)
    }
  })

  await t.test('starting while PostgreSQL is down: the server waits, then serves', async (t) => {
    await instance.stop('fast')
    server = spawnServer(env)
    const starting = server
    await eventually('two failed attempts logged', async () => starting.logs.filter((l) => l.msg === 'database unavailable at start-up; retrying').length >= 2)
    t.equal(starting.child.exitCode, null, 'still running')
    t.notOk(
      starting.logs.some((l) => l.msg === 'ready'),
      'not ready while the database is down',
    )
    await instance.start()
    await starting.ready()
    t.ok(
      starting.logs.some((l) => l.msg === 'ready'),
      `ready once the database answers: ${starting.stderr()}`,
    )
    t.equal((await fetchChecked(t, starting.baseUrl, '/readyz')).status, 200)
  })

  const running = (): StartingServer => {
    if (server === undefined) throw new Error('no server')
    return server
  }
  const created = await runCli(['keys', 'create', '--name', 'faults', '--json'], env)
  t.equal(created.code, 0, created.stderr)
  const { key, id } = JSON.parse(created.stdout) as { key: string; id: string }
  /** The key's queries in the ledger itself (what survives any restart). */
  const ledgerTotal = async (): Promise<number> =>
    Number((await admin(instance, `select coalesce(sum(queries), 0) as n from usage_ledger where key_id = '${id}'`, 'plainverse'))[0]?.n)
  const verse = (presented: string) =>
    fetchChecked(t, running().baseUrl, '/api/v1/verse/john-3-16', { headers: { 'x-api-key': presented }, signal: AbortSignal.timeout(60_000) })
  const usage = () => fetchChecked(t, running().baseUrl, '/api/v1/usage', { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(60_000) })
  t.equal((await verse(key)).status, 200)

  await t.test('connections terminated by the server: replaced, the process lives on', async (t) => {
    await admin(instance, "select pg_terminate_backend(pid) from pg_stat_activity where datname = 'plainverse' and pid <> pg_backend_pid()")
    // The pool notices dead idle connections and opens new ones on the next query.
    t.equal((await usage()).status, 200, 'a query after the drop succeeds')
    t.equal((await verse(key)).status, 200)
    t.equal(running().child.exitCode, null, 'still running')
    t.equal((await fetchChecked(t, running().baseUrl, '/readyz')).status, 200)
  })

  await t.test('PostgreSQL stopped: documented answers, never a hang; nothing lost when it returns', async (t) => {
    await eventually('earlier queries flushed', async () => (await ledgerTotal()) === (await usage()).json<{ total_queries: number }>().total_queries)
    const before = await ledgerTotal()
    await instance.stop('fast')
    const ready = await fetchChecked(t, running().baseUrl, '/readyz', { signal: AbortSignal.timeout(60_000) })
    t.equal(ready.status, 503, '/readyz says not ready')
    t.equal(ready.json<{ code: string }>().code, 'not_ready')
    t.equal(ready.headers.get('retry-after'), '2', 'a passing state: ask again in 2 s')
    const stranger = await verse(generateKey())
    t.equal(stranger.status, 503, 'an unknown key cannot be checked: 503, not 403 or 500')
    t.equal(stranger.json<{ code: string }>().code, 'database_unavailable')
    t.equal(stranger.headers.get('retry-after'), '2')
    const stats = await usage()
    t.equal(stats.status, 200, "the key's own usage answers from the quota counter in memory")
    t.equal(stats.json<{ total_queries: number }>().total_queries, before)
    // A key already in memory is served; its queries are journalled on disk.
    for (let i = 0; i < 3; i++) t.equal((await verse(key)).status, 200, 'served from memory')
    t.equal(running().child.exitCode, null, 'still running')

    await instance.start()
    await eventually('ready again', async () => (await fetchChecked(t, running().baseUrl, '/readyz')).status === 200)
    await eventually('the journalled queries reach the ledger', async () => (await ledgerTotal()) === before + 3)
    t.pass('the three queries served during the outage are in the ledger')
    t.equal((await usage()).json<{ total_queries: number }>().total_queries, before + 3)
  })

  await t.test('no secret and no client object in any log line', async (t) => {
    const server = running()
    const output = `${JSON.stringify(server.logs)}\n${server.stderr()}`
    t.notMatch(output, CANARY, 'the password in DATABASE_URL is never printed')
    t.notMatch(output, /_connectionError|connectionParameters|_queryable/, 'no pg client internals')
    t.ok(
      server.logs.some((l) => l.msg === 'The database does not answer; retry shortly.'),
      'the outage is logged',
    )
    t.equal(await server.stop('SIGTERM'), 0, 'a clean shutdown after all that')
  })
})
