/**
 * The real server builds the search index after it is ready, not before, serves search and
 * saves the index; a later start on the same DATA_DIR loads it before it is ready.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import type { SearchResults } from '../../src/search/search.service.js'
import { fetchChecked } from '../helpers/http.js'
import { removeDataDir, seededDataDir, startServer } from '../helpers/server.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

t.test('the index is built in the background once the server listens, saved, and loaded by a later start', async (t) => {
  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  const server = await startServer({ DATA_DIR: dataDir, AUTH_JWT_SECRET: TEST_JWT_SECRET })
  t.teardown(() => server.stop('SIGKILL'))
  t.equal((await fetchChecked(t, server.baseUrl, '/readyz')).status, 200, 'ready without waiting for the index')

  const created = await fetchChecked(t, server.baseUrl, '/api/v1/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${signToken('search-server-test')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'search' }),
  })
  const key = created.json<{ key: string }>().key
  // Whether the index is built yet or not, the search waits for it and answers.
  const res = await fetchChecked(t, server.baseUrl, `/api/v1/search?q=${encodeURIComponent('"God so loved the world"')}`, { headers: { 'x-api-key': key } })
  t.equal(res.status, 200)
  t.equal(res.json<SearchResults>().data[0]?.slug, 'john-3-16')

  // The log line may reach the pipe a moment after the response.
  for (let i = 0; i < 100 && !server.logs.some((l) => l.msg === 'search index built'); i++) await new Promise((r) => setTimeout(r, 50))
  const messages = server.logs.map((l) => l.msg)
  const built = server.logs.find((l) => l.msg === 'search index built')
  t.ok(built, 'logs the build')
  t.type(built?.ms, 'number')
  t.equal(built?.verses, 31102)
  t.ok(messages.indexOf('ready') < messages.indexOf('search index built'), 'built after the server was ready')

  // Stopping waits for a save in progress, so the file is there once the process has exited.
  t.equal(await server.stop('SIGTERM'), 0)
  t.ok(existsSync(join(dataDir, 'search', 'search-index.bin')), 'saved in DATA_DIR/search')
  t.ok(
    server.logs.some((l) => l.msg === 'search index saved'),
    'logs the save',
  )

  const later = await startServer({ DATA_DIR: dataDir, AUTH_JWT_SECRET: TEST_JWT_SECRET })
  t.teardown(() => later.stop('SIGKILL'))
  const laterMessages = later.logs.map((l) => l.msg)
  const loaded = later.logs.find((l) => l.msg === 'search index loaded')
  t.equal(loaded?.verses, 31102, 'loaded')
  t.ok(laterMessages.indexOf('search index loaded') < laterMessages.indexOf('ready'), 'loaded before the server was ready')
  const again = await fetchChecked(t, later.baseUrl, `/api/v1/search?q=${encodeURIComponent('"God so loved the world"')}`, { headers: { 'x-api-key': key } })
  t.equal(again.status, 200)
  t.same(again.json<SearchResults>(), res.json<SearchResults>(), 'the same results as from the built index')
  t.notOk(
    later.logs.some((l) => l.msg === 'search index built'),
    'not built again',
  )
})
