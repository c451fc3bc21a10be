/**
 * One process owns a DATA_DIR: a second server exits at once naming the first; the CLI never
 * opens a database a server holds (it waits for a starting server's admin socket); a server
 * killed with SIGKILL leaves a DATA_DIR the next one opens at once, with nothing lost.
 */
import t from 'tap'
import { cpSync, existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { acquireDataDirLock, readLockHolder } from '../../src/infra/data-dir-lock.js'
import { pgliteTemplateDir } from '../../src/infra/database.js'
import { runCli } from '../helpers/cli.js'
import { fetchChecked, type Asserter } from '../helpers/http.js'
import { removeDataDir, seededDataDir, spawnServer, startServer } from '../helpers/server.js'

interface KeyJson {
  readonly id: string
  readonly key: string
}

async function verseStatus(t: Asserter, baseUrl: string, key: string): Promise<number> {
  return (await fetchChecked(t, baseUrl, '/api/v1/verse/john-3-16', { headers: { 'x-api-key': key } })).status
}

t.test('a second server on the same DATA_DIR exits at once, naming the first', async (t) => {
  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  const first = await startServer({ DATA_DIR: dataDir })
  t.teardown(() => first.stop('SIGKILL'))
  const second = spawnServer({ DATA_DIR: dataDir })
  t.teardown(() => second.stop('SIGKILL'))
  t.equal(await second.exited, 75, 'EX_TEMPFAIL, without starting')
  t.match(second.stderr(), new RegExp(`DATA_DIR .* is in use by a Plainverse server \\(pid ${first.child.pid} on host .*, ready since .*\\)`))
  t.match(second.stderr(), /give this server its own DATA_DIR/)
  t.notOk(
    second.logs.some((l) => l.msg === 'ready'),
    'the second server never served',
  )

  const created = await runCli(['keys', 'create', '--name', 'after', '--json'], { DATA_DIR: dataDir })
  t.equal(created.code, 0, created.stderr)
  t.equal(await verseStatus(t, first.baseUrl, (JSON.parse(created.stdout) as KeyJson).key), 200, 'the first server still serves, with keys the CLI makes')
  t.equal(await first.stop('SIGTERM'), 0)
})

t.test('the CLI during a first start waits for the server instead of opening its database', async (t) => {
  // A database never migrated nor seeded: the server migrates and seeds the whole KJV before its
  // admin socket opens. (An empty DATA_DIR would start as a copy of the build's seeded template,
  // and be ready too soon to catch it starting.)
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-first-'))
  if (existsSync(join(pgliteTemplateDir(), 'PG_VERSION'))) cpSync(pgliteTemplateDir(), join(dataDir, 'pglite'), { recursive: true })
  t.teardown(() => removeDataDir(dataDir))
  const server = spawnServer({ DATA_DIR: dataDir })
  t.teardown(() => server.stop('SIGKILL'))
  // Run the command once the server holds the lock, while it is still starting.
  while (readLockHolder(dataDir)?.state !== 'starting') {
    if (server.child.exitCode !== null) t.fail(`the server exited: ${server.stderr()}`)
    await sleep(20)
  }
  const created = await runCli(['keys', 'create', '--name', 'first start', '--json'], { DATA_DIR: dataDir })
  t.equal(created.code, 0, created.stderr)
  t.match(created.stderr, /Waiting: DATA_DIR is held by a Plainverse server \(pid \d+ .*starting/, 'it waited for the starting server')
  const key = JSON.parse(created.stdout) as KeyJson
  await server.ready()
  t.equal(await verseStatus(t, server.baseUrl, key.key), 200, 'the key was made by the server, through its socket')
  t.equal(await server.stop('SIGTERM'), 0)

  // The data directory is intact: the next start opens it and the key is still there.
  const again = await startServer({ DATA_DIR: dataDir })
  t.teardown(() => again.stop('SIGKILL'))
  t.ok(
    again.logs.some((l) => l.msg === 'ready'),
    again.stderr(),
  )
  t.equal(await verseStatus(t, again.baseUrl, key.key), 200)
  t.equal(await again.stop('SIGTERM'), 0)
})

t.test('a server killed with SIGKILL: the next one starts at once, nothing lost', async (t) => {
  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  const server = await startServer({ DATA_DIR: dataDir })
  const created = await runCli(['keys', 'create', '--name', 'survivor', '--json'], { DATA_DIR: dataDir })
  t.equal(created.code, 0, created.stderr)
  const key = JSON.parse(created.stdout) as KeyJson
  t.equal(await verseStatus(t, server.baseUrl, key.key), 200)
  await server.stop('SIGKILL')
  const next = await startServer({ DATA_DIR: dataDir })
  t.teardown(() => next.stop('SIGKILL'))
  t.ok(
    next.logs.some((l) => l.msg === 'ready'),
    `the lock died with its holder: ${next.stderr()}`,
  )
  t.equal(await verseStatus(t, next.baseUrl, key.key), 200, 'the key made before the kill is still valid')
  t.equal(await next.stop('SIGTERM'), 0)
})

t.test('the CLI says why it cannot proceed, and never opens a held database', async (t) => {
  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  // A server that says it is ready but whose admin socket does not answer.
  const lock = acquireDataDirLock(dataDir, 'server')
  t.teardown(() => lock.release())
  lock.setState('ready')
  const keys = await runCli(['keys', 'list'], { DATA_DIR: dataDir })
  t.equal(keys.code, 75)
  t.match(
    keys.stderr,
    new RegExp(`in use by a Plainverse server \\(pid ${process.pid} .*ready since .*\\), but its admin socket .*admin\\.sock does not answer`),
  )
  const seed = await runCli(['db', 'seed'], { DATA_DIR: dataDir })
  t.equal(seed.code, 75, 'db seed needs the database itself')
  t.match(seed.stderr, /one process at a time: stop the server/)
  lock.release()
  t.equal((await runCli(['db', 'seed'], { DATA_DIR: dataDir })).code, 0, 'free again: it runs')
})
