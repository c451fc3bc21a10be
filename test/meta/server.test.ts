/** The real server process: JSON logs, probes, the contract and docs, graceful shutdown. */
import t from 'tap'
import { fetchChecked } from '../helpers/http.js'
import { removeDataDir, seededDataDir, startServer } from '../helpers/server.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

t.test('serves, logs JSON and stops gracefully on SIGTERM', async (t) => {
  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  const server = await startServer({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://plainverse.example', AUTH_JWT_SECRET: TEST_JWT_SECRET })
  t.teardown(() => server.stop('SIGKILL'))
  const ready = server.logs.find((l) => l.msg === 'ready')
  t.ok(ready, 'logs a ready line')
  t.equal(ready?.verses, 31102)
  t.equal(ready?.database, 'pglite')
  t.type(ready?.startupMs, 'number')

  const health = await fetchChecked(t, server.baseUrl, '/healthz')
  t.equal(health.status, 200)
  t.same(health.json(), { status: 'ok' })
  const readiness = await fetchChecked(t, server.baseUrl, '/readyz')
  t.same(readiness.json(), { status: 'ready', verses: 31102, database: 'pglite' })

  const anonymous = await fetchChecked(t, server.baseUrl, '/api/v1/verse/genesis-1-1')
  t.equal(anonymous.status, 401)
  t.ok(anonymous.headers.get('www-authenticate'))
  const created = await fetchChecked(t, server.baseUrl, '/api/v1/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${signToken('server-test')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'end to end' }),
  })
  t.equal(created.status, 201)
  const key = created.json<{ key: string }>().key
  const verse = await fetchChecked(t, server.baseUrl, '/api/v1/verse/genesis-1-1', { headers: { 'x-api-key': key } })
  t.equal(verse.json<{ kjv_text: string }>().kjv_text, 'In the beginning God created the heaven and the earth.')
  t.equal(verse.json<{ attribution: { url: string } }>().attribution.url, 'https://plainverse.example/genesis/1/1')

  const json = await fetchChecked(t, server.baseUrl, '/api/v1/openapi.json')
  const doc = json.json<{
    openapi: string
    info: { version: string; contact: { email: string; url: string } }
    servers: Array<{ url: string }>
    paths: Record<string, unknown>
  }>()
  t.equal(doc.openapi, '3.1.0')
  t.equal(doc.info.version, '1.0.0')
  t.match(doc.info.contact, { email: 'api@plainverse.example', url: 'https://plainverse.example/terms' }, 'info.contact from configuration')
  t.equal(doc.servers[0]?.url, 'https://plainverse.example')
  t.ok(doc.paths['/api/v1/verse/{slug}'])
  const yaml = await fetchChecked(t, server.baseUrl, '/api/v1/openapi.yaml')
  t.match(yaml.body, /^openapi: 3\.1\.0/)
  const docs = await fetchChecked(t, server.baseUrl, '/docs')
  t.equal(docs.status, 200)
  t.match(docs.body, /<title>Plainverse API reference<\/title>/)
  t.match(docs.body, /<rapi-doc\s[^>]*spec-url="api\/v1\/openapi\.json"/)
  t.notMatch(docs.body, /swagger/i)
  t.match(docs.headers.get('content-security-policy'), /script-src 'self'/)
  t.notMatch(docs.body, /https?:\/\//, 'no third-party script or style')
  const script = await fetchChecked(t, server.baseUrl, '/docs/rapidoc.js')
  t.equal(script.status, 200)
  t.match(script.headers.get('content-type'), /^text\/javascript/)
  const samples = doc.paths['/api/v1/verse/{slug}'] as { get: { 'x-codeSamples': Array<{ lang: string; label: string; source: string }> } }
  t.same(
    samples.get['x-codeSamples'].map((s) => s.label),
    ['curl', 'JavaScript', 'Python'],
    'request examples in three languages',
  )
  t.match(samples.get['x-codeSamples'][0]?.source, "curl -s 'https://plainverse.example/api/v1/verse/john-3-16'")
  t.notOk(
    Object.values(doc.paths).some((item) => 'options' in (item as object)),
    'no preflight operations (CORS is described once in the text)',
  )

  t.ok(
    server.logs.some((l) => l.msg === 'request completed' && typeof l.responseTime === 'number'),
    'request logs are JSON',
  )

  const code = await server.stop('SIGTERM')
  t.equal(code, 0, 'exits 0 on SIGTERM')
  t.ok(server.logs.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM'))
  t.ok(server.logs.some((l) => l.msg === 'stopped'))

  // The data survived the shutdown: a second start on the same folder serves at once.
  const again = await startServer({ DATA_DIR: dataDir })
  t.teardown(() => again.stop('SIGKILL'))
  t.equal(again.logs.find((l) => l.msg === 'ready')?.verses, 31102)
  t.same((again.logs.find((l) => l.msg === 'ready')?.seed as { kjv: { status: string } }).kjv.status, 'unchanged')
  t.equal(await again.stop('SIGINT'), 0, 'exits 0 on SIGINT')
})

t.test('a bad variable fails start-up with a message naming it', async (t) => {
  for (const [name, value] of [
    ['PORT', 'eighty'],
    ['LOG_LEVEL', 'chatty'],
    ['PUBLIC_BASE_URL', 'nope'],
  ] as const) {
    const server = await startServer({ [name]: value, DATA_DIR: '/nonexistent-not-used' }, 30_000)
    const code = await server.exited
    t.equal(code, 78, `${name} exits 78 (EX_CONFIG), as the README says`)
    t.match(server.stderr(), new RegExp(`${name}`), `${name} is named`)
  }
})
