/** The operator CLI on the embedded database, with and without a running server. */
import t from 'tap'
import { runCli } from '../helpers/cli.js'
import { fetchChecked } from '../helpers/http.js'
import { removeDataDir, seededDataDir, startServer } from '../helpers/server.js'

interface KeyJson {
  id: string
  key: string
  prefix: string
  tier: string
  account_id: string
  rate_limit_monthly: number
}

t.test('without a server: keys and usage in-process', async (t) => {
  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  const env = { DATA_DIR: dataDir }
  const created = await runCli(['keys', 'create', '--name', 'Seminary app', '--account', 'acct-1', '--tier', 'developer', '--json'], env)
  t.equal(created.code, 0, created.stderr)
  const key = JSON.parse(created.stdout) as KeyJson
  t.match(key.key, /^pv_[0-9A-Za-z]{36}$/)
  t.equal(key.tier, 'developer')
  t.equal(key.rate_limit_monthly, 50000)
  t.equal(key.account_id, 'acct-1')

  const text = await runCli(['keys', 'create', '--name', 'Plain'], env)
  t.equal(text.code, 0)
  t.match(text.stdout, /^pv_[0-9A-Za-z]{36}\n/, 'the key comes first, alone on its line')
  t.match(text.stdout, /shown only once/)

  const list = await runCli(['keys', 'list', '--account', 'acct-1', '--json'], env)
  const keys = JSON.parse(list.stdout) as KeyJson[]
  t.equal(keys.length, 1)
  t.notOk('key' in (keys[0] ?? {}), 'listing never shows the secret')
  t.notMatch(list.stdout, key.key)

  const tier = await runCli(['keys', 'set-tier', key.id, 'scale', '--json'], env)
  t.equal(tier.code, 0)
  t.equal((JSON.parse(tier.stdout) as KeyJson).rate_limit_monthly, 3000000)

  const usage = await runCli(['usage', '--account', 'acct-1', '--json'], env)
  t.equal(usage.code, 0)
  t.equal((JSON.parse(usage.stdout) as { total_queries: number }).total_queries, 0)

  const revoked = await runCli(['keys', 'revoke', key.id], env)
  t.equal(revoked.code, 0)
  const again = await runCli(['keys', 'revoke', key.id], env)
  t.equal(again.code, 3, 'an unknown or revoked id exits 3')
  t.match(again.stderr, /key_not_found/)

  // One rule for bad usage, whatever the command: 64 and the usage text on stderr.
  for (const [args, label] of [
    [['keys', 'set-tier', key.id, 'platinum'], 'a bad tier'],
    [['keys', 'create', '--name', 'x', '--tier', 'gold'], 'a bad tier at creation'],
    [['keys', 'create'], '--name is required'],
    [['keys', 'create', '--name', 'x'.repeat(500)], 'a name the service refuses'],
    [['keys', 'revoke'], 'revoke needs an ID'],
    [['keys', 'fly'], 'unknown command'],
    [['db', 'migrate', 'now'], 'an extra argument'],
    [['--bogus'], 'unknown option'],
    [['content', 'import'], 'content import needs a FILE'],
  ] as const) {
    const result = await runCli([...args], env)
    t.equal(result.code, 64, `${label}: exits 64`)
    t.match(result.stderr, /Usage: plainverse|error: /, `${label}: says why`)
  }
  const badConfig = await runCli(['keys', 'list'], { ...env, LOG_LEVEL: 'chatty' })
  t.equal(badConfig.code, 78, 'a bad variable exits 78, as for the server')
  t.match(badConfig.stderr, /LOG_LEVEL/)
  const help = await runCli(['--help'], env)
  t.match(help.stdout, /keys create --name NAME/)
})

t.test('db migrate and db seed, as text and as JSON', async (t) => {
  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  const env = { DATA_DIR: dataDir }
  const migrate = await runCli(['db', 'migrate'], env)
  t.equal(migrate.code, 0, migrate.stderr)
  t.equal(migrate.stdout, 'migrations: up to date\n')
  const migrateJson = await runCli(['db', 'migrate', '--json'], env)
  t.equal(migrateJson.code, 0, migrateJson.stderr)
  t.same(JSON.parse(migrateJson.stdout), { migrations: [] }, 'the seeded copy has every migration')
  const seedJson = await runCli(['db', 'seed', '--json'], env)
  t.equal(seedJson.code, 0, seedJson.stderr)
  t.same(JSON.parse(seedJson.stdout), {
    migrations: [],
    seed: {
      kjv: { status: 'unchanged', verses: 31102 },
      content: { status: 'unchanged', curated: 0, generated: 0, modernized: 0 },
      narrativeContent: { status: 'unchanged', curated: 0, generated: 0 },
    },
  })
  const seed = await runCli(['db', 'seed'], env)
  t.equal(seed.code, 0, seed.stderr)
  t.match(seed.stdout, /^migrations: up to date\nkjv: unchanged \(31102 verses\)\ncontent: unchanged\nnarrative content: unchanged\n$/)
})

t.test('with the server running on the same embedded database', async (t) => {
  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  const server = await startServer({ DATA_DIR: dataDir })
  t.teardown(() => server.stop('SIGKILL'))
  const env = { DATA_DIR: dataDir }

  const created = await runCli(['keys', 'create', '--name', 'live', '--json'], env)
  t.equal(created.code, 0, created.stderr)
  const key = JSON.parse(created.stdout) as KeyJson
  const res = await fetchChecked(t, server.baseUrl, '/api/v1/verse/john-3-16', { headers: { 'x-api-key': key.key } })
  t.equal(res.status, 200, 'a key created by the CLI works on the running server at once')
  const usage = JSON.parse((await runCli(['usage', '--json'], env)).stdout) as { total_queries: number; keys: Array<{ id: string; total_queries: number }> }
  t.equal(usage.keys.find((k) => k.id === key.id)?.total_queries, 1, 'usage includes what the server counted')
  t.equal((await runCli(['keys', 'revoke', key.id], env)).code, 0)
  const after = await fetchChecked(t, server.baseUrl, '/api/v1/verse/john-3-16', { headers: { 'x-api-key': key.key } })
  t.equal(after.status, 403, 'revoked through the CLI: the server refuses it at once')
  t.equal(await server.stop('SIGTERM'), 0)
})
