/**
 * HTTP routes of the MCP endpoint (`POST /mcp`, `POST /api/v1/mcp` and their preflights):
 * the Origin rule, the API key and the quota check in front of the SDK's Streamable HTTP
 * transport, stateless (a fresh server and transport per request) and answering JSON.
 *
 * The transport runs in JSON-response mode, so the whole answer exists before any byte is
 * sent: a call that finds the quota exhausted (a concurrent request took the last query
 * after the check below) still turns into a 429 with nothing served and nothing counted.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { routes } from '../../generated/route-schemas.js'
import type { Config } from '../config.js'
import { AppError } from '../errors.js'
import { requireApiKey } from '../keys/api-key.plugin.js'
import type { Metering } from '../quotas/metering.js'
import { ClientMemory } from './mcp.attribution.js'
import { allowedOrigins, mcpPreflightHeaders, originHook } from './mcp.origin.js'
import type { McpCallContext } from './mcp.server.js'
import type * as McpSdk from './mcp.sdk.js'
import { McpToolsService, type McpToolsDeps } from './mcp.service.js'

/** What the MCP routes need: the services the tools read, the key and quota rules, configuration. */
export interface McpRouteDeps extends Omit<McpToolsDeps, 'citation'> {
  readonly metering: Metering
  readonly config: Pick<Config, 'publicBaseUrl' | 'mcpAllowedOrigins' | 'attributionSource' | 'attributionLicense'>
}

/** The body of a request whose JSON did not parse (answered with a JSON-RPC parse error). */
const MALFORMED = Symbol('malformed JSON')
/** Well-formed JSON that Fastify's parser refuses (prototype-poisoning keys): not a valid request. */
const FORBIDDEN_KEYS = Symbol('forbidden keys')

/** Whether a text is JSON at all (the secure parser also refuses some well-formed JSON). */
function isWellFormedJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

let sdkLoading: Promise<typeof McpSdk> | undefined

/** The MCP SDK's parts, loaded by the first request that needs them (see mcp.sdk.ts). */
function loadSdk(): Promise<typeof McpSdk> {
  sdkLoading ??= import('./mcp.sdk.js')
  return sdkLoading
}

/** Request headers the transport reads; credentials stay out of its reach. */
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'user-agent'] as const

/** Registers the MCP endpoint at both paths. */
export function registerMcpRoutes(app: FastifyInstance, deps: McpRouteDeps): void {
  const { metering, config } = deps
  const tools = new McpToolsService({
    verses: deps.verses,
    passages: deps.passages,
    narratives: deps.narratives,
    search: deps.search,
    citation: { source: config.attributionSource, license: config.attributionLicense },
  })
  const origin = originHook(allowedOrigins(config.publicBaseUrl, config.mcpAllowedOrigins))
  const base = new URL(config.publicBaseUrl).origin
  const clients = new ClientMemory()

  async function handler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const key = requireApiKey(request)
    const body = request.body
    if (body === undefined) throw new AppError('unsupported_media_type', 'Send one JSON-RPC message as application/json.')
    if (body === MALFORMED) return jsonRpcError(reply, -32700, 'Parse error: the body is not valid JSON.')
    if (body === FORBIDDEN_KEYS)
      return jsonRpcError(reply, -32600, 'Invalid Request: the message uses __proto__ or constructor.prototype keys, which are refused.')
    // Batches left MCP with revision 2025-06-18, and one message per request keeps the quota
    // answer (one 429 or one result) exact.
    if (Array.isArray(body)) return jsonRpcError(reply, -32600, 'Invalid Request: send one JSON-RPC message per request (batches are not supported).')
    const sdk = await loadSdk()
    const { isJSONRPCRequest, isJSONRPCNotification, isJSONRPCResponse } = sdk
    if (!isJSONRPCRequest(body) && !isJSONRPCNotification(body) && !isJSONRPCResponse(body)) {
      return jsonRpcError(reply, -32600, 'Invalid Request: the body is JSON but not a JSON-RPC 2.0 message (jsonrpc "2.0", a method, and an id for a request).')
    }
    // The SDK would answer a malformed tools/call with -32603 and a schema dump; the caller's mistake is -32602.
    if (isJSONRPCRequest(body) && body.method === 'tools/call' && typeof body.params?.name !== 'string') {
      return reply
        .code(200)
        .type('application/json')
        .send(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body.id,
            error: { code: -32602, message: 'Invalid params: tools/call needs params.name, the name of a tool (see tools/list).' },
          }),
        )
    }
    if (isCountedCall(body, tools, isJSONRPCRequest)) await metering.admitUncounted(request, reply)
    const userAgent = request.headers['user-agent']
    if (isJSONRPCRequest(body)) clients.remember(key.id, userAgent, body.method, body.params)
    const rememberedClient = clients.recall(key.id, userAgent)
    const { message, sentArguments } = withObjectArguments(body, isJSONRPCRequest)
    const context: McpCallContext = { key, userAgent, ...(rememberedClient === undefined ? {} : { rememberedClient }), ...sentArguments }
    const server = sdk.createMcpServer({ tools, metering, logger: request.log }, context)
    const transport = new sdk.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    try {
      await server.connect(transport)
      const response = await transport.handleRequest(webRequest(request, base), { parsedBody: message })
      const text = await response.text()
      if (context.outcome !== undefined) metering.settle(reply, context.outcome)
      reply.code(response.status)
      const type = response.headers.get('content-type')
      if (type !== null) reply.type(type)
      return reply.send(text === '' ? undefined : text)
    } finally {
      // Closes the transport too; everything it had to answer is in `response` by now.
      await server.close()
    }
  }

  app.register(async (scope) => {
    // Fastify's JSON parsing (prototype-poisoning keys refused), but a body it refuses gets a
    // JSON-RPC parse error, which MCP clients understand, rather than a problem document.
    const parseJson = scope.getDefaultJsonParser('error', 'error')
    scope.removeContentTypeParser('application/json')
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
      parseJson(request, text as string, (error, value) => {
        if (!(error instanceof Error)) return done(null, value)
        return done(null, isWellFormedJson(text as string) ? FORBIDDEN_KEYS : MALFORMED)
      })
    })
    for (const route of [routes.postMcp, routes.postMcpV1]) {
      scope.route({ method: route.method, url: route.url, onRequest: [origin, metering.authenticate], onSend: metering.quotaHeaders, handler })
    }
    // Stateless: no server-to-client stream, which the transport says to refuse with a 405.
    scope.route({
      ...routes.getMcp,
      handler() {
        throw new AppError(
          'method_not_allowed',
          'GET is not allowed on this path: the endpoint is stateless and opens no server-to-client stream; POST JSON-RPC messages.',
          {
            headers: { allow: 'POST, OPTIONS' },
          },
        )
      },
    })
    const preflight = mcpPreflightHeaders()
    for (const route of [routes.postMcp, routes.postMcpV1]) {
      scope.route({ method: 'OPTIONS', url: route.url, onRequest: origin, handler: (_request, reply) => reply.code(204).headers(preflight).send() })
    }
  })
}

/**
 * Whether a message is a `tools/call` that counts if it succeeds: a scripture tool with
 * arguments that pass its schema (bad arguments give a tool error, never a 429).
 */
function isCountedCall(message: unknown, tools: McpToolsService, isJSONRPCRequest: typeof McpSdk.isJSONRPCRequest): boolean {
  if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return false
  const name = message.params?.name
  if (typeof name !== 'string' || !tools.has(name) || !tools.counts(name)) return false
  return tools.invalidArguments(name, message.params?.arguments ?? {}) === undefined
}

/**
 * A `tools/call` whose `arguments` are not an object, with `{}` in their place and the
 * original set aside (see McpCallContext.sentArguments); any other message as it is.
 */
function withObjectArguments(
  message: unknown,
  isJSONRPCRequest: typeof McpSdk.isJSONRPCRequest,
): { message: unknown; sentArguments?: { sentArguments: unknown } } {
  if (!isJSONRPCRequest(message) || message.method !== 'tools/call' || message.params === undefined) return { message }
  const sent = message.params.arguments
  if (sent === undefined || (typeof sent === 'object' && sent !== null && !Array.isArray(sent))) return { message }
  return { message: { ...message, params: { ...message.params, arguments: {} } }, sentArguments: { sentArguments: sent } }
}

/** A JSON-RPC error answer of the endpoint itself (before the transport is involved). */
function jsonRpcError(reply: FastifyReply, code: number, message: string): FastifyReply {
  return reply
    .code(400)
    .type('application/json')
    .send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }))
}

/** The web-standard request the transport reads; the body is passed to it already parsed. */
function webRequest(request: FastifyRequest, base: string): Request {
  const headers = new Headers()
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name]
    if (typeof value === 'string') headers.set(name, value)
  }
  return new Request(new URL(request.url, base), { method: 'POST', headers })
}
