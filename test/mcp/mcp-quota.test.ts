/**
 * Counting and attribution of MCP tool calls, through the SDK's Client against a listening
 * app, on every available database (and Redis counters when REDIS_URL is set): which calls
 * count, the 429 when the quota is exhausted (also under a race), the journal line, and the
 * account form of /api/v1/usage with `by_client` and `top_verses`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { components } from '../../generated/api-types.js'
import type { Problem } from '../../src/errors.js'
import { CLIENT_INFO_META_KEY } from '../../src/mcp/mcp.attribution.js'
import { parseJournal } from '../../src/usage/usage.journal.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { availableKinds } from '../helpers/database.js'
import { fetchChecked } from '../helpers/http.js'
import { connectClient, listening, rpcHeaders, toolCall } from '../helpers/mcp.js'
import { forgetCounters, REDIS_URL } from '../helpers/redis.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

type AccountUsage = components['schemas']['AccountUsage']
type KeyUsage = components['schemas']['KeyUsage']

const redisEnv: Record<string, string> = REDIS_URL === undefined ? {} : { REDIS_URL }
const claude = { [CLIENT_INFO_META_KEY]: { name: 'claude-test', version: '1.2' } }

for (const { kind, skip } of availableKinds()) {
  t.test(`MCP counting and attribution (${kind})`, { skip }, async (t) => {
    const testApp = await buildTestApp(t, { kind, env: { AUTH_JWT_SECRET: TEST_JWT_SECRET, QUOTA_FREE: '3', ...redisEnv } })
    const baseUrl = await listening(testApp.app)
    const main = await createTestKey(testApp, { account: 'alice', tier: 'developer' })
    const tiny = await createTestKey(testApp, { account: 'alice', name: 'tiny' })
    const raced = await createTestKey(testApp, { account: 'carol' })
    t.teardown(() => forgetCounters([main.id, tiny.id, raced.id]))
    const keyUsage = async (key: string): Promise<KeyUsage> =>
      (await fetchChecked(t, baseUrl, '/api/v1/usage', { headers: { 'x-api-key': key } })).json<KeyUsage>()
    const accountUsage = async (account: string): Promise<AccountUsage> =>
      (await fetchChecked(t, baseUrl, '/api/v1/usage', { headers: { authorization: `Bearer ${signToken(account)}` } })).json<AccountUsage>()

    t.test('only successful scripture calls count, with endpoint mcp and their style', async (t) => {
      // Two AI clients on one key: one names itself in _meta on every call, the other only in
      // its initialize (remembered by key and User-Agent).
      const named = await connectClient(t, baseUrl, { 'X-API-Key': main.key })
      const plain = await connectClient(t, baseUrl, { 'X-API-Key': main.key, 'User-Agent': 'TestAgent/9.9' }, { name: 'plain-agent', version: '3.1' })
      await named.listTools()
      t.equal((await keyUsage(main.key)).total_queries, 0, 'initialize and tools/list are not counted')

      const notCounted: Array<[string, Record<string, unknown>]> = [
        ['resolve_reference', { text: 'John 3:16' }],
        ['list_narratives', { gospel: 'john' }],
        ['get_verse', { reference: 'john-3-99' }],
        ['get_verse', { reference: 7 }],
        ['get_passage', { reference: 'Genesis 1-10' }],
        ['search_scripture', { query: 'love', limit: 99 }],
        ['get_narrative', { slug: 'no-such-narrative' }],
      ]
      for (const [name, args] of notCounted) await named.callTool({ name, arguments: args, _meta: claude })
      t.equal((await keyUsage(main.key)).total_queries, 0, 'resolve, list, failed and invalid calls are not counted')

      const call = async (client: typeof named, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<CallToolResult> => {
        const result = (await client.callTool({ name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) })) as CallToolResult
        t.not(result.isError, true, `${name} succeeds`)
        return result
      }
      await call(named, 'get_verse', { reference: 'john-3-16' }, claude)
      t.equal((await keyUsage(main.key)).total_queries, 1, 'each scripture call counts one')
      await call(named, 'get_passage', { reference: 'John 3:16-18', style: 'casual' }, claude)
      await call(plain, 'get_verse', { reference: 'Jn 3:17', style: 'all' })
      const search = await call(plain, 'search_scripture', { query: 'shepherd', book: 'john', limit: 3 })
      await call(plain, 'get_narrative', { slug: 'john-jesus-feeds-five-thousand' })
      t.equal((await keyUsage(main.key)).total_queries, 5)

      const searchSlugs = (search.structuredContent as { data: Array<{ slug: string }> }).data.map((hit) => hit.slug)
      t.equal(searchSlugs.length, 3)

      const lines = parseJournal(readFileSync(join(testApp.journalDir, 'usage.journal'), 'utf8')).filter((e) => e.keyId === main.id)
      t.same(
        lines.map((e) => [e.endpoint, e.style, e.attribution?.client, e.attribution?.tool, e.attribution?.verseIds.length]),
        [
          ['mcp', 'faithful', 'claude-test/1.2', 'get_verse', 1],
          ['mcp', 'casual', 'claude-test/1.2', 'get_passage', 3],
          ['mcp', 'all', 'plain-agent/3.1', 'get_verse', 1],
          ['mcp', 'faithful', 'plain-agent/3.1', 'search_scripture', 3],
          ['mcp', 'faithful', 'plain-agent/3.1', 'get_narrative', 15],
        ],
        'each counted call is journalled with its client, tool and verses',
      )
      t.equal(lines[1]?.attribution?.verseIds.join(','), '43003016,43003017,43003018')

      // john-3-16 and john-3-17 were served twice; the rest once, listed in canonical order.
      const chapterVerse = (slug: string): number => Number(slug.split('-')[1]) * 1000 + Number(slug.split('-')[2])
      const hits = [...searchSlugs].sort((a, b) => chapterVerse(a) - chapterVerse(b))
      t.ok(
        hits.every((slug) => chapterVerse(slug) > 6015),
        'the search served verses after John 6:15',
      )
      const once = ['john-3-18', ...Array.from({ length: 15 }, (_, i) => `john-6-${i + 1}`), ...hits]
      const expectedTop = ['john-3-16', 'john-3-17', ...once].slice(0, 20)
      const check = async (when: string): Promise<void> => {
        const alice = await accountUsage('alice')
        t.same(alice.by_client, { 'claude-test/1.2': 2, 'plain-agent/3.1': 3 }, `by_client ${when}`)
        t.equal(alice.by_endpoint.mcp, 5)
        t.same(alice.by_style, { faithful: 3, casual: 1, all: 1 })
        t.equal(alice.top_verses.length, 20, 'at most 20 verses')
        t.same(
          alice.top_verses.map((v) => v.slug),
          expectedTop,
          `top_verses most served first, ties canonical ${when}`,
        )
        t.same(alice.top_verses[0], { slug: 'john-3-16', reference: 'John 3:16', queries: 2 })
        t.same(alice.top_verses[1], { slug: 'john-3-17', reference: 'John 3:17', queries: 2 })
        t.equal(alice.top_verses[2]?.queries, 1)
      }
      await check('while journalled')
      await testApp.services.usage.flush()
      await check('from the ledger')
      const clients = await testApp.database.db
        .selectFrom('usage_clients')
        .selectAll()
        .where('key_id', '=', main.id)
        .orderBy('tool')
        .orderBy('client')
        .execute()
      t.same(
        clients.map((r) => [r.client, r.tool, Number(r.queries)]),
        [
          ['plain-agent/3.1', 'get_narrative', 1],
          ['claude-test/1.2', 'get_passage', 1],
          ['claude-test/1.2', 'get_verse', 1],
          ['plain-agent/3.1', 'get_verse', 1],
          ['plain-agent/3.1', 'search_scripture', 1],
        ],
        'usage_clients holds each client and tool',
      )
      const served = await testApp.database.db
        .selectFrom('usage_verses')
        .select(['verse_id', 'serves'])
        .where('key_id', '=', main.id)
        .where('verse_id', 'in', [43003016, 43003018])
        .orderBy('verse_id')
        .execute()
      t.same(
        served.map((r) => [r.verse_id, Number(r.serves)]),
        [
          [43003016, 2],
          [43003018, 1],
        ],
      )

      const bob = await accountUsage('bob')
      t.same(bob.by_client, {}, 'another account sees none of it')
      t.same(bob.top_verses, [])
    })

    t.test('an exhausted quota: 429 with Retry-After and the rate-limit headers', async (t) => {
      const client = await connectClient(t, baseUrl, { 'X-API-Key': tiny.key })
      for (const reference of ['john-1-1', 'john-1-2', 'john-1-3']) {
        const result = (await client.callTool({ name: 'get_verse', arguments: { reference } })) as CallToolResult
        t.not(result.isError, true)
      }
      await t.rejects(client.callTool({ name: 'get_verse', arguments: { reference: 'john-1-4' } }), /429/, 'the SDK client sees HTTP 429')
      const res = await fetchChecked(t, baseUrl, '/mcp', {
        method: 'POST',
        headers: rpcHeaders({ 'x-api-key': tiny.key }),
        body: toolCall('get_passage', { reference: 'psalms-23' }),
      })
      t.equal(res.status, 429)
      const problem = res.json<Problem & { limit: number; reset_at: string }>()
      t.equal(problem.code, 'quota_exceeded')
      t.equal(problem.limit, 3)
      t.match(res.headers.get('retry-after'), /^\d+$/)
      t.equal(res.headers.get('x-ratelimit-remaining'), '0')
      t.match(res.headers.get('ratelimit'), /^"monthly";r=0;t=\d+$/)
      t.equal((await keyUsage(tiny.key)).total_queries, 3, 'nothing more was counted')

      // What never counts still works, with the headers saying the quota is spent.
      const list = await fetchChecked(t, baseUrl, '/mcp', {
        method: 'POST',
        headers: rpcHeaders({ 'x-api-key': tiny.key }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      })
      t.equal(list.status, 200)
      t.equal(list.headers.get('x-ratelimit-remaining'), '0')
      const resolve = (await client.callTool({ name: 'resolve_reference', arguments: { text: 'Psalm 23' } })) as CallToolResult
      t.not(resolve.isError, true, 'resolve_reference works on an exhausted key')
      // Bad arguments are reported as such before the quota is looked at.
      const invalid = (await client.callTool({ name: 'get_verse', arguments: { reference: 'john-1-4', verse: 4 } })) as CallToolResult
      t.equal(invalid.isError, true)
      t.match((invalid.content[0] as { text: string }).text, /unknown argument "verse"/)
    })

    t.test('concurrent calls for the last query: one is served, the others get 429', async (t) => {
      const headers = rpcHeaders({ 'x-api-key': raced.key })
      for (const id of [1, 2]) {
        const res = await fetchChecked(t, baseUrl, '/mcp', { method: 'POST', headers, body: toolCall('get_verse', { reference: `john-2-${id}` }, id) })
        t.equal(res.status, 200)
      }
      const statuses = await Promise.all(
        Array.from(
          { length: 6 },
          async (_, i) =>
            (await fetchChecked(t, baseUrl, '/mcp', { method: 'POST', headers, body: toolCall('get_passage', { reference: `john-2-${i + 3}` }, i + 3) }))
              .status,
        ),
      )
      t.same(statuses.filter((s) => s === 200).length, 1, `exactly one served: ${statuses.join(',')}`)
      t.same(statuses.filter((s) => s === 429).length, 5)
      t.equal((await keyUsage(raced.key)).total_queries, 3)
      await testApp.services.usage.flush()
      const carol = await accountUsage('carol')
      t.equal(carol.by_endpoint.mcp, 3)
      t.equal(
        Object.values(carol.by_client).reduce((a, b) => a + b, 0),
        3,
        'attributed exactly as counted',
      )
      t.equal(carol.top_verses.length, 3)
    })
  })
}
