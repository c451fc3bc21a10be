/**
 * The bundled server (scripts/server-bundle.ts), which `make run`, `npm start` and the container
 * start: built from the sources the other suites run, it starts, serves the API with a key
 * (validation, the reference parser and MCP included), counts the query and stops cleanly.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { bundleServer } from '../../scripts/server-bundle.js'
import { projectPath } from '../../src/infra/paths.js'
import { fetchChecked } from '../helpers/http.js'
import { removeDataDir, seededDataDir, startServer } from '../helpers/server.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

t.test('the bundled server starts, serves a keyed verse and a search, and stops on SIGTERM', async (t) => {
  // Inside the project: the bundle finds the project's files (generated/, db/) above itself, as dist/server does.
  const out = projectPath('var', 'test', `server-bundle-${process.pid}`)
  t.teardown(() => rmSync(out, { recursive: true, force: true }))
  await bundleServer(out)
  const entry = join(out, 'server.js')
  t.ok(existsSync(entry), 'server.js')
  t.ok(existsSync(`${entry}.map`), 'with its source map')
  const chunks = readdirSync(out).filter((name) => name.endsWith('.js'))
  t.ok(chunks.length > 1, 'split into chunks')
  t.notOk(
    chunks.some((name) => readFileSync(join(out, name), 'utf8').includes('@electric-sql/pglite/dist')),
    'PGlite stays in node_modules, beside its WebAssembly',
  )

  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  const server = await startServer({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://plainverse.example', AUTH_JWT_SECRET: TEST_JWT_SECRET }, 120_000, entry)
  t.teardown(() => server.stop('SIGKILL'))
  const ready = server.logs.find((l) => l.msg === 'ready')
  t.ok(ready, `ready; stderr: ${server.stderr()}`)
  t.equal(ready?.verses, 31102)

  const readiness = await fetchChecked(t, server.baseUrl, '/readyz')
  t.same(readiness.json(), { status: 'ready', verses: 31102, database: 'pglite' })
  const created = await fetchChecked(t, server.baseUrl, '/api/v1/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${signToken('bundle-test')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bundle' }),
  })
  t.equal(created.status, 201)
  const key = created.json<{ key: string }>().key
  const verse = await fetchChecked(t, server.baseUrl, '/api/v1/verse/john-3-16?style=all', { headers: { 'x-api-key': key } })
  t.equal(verse.status, 200)
  t.match(verse.json<{ kjv_text: string }>().kjv_text, /^For God so loved the world/)
  t.equal(Number(verse.headers.get('x-ratelimit-limit')) - Number(verse.headers.get('x-ratelimit-remaining')), 1, 'the query is counted')
  const invalid = await fetchChecked(t, server.baseUrl, '/api/v1/verse/john-3-16?style=loud', { headers: { 'x-api-key': key } })
  t.equal(invalid.status, 400, 'route schemas validate (compiled on first use)')
  t.equal(invalid.json<{ code: string }>().code, 'invalid_parameter')
  const passage = await fetchChecked(t, server.baseUrl, '/api/v1/resolve?q=Jn%203%3A16', { headers: { 'x-api-key': key } })
  t.equal(passage.status, 200, 'the reference parser, loaded from node_modules')
  const mcp = await fetchChecked(t, server.baseUrl, '/mcp', {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_verse', arguments: { reference: 'john-3-16' } } }),
  })
  t.equal(mcp.status, 200, 'the MCP endpoint')
  t.match(mcp.body, /For God so loved the world/)

  t.equal(await server.stop('SIGTERM'), 0, 'stops cleanly')
  t.ok(server.logs.some((l) => l.msg === 'stopped'))
})
