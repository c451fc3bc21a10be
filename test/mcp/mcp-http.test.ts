/**
 * The HTTP layer of the MCP endpoint with raw requests checked against the contract: the
 * Origin rule and the API key before any JSON-RPC, preflights, 405, the JSON-RPC answers to
 * bodies that are not one message, media types, and the rate-limit headers.
 */
import t from 'tap'
import type { Problem } from '../../src/errors.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { fetchChecked, type FetchedResponse } from '../helpers/http.js'
import { listening, rpcHeaders, toolCall } from '../helpers/mcp.js'

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
interface RpcAnswer {
  jsonrpc: string
  id: number | string | null
  result?: { tools?: unknown[] }
  error?: { code: number; message: string }
}

t.test('MCP endpoint over HTTP', async (t) => {
  const testApp = await buildTestApp(t, { env: { MCP_ALLOWED_ORIGINS: 'https://app.example.org, http://localhost:5173' } })
  const { key } = await createTestKey(testApp)
  const restricted = await createTestKey(testApp, { allowedDomains: ['partner.example.net'] })
  const baseUrl = await listening(testApp.app)
  const post = (headers: Record<string, string>, body: string, path = '/mcp'): Promise<FetchedResponse> =>
    fetchChecked(t, baseUrl, path, { method: 'POST', headers, body })
  const usedQueries = async (): Promise<number> =>
    (await fetchChecked(t, baseUrl, '/api/v1/usage', { headers: { 'x-api-key': key } })).json<{ total_queries: number }>().total_queries

  t.test('tools/list answers JSON with the rate-limit headers, at both paths, and counts nothing', async (t) => {
    for (const path of ['/mcp', '/api/v1/mcp']) {
      const res = await post(rpcHeaders({ 'x-api-key': key }), LIST, path)
      t.equal(res.status, 200, path)
      t.match(res.headers.get('content-type'), /^application\/json/)
      t.equal(res.json<RpcAnswer>().result?.tools?.length, 6)
      t.equal(res.headers.get('x-ratelimit-limit'), '500')
      t.equal(res.headers.get('x-ratelimit-remaining'), '500')
      t.match(res.headers.get('ratelimit-policy'), /^"monthly";q=500;w=\d+$/)
      t.match(res.headers.get('ratelimit'), /^"monthly";r=500;t=\d+$/)
    }
    const bearer = await post(rpcHeaders({ authorization: `Bearer ${key}` }), LIST)
    t.equal(bearer.status, 200, 'Authorization: Bearer works as on REST')
    t.equal(await usedQueries(), 0)
  })

  t.test('a counted call sets the headers from the query it counted', async (t) => {
    const res = await post(rpcHeaders({ 'x-api-key': key }), toolCall('get_verse', { reference: 'john-3-16' }))
    t.equal(res.status, 200)
    t.equal(res.headers.get('x-ratelimit-remaining'), '499')
    t.equal(await usedQueries(), 1)
  })

  t.test('a notification is accepted with 202 and no body', async (t) => {
    const res = await post(rpcHeaders({ 'x-api-key': key }), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))
    t.equal(res.status, 202)
    t.equal(res.body, '')
  })

  t.test('no key: 401 before any JSON-RPC is read', async (t) => {
    for (const body of [LIST, 'not json at all', '[]']) {
      const res = await post(rpcHeaders(), body)
      t.equal(res.status, 401)
      t.equal(res.json<Problem>().code, 'missing_credentials')
      t.match(res.headers.get('www-authenticate'), /ApiKey|Bearer/)
      t.match(res.headers.get('content-type'), /^application\/problem\+json/)
    }
  })

  t.test('a bad key: 403 before any JSON-RPC is read', async (t) => {
    // The last character changed (to one it is not), so the checksum no longer matches.
    const altered = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`
    for (const bad of ['pv_' + 'A'.repeat(36), 'nonsense', altered]) {
      const res = await post(rpcHeaders({ 'x-api-key': bad }), 'not json')
      t.equal(res.status, 403, bad)
      t.equal(res.json<Problem>().code, 'invalid_api_key')
    }
    const revoked = await createTestKey(testApp)
    await testApp.services.keys.revoke(revoked.id, undefined)
    const res = await post(rpcHeaders({ 'x-api-key': revoked.key }), LIST)
    t.equal(res.status, 403)
    t.equal(res.json<Problem>().code, 'invalid_api_key')
  })

  t.test('a key restricted to other domains: 403 domain_not_allowed', async (t) => {
    const res = await post(rpcHeaders({ 'x-api-key': restricted.key, origin: 'https://app.example.org' }), LIST)
    t.equal(res.status, 403)
    t.equal(res.json<Problem>().code, 'domain_not_allowed')
  })

  t.test('the Origin rule', async (t) => {
    for (const origin of ['https://evil.example.com', 'http://localhost:8081', 'null', 'https://app.example.org.evil.com', 'garbage']) {
      // Checked first: even without a key, a foreign page learns nothing but 403.
      for (const headers of [rpcHeaders({ origin, 'x-api-key': key }), rpcHeaders({ origin })]) {
        const res = await post(headers, LIST)
        t.equal(res.status, 403, origin)
        t.equal(res.json<Problem>().code, 'origin_not_allowed')
        t.equal(res.headers.get('access-control-allow-origin'), null, 'no CORS grant for a refused origin on /mcp')
      }
    }
    const v1 = await post(rpcHeaders({ origin: 'https://evil.example.com', 'x-api-key': key }), LIST, '/api/v1/mcp')
    t.equal(v1.status, 403)
    t.equal(v1.json<Problem>().code, 'origin_not_allowed')
    for (const origin of ['http://localhost:8080', 'https://app.example.org', 'http://localhost:5173', 'HTTPS://APP.EXAMPLE.ORG']) {
      const res = await post(rpcHeaders({ origin, 'x-api-key': key }), LIST)
      t.equal(res.status, 200, `${origin} is allowed`)
      t.equal(res.headers.get('access-control-allow-origin'), origin)
      t.match(res.headers.get('vary'), /Origin/)
      t.match(res.headers.get('access-control-expose-headers'), /RateLimit/)
    }
    const aliased = await post(rpcHeaders({ origin: 'https://app.example.org', 'x-api-key': key }), LIST, '/api/v1/mcp')
    t.equal(aliased.headers.get('access-control-allow-origin'), 'https://app.example.org', 'never * on the MCP endpoint')
    const none = await post(rpcHeaders({ 'x-api-key': key }), LIST)
    t.equal(none.status, 200, 'no Origin (not a browser) passes')
  })

  t.test('preflights answer allowed origins only', async (t) => {
    for (const path of ['/mcp', '/api/v1/mcp']) {
      const ok = await fetchChecked(t, baseUrl, path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.org',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-api-key, content-type, mcp-protocol-version',
        },
      })
      t.equal(ok.status, 204, path)
      t.equal(ok.headers.get('access-control-allow-origin'), 'https://app.example.org')
      t.match(ok.headers.get('access-control-allow-methods'), /POST/)
      t.match(ok.headers.get('access-control-allow-headers'), /X-API-Key.*Content-Type.*Mcp-Protocol-Version/)
      const refused = await fetchChecked(t, baseUrl, path, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
      })
      t.equal(refused.status, 403)
      t.equal(refused.json<Problem>().code, 'origin_not_allowed')
      t.not(refused.headers.get('access-control-allow-origin'), 'https://evil.example.com')
    }
  })

  t.test('GET and DELETE: 405 with Allow (no server-to-client stream, no sessions)', async (t) => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await fetchChecked(t, baseUrl, '/mcp', { method, headers: { 'x-api-key': key, accept: 'text/event-stream' } })
      t.equal(res.status, 405, method)
      t.equal(res.json<Problem>().code, 'method_not_allowed')
      t.match(res.headers.get('allow'), /POST/)
      t.notMatch(res.headers.get('allow'), /GET/)
    }
  })

  t.test('bodies that are not one JSON-RPC message: JSON-RPC errors', async (t) => {
    const headers = rpcHeaders({ 'x-api-key': key })
    const cases: Array<[string, number, number]> = [
      ['{"jsonrpc": "2.0", "id": 1, "method": ', 400, -32700],
      ['', 400, -32700],
      [`[${LIST}, ${LIST}]`, 400, -32600],
      ['{}', 400, -32600],
      ['{"jsonrpc": "1.0", "id": 1, "method": "tools/list"}', 400, -32600],
      ['"tools/list"', 400, -32600],
      ['{"jsonrpc": "2.0", "id": 1}', 400, -32600],
      [
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_verse", "arguments": {"__proto__": {"reference": "john-3-16"}}}}',
        400,
        -32600,
      ],
      ['{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"constructor": {"prototype": {}}}}', 400, -32600],
      ['null', 400, -32600],
      ['42', 400, -32600],
    ]
    for (const [body, status, code] of cases) {
      const res = await post(headers, body)
      t.equal(res.status, status, body.slice(0, 40))
      t.match(res.headers.get('content-type'), /^application\/json/)
      const answer = res.json<RpcAnswer>()
      t.equal(answer.jsonrpc, '2.0')
      t.equal(answer.error?.code, code, body.slice(0, 40))
    }
    const method = await post(headers, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'resources/list' }))
    t.equal(method.status, 200)
    t.equal(method.json<RpcAnswer>().error?.code, -32601, 'an unknown method is a JSON-RPC error')
    for (const params of [undefined, {}, { name: 7 }, { arguments: { reference: 'john-3-16' } }]) {
      const call = await post(headers, JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/call', ...(params === undefined ? {} : { params }) }))
      t.equal(call.status, 200)
      const answer = call.json<RpcAnswer>()
      t.equal(answer.error?.code, -32602, `tools/call with params ${JSON.stringify(params)}: invalid params`)
      t.match(answer.error?.message, /^Invalid params: tools\/call needs params\.name/)
      t.ok((answer.error?.message.length ?? 0) < 120, 'a short message, not a schema dump')
    }
  })

  t.test('media types, Accept and protocol version', async (t) => {
    const noType = await fetchChecked(t, baseUrl, '/mcp', { method: 'POST', headers: { 'x-api-key': key, accept: 'application/json, text/event-stream' } })
    t.equal(noType.status, 415)
    t.equal(noType.json<Problem>().code, 'unsupported_media_type')
    const text = await post({ ...rpcHeaders({ 'x-api-key': key }), 'content-type': 'text/plain' }, LIST)
    t.equal(text.status, 415)
    const accept = await post({ ...rpcHeaders({ 'x-api-key': key }), accept: 'application/json' }, LIST)
    t.equal(accept.status, 406)
    t.equal(accept.json<RpcAnswer>().error?.code, -32000)
    const version = await post({ ...rpcHeaders({ 'x-api-key': key }), 'mcp-protocol-version': '1999-01-01' }, LIST)
    t.equal(version.status, 400)
    t.match(version.json<RpcAnswer>().error?.message, /Unsupported protocol version/)
    const large = await post(rpcHeaders({ 'x-api-key': key }), toolCall('resolve_reference', { text: 'x'.repeat(70_000) }))
    t.equal(large.status, 413)
    t.equal(large.json<Problem>().code, 'payload_too_large')
    const charset = await post({ ...rpcHeaders({ 'x-api-key': key }), 'content-type': 'application/json; charset=utf-8' }, LIST)
    t.equal(charset.status, 200, 'a charset parameter is fine')
  })
})
