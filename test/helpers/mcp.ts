/** MCP clients for tests: the SDK's own Client over Streamable HTTP against a listening app. */
import type { FastifyInstance } from 'fastify'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Teardown } from './app.js'
import { checkedFetch, type Asserter } from './http.js'

/** Makes a test app listen on a free local port; resolves to its base URL. */
export async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return `http://127.0.0.1:${address.port}`
}

/**
 * An initialized SDK client for `${baseUrl}${path}`, closed at teardown. Every response the
 * client receives is checked against the contract (through {@link checkedFetch}).
 * @param headers request headers for every request (the API key, a User-Agent...).
 */
export async function connectClient(
  t: Teardown & Asserter,
  baseUrl: string,
  headers: Record<string, string>,
  options: { path?: string; name?: string; version?: string } = {},
): Promise<Client> {
  const client = new Client({ name: options.name ?? 'plainverse-tests', version: options.version ?? '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(options.path ?? '/mcp', baseUrl), { requestInit: { headers }, fetch: checkedFetch(t) })
  await client.connect(transport)
  t.teardown(() => client.close())
  return client
}

/** The headers an MCP client sends with a JSON-RPC POST after initialization. */
export function rpcHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25', ...extra }
}

/** A `tools/call` request body. */
export function toolCall(name: string, args: unknown, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })
}
