/**
 * The MCP server of one HTTP request (the endpoint is stateless): the SDK's low-level
 * `Server` with `tools/list` answered from MCP_TOOLS and `tools/call` run by
 * McpToolsService, counting each call that returns scripture as one query.
 */
import type { FastifyBaseLogger } from 'fastify'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { AppError } from '../errors.js'
import type { KeyRecord } from '../keys/keys.repository.js'
import { SERVER_VERSION } from '../meta/version.js'
import type { Metering } from '../quotas/metering.js'
import type { ConsumeOutcome } from '../quotas/quota.service.js'
import { clientOf } from './mcp.attribution.js'
import type { McpToolsService } from './mcp.service.js'
import { MCP_TOOLS } from './mcp.tools.js'

/** What `initialize` reports about the server. */
export const MCP_SERVER_INFO = Object.freeze({
  name: 'plainverse',
  title: 'Plainverse',
  version: SERVER_VERSION,
})

const INSTRUCTIONS =
  'Plainverse serves the King James Version of the Bible with simplified modern-English texts. ' +
  'When you quote a result, show its citation line (source, reference, URL and licence). ' +
  "resolve_reference and list_narratives are free; the other tools count against the API key's monthly quota."

// The tools as `tools/list` sends them: plain data, copied once from the definitions.
const LISTED_TOOLS = JSON.parse(JSON.stringify(MCP_TOOLS)) as Tool[]

// The SDK validates elicitation answers with it (never used here); one instance instead of
// one per request, since the server is built for every request.
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator()

/** The state one HTTP request shares with its server, read by the route afterwards. */
export interface McpCallContext {
  readonly key: KeyRecord
  readonly userAgent: string | undefined
  /** The client this key's last `initialize` with the same User-Agent named, if any. */
  readonly rememberedClient?: string
  /**
   * `arguments` of a `tools/call` as sent when they were not an object: the route hands the
   * SDK `{}` instead (its request schema would answer an internal error) so that the call
   * gets the tool error that bad arguments get.
   */
  readonly sentArguments?: unknown
  /**
   * The outcome of the query this request tried to count, if any: allowed (the route writes
   * its headers) or not (another request took the last query after the route's check; the
   * route answers 429 instead of the result).
   */
  outcome?: ConsumeOutcome
}

/** What the server needs besides the request's context. */
export interface McpServerDeps {
  readonly tools: McpToolsService
  readonly metering: Metering
  readonly logger: FastifyBaseLogger
}

/**
 * A server for one request; connect it to a transport, then close both.
 * @example const server = createMcpServer(deps, { key, userAgent }); await server.connect(transport)
 */
export function createMcpServer(deps: McpServerDeps, context: McpCallContext): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: SCHEMA_VALIDATOR })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED_TOOLS }))
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { tools, metering } = deps
    const name = request.params.name
    if (!tools.has(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 100)}. Call tools/list for the tools.`)
    const args = request.params.arguments ?? {}
    const invalid = tools.invalidArguments(name, 'sentArguments' in context ? context.sentArguments : args)
    if (invalid !== undefined) return toolError(invalid)
    let outcome
    try {
      outcome = await tools.run(name, args)
    } catch (error) {
      if (error instanceof AppError) return toolError(error.detail)
      deps.logger.error({ err: error, tool: name }, 'MCP tool failed')
      throw new McpError(ErrorCode.InternalError, 'An unexpected error occurred. It has been logged.')
    }
    if (outcome.served !== undefined) {
      const consumed = await metering.consume(context.key, 'mcp', outcome.served.style, {
        client: clientOf(request.method, request.params, context.userAgent, context.rememberedClient),
        tool: name,
        verseIds: outcome.served.verseIds,
      })
      context.outcome = consumed
      // The route answers 429 instead of this result: nothing was served or counted.
      if (!consumed.allowed) return toolError('The API key has no queries left this month.')
    }
    // The readable text for the model, then (MCP 2025-06-18, "Structured Content") the
    // structured content serialized, for clients that do not read `structuredContent`.
    return {
      content: [
        { type: 'text', text: outcome.text },
        { type: 'text', text: JSON.stringify(outcome.structured) },
      ],
      structuredContent: outcome.structured,
    }
  })
  return server
}

/** A tool error: a result the model can read and act on, not a protocol error. */
function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}
