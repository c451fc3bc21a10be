/**
 * The MCP server card (`/.well-known/mcp/server-card.json`, `/mcp/server-card`): what an MCP
 * client needs to know before connecting, from the contract and the tool definitions the
 * endpoint serves. Its shape is the MCP Server Cards draft's (SEP-2127), which is the MCP
 * registry's `server.json` for a remote server: reverse-DNS `name`, a description of at most
 * 100 characters, `remotes` with their headers and authentication, `capabilities`, `tools`.
 */
import { clip, type DiscoveryContext, type DiscoveryTool, operation, urlOf } from './discovery.context.js'

/** The `$schema` of a server card (SEP-2127). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json'

/** The media type a client may ask for with `Accept`; others get `application/json`. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json'

/** The format's limit on `description` (and `title`). */
const DESCRIPTION_MAX = 100

/** One header a client sends to the remote. */
interface RemoteHeader {
  readonly name: string
  readonly description: string
  readonly isRequired: boolean
  readonly isSecret: boolean
}

/** The card, as the contract's `McpServerCard` schema describes it. */
export interface McpServerCard {
  readonly $schema: typeof SERVER_CARD_SCHEMA
  readonly name: string
  readonly title: string
  readonly description: string
  readonly version: string
  readonly websiteUrl: string
  readonly remotes: readonly {
    readonly type: 'streamable-http'
    readonly url: string
    readonly supportedProtocolVersions: readonly string[]
    readonly headers: readonly RemoteHeader[]
    readonly authentication: { readonly required: true; readonly schemes: readonly string[] }
  }[]
  readonly capabilities: { readonly tools: { readonly listChanged: false } }
  readonly tools: readonly DiscoveryTool[]
}

/**
 * The reverse-DNS namespace of a host (`api.example.org` → `org.example.api`); an IP address
 * or a single label stays as it is.
 */
export function reverseDns(host: string): string {
  if (/^[0-9.]+$/.test(host) || host.includes(':')) return host.replace(/[^a-zA-Z0-9.-]/g, '-')
  return host.split('.').reverse().join('.')
}

/**
 * Builds the server card.
 * @example buildServerCard(context).remotes[0]?.url // 'https://api.example.org/mcp'
 */
export function buildServerCard(context: DiscoveryContext, protocolVersions: readonly string[] = [context.protocolVersion]): McpServerCard {
  const endpoint = urlOf(context, 'postMcp')
  const createKey = operation(context, 'createKey')
  const { info } = context.document
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: `${reverseDns(new URL(context.settings.publicBaseUrl).hostname)}/${context.serviceName.toLowerCase()}`,
    title: clip(context.serviceName, DESCRIPTION_MAX),
    description: clip(info.summary ?? info.title, DESCRIPTION_MAX),
    version: context.version,
    websiteUrl: urlOf(context, 'getDocs'),
    remotes: [
      {
        type: 'streamable-http',
        url: endpoint,
        supportedProtocolVersions: protocolVersions,
        headers: [
          {
            name: 'X-API-Key',
            description: `Your API key (pv_...), also accepted as Authorization: Bearer. Create one with ${createKey.method} ${createKey.path} or ask the operator.`,
            isRequired: false,
            isSecret: true,
          },
        ],
        authentication: { required: true, schemes: ['bearer'] },
      },
    ],
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
