/** The operator CLI on the embedded database, with and without a running server. */
import t from 'tap'
import { runCli } from '../helpers/cli.js'
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

  t.equal((await runCli(['keys', 'set-tier', key.id, 'platinum'], env)).code, 1, 'a bad tier is refused')
  t.equal((await runCli(['keys', 'create'], env)).code, 1, '--name is required')
  t.equal((await runCli(['keys', 'fly'], env)).code, 64, 'unknown command')
  t.equal((await runCli(['--bogus'], env)).code, 64, 'unknown option')
  const help = await runCli(['--help'], env)
  t.match(help.stdout, /keys create --name NAME/)
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
  const res = await fetch(`${server.baseUrl}/api/v1/verse/john-3-16`, { headers: { 'x-api-key': key.key } })
  t.equal(res.status, 200, 'a key created by the CLI works on the running server at once')
  const usage = JSON.parse((await runCli(['usage', '--json'], env)).stdout) as { total_queries: number; keys: Array<{ id: string; total_queries: number }> }
  t.equal(usage.keys.find((k) => k.id === key.id)?.total_queries, 1, 'usage includes what the server counted')
  t.equal((await runCli(['keys', 'revoke', key.id], env)).code, 0)
  const after = await fetch(`${server.baseUrl}/api/v1/verse/john-3-16`, { headers: { 'x-api-key': key.key } })
  t.equal(after.status, 403, 'revoked through the CLI: the server refuses it at once')
  t.equal(await server.stop('SIGTERM'), 0)
})
