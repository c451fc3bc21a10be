/**
 * The MCP endpoint of the real server process, as an operator runs it: the SDK's Client
 * over Streamable HTTP, then `plainverse usage --attributions` through the admin socket and,
 * after a graceful stop, in-process on the same data.
 */
import t from 'tap'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { CLIENT_INFO_META_KEY } from '../../src/mcp/mcp.attribution.js'
import { runCli } from '../helpers/cli.js'
import { connectClient } from '../helpers/mcp.js'
import { removeDataDir, seededDataDir, startServer } from '../helpers/server.js'

interface Attributions {
  period_start: string
  period_end: string
  by_client: Record<string, number>
  top_verses: Array<{ slug: string; reference: string; queries: number }>
}

t.test('MCP against the running server, and the operator report', async (t) => {
  const dataDir = seededDataDir()
  t.teardown(() => removeDataDir(dataDir))
  const server = await startServer({ DATA_DIR: dataDir })
  t.teardown(() => server.stop('SIGKILL'))
  t.equal(server.child.exitCode, null, `the server started: ${server.stderr()}`)
  const env = { DATA_DIR: dataDir }

  const created = await runCli(['keys', 'create', '--name', 'assistant', '--account', 'acct-mcp', '--json'], env)
  t.equal(created.code, 0, created.stderr)
  const { key } = JSON.parse(created.stdout) as { key: string }

  const client = await connectClient(t, server.baseUrl, { 'X-API-Key': key, 'User-Agent': 'ProcessAgent/2.0' })
  t.equal((await client.listTools()).tools.length, 6)
  const meta = { [CLIENT_INFO_META_KEY]: { name: 'claude-desktop', version: '0.9.1' } }
  const verse = (await client.callTool({ name: 'get_verse', arguments: { reference: '1 Cor 13:4' }, _meta: meta })) as CallToolResult
  t.not(verse.isError, true)
  t.match(
    (verse.content[0] as { text: string }).text,
    /Source: Plainverse — King James Version, 1 Corinthians 13:4 — http:\/\/localhost:8080\/1-corinthians\/13\/4 — /,
  )
  // This client names itself only in initialize: its call is attributed to that name.
  const aliased = await connectClient(
    t,
    server.baseUrl,
    { 'X-API-Key': key, 'User-Agent': 'ProcessAgent/2.0' },
    { path: '/api/v1/mcp', name: 'aliased-agent', version: '2.0' },
  )
  const passage = (await aliased.callTool({ name: 'get_passage', arguments: { reference: '1 Corinthians 13:4-5' } })) as CallToolResult
  t.equal((passage.structuredContent as { verse_count: number }).verse_count, 2)

  const expected: Attributions['by_client'] = { 'claude-desktop/0.9.1': 1, 'aliased-agent/2.0': 1 }
  const expectedTop = [
    { slug: '1-corinthians-13-4', reference: '1 Corinthians 13:4', queries: 2 },
    { slug: '1-corinthians-13-5', reference: '1 Corinthians 13:5', queries: 1 },
  ]
  const live = await runCli(['usage', '--attributions', '--account', 'acct-mcp', '--json'], env)
  t.equal(live.code, 0, live.stderr)
  const report = JSON.parse(live.stdout) as Attributions
  t.same(report.by_client, expected, 'through the admin socket')
  t.same(report.top_verses, expectedTop)
  t.same(Object.keys(report).sort(), ['by_client', 'period_end', 'period_start', 'top_verses'])

  const text = await runCli(['usage', '--attributions'], env)
  t.equal(text.code, 0, text.stderr)
  t.match(text.stdout, /^MCP attributions \d{4}-\d{2}-01 to \d{4}-\d{2}-01 \(all accounts\)\n/)
  t.match(text.stdout, /by client:\n\s+1 {2}aliased-agent\/2\.0\n\s+1 {2}claude-desktop\/0\.9\.1\n/, 'most calls first, then by name')
  t.match(text.stdout, /top verses:\n\s+2 {2}1 Corinthians 13:4 \(1-corinthians-13-4\)\n\s+1 {2}1 Corinthians 13:5 \(1-corinthians-13-5\)\n/)
  const plain = await runCli(['usage', '--account', 'acct-mcp', '--json'], env)
  t.equal((JSON.parse(plain.stdout) as { by_endpoint: Record<string, number> }).by_endpoint.mcp, 2, 'plain usage counts endpoint mcp')

  t.equal(await server.stop('SIGTERM'), 0, 'graceful stop')
  const offline = await runCli(['usage', '--attributions', '--account', 'acct-mcp', '--json'], env)
  t.equal(offline.code, 0, offline.stderr)
  const stored = JSON.parse(offline.stdout) as Attributions
  t.same(stored.by_client, expected, 'in-process, from the database after the server stopped')
  t.same(stored.top_verses, expectedTop)
  const empty = await runCli(['usage', '--attributions', '--account', 'nobody'], env)
  t.match(empty.stdout, /by client:\n\s+none\n\s+top verses:\n\s+none/)
})
