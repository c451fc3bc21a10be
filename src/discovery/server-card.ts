/**
 * The MCP server card (`/.well-known/mcp/server-card.json`, `/mcp/server-card`): what an MCP
 * client needs to know before connecting, from the contract and the tool definitions the
 * endpoint serves.
 */
import { type DiscoveryContext, type DiscoveryTool, operation, urlOf } from './discovery.context.js'
import { docsUrl } from './openapi-view.js'

/** The card, as the contract's `McpServerCard` schema describes it. */
export interface McpServerCard {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly version: string
  readonly protocolVersion: string
  readonly websiteUrl: string
  readonly endpoints: readonly { readonly url: string; readonly transport: 'streamable-http' }[]
  readonly remotes: readonly { readonly type: 'streamable-http'; readonly url: string }[]
  readonly authentication: {
    readonly type: 'api-key'
    readonly required: true
    /** Where the key goes: either header works. */
    readonly headers: readonly { readonly name: string; readonly format: string }[]
    readonly description: string
    /** How to get a key. */
    readonly documentationUrl: string
  }
  readonly capabilities: { readonly tools: { readonly listChanged: false } }
  readonly tools: readonly DiscoveryTool[]
}

/**
 * Builds the server card.
 * @example buildServerCard(context).endpoints[0] // { url: 'https://api.example.org/mcp', transport: 'streamable-http' }
 */
export function buildServerCard(context: DiscoveryContext): McpServerCard {
  const endpoint = urlOf(context, 'postMcp')
  const createKey = operation(context, 'createKey')
  return {
    name: context.serviceName.toLowerCase(),
    title: context.serviceName,
    description: `${context.document.info.summary ?? context.document.info.title} Tools: ${context.tools.map((tool) => tool.name).join(', ')}; scripture comes with its attribution and a citation line.`,
    version: context.version,
    protocolVersion: context.protocolVersion,
    websiteUrl: urlOf(context, 'getDocs'),
    endpoints: [{ url: endpoint, transport: 'streamable-http' }],
    remotes: [{ type: 'streamable-http', url: endpoint }],
    authentication: {
      type: 'api-key',
      required: true,
      headers: [
        { name: 'X-API-Key', format: 'pv_...' },
        { name: 'Authorization', format: 'Bearer pv_...' },
      ],
      description: `The same API key as the REST API. Create one with ${createKey.method} ${createKey.path} (signed in with a token from the identity provider), or ask the operator (npx plainverse keys create).`,
      documentationUrl: docsUrl(createKey, context.settings.publicBaseUrl),
    },
    // The endpoint is stateless: the tool list never changes while a client is connected.
    capabilities: { tools: { listChanged: false } },
    tools: context.tools.map((tool) => ({
      name: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    })),
  }
}
