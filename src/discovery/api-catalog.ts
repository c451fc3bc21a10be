/** `/.well-known/api-catalog` (RFC 9727): a linkset (RFC 9264) of this server's APIs. */
import { absolute, API_PREFIX, type DiscoveryContext, operation, urlOf } from './discovery.context.js'
import { docsUrl } from './openapi-view.js'

/** One target of a link relation. */
export interface LinkTarget {
  readonly href: string
  readonly type?: string
  readonly title?: string
}

/** An RFC 9264 linkset in its JSON form: link contexts (`anchor`) with their relations. */
export interface Linkset {
  readonly linkset: readonly ({ readonly anchor: string } & Readonly<Record<string, string | readonly LinkTarget[]>>)[]
}

/** The media type of the catalog: a JSON linkset with the api-catalog profile (RFC 9727 section 4.2). */
export const API_CATALOG_MEDIA_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'

/** The `Link` header that points at the catalog (RFC 9727 section 3). */
export function apiCatalogLinkHeader(context: DiscoveryContext): string {
  return `<${urlOf(context, 'getApiCatalog')}>; rel="api-catalog"`
}

/**
 * Builds the catalog: the REST API (anchor `{base}/api/v1`) with its OpenAPI document
 * (`service-desc`), documentation (`service-doc`), readiness probe (`status`) and terms
 * (`terms-of-service`); and the MCP endpoint with its server card as `service-desc`. Every
 * `type` is the media type the target is served with (without parameters).
 * @example buildApiCatalog(context).linkset[0]?.anchor // 'https://api.example.org/api/v1'
 */
export function buildApiCatalog(context: DiscoveryContext): Linkset {
  const mcp = operation(context, 'postMcp')
  return {
    linkset: [
      {
        anchor: absolute(context, API_PREFIX),
        'service-desc': [
          { href: urlOf(context, 'getOpenApiJson'), type: 'application/json', title: 'OpenAPI 3.1 document (JSON)' },
          { href: urlOf(context, 'getOpenApiYaml'), type: 'application/yaml', title: 'OpenAPI 3.1 document (YAML)' },
        ],
        'service-doc': [
          { href: urlOf(context, 'getDocs'), type: 'text/html', title: 'Interactive documentation' },
          { href: urlOf(context, 'getLlmsFullTxt'), type: 'text/plain', title: 'The whole API reference as Markdown' },
          { href: urlOf(context, 'getLlmsTxt'), type: 'text/plain', title: 'Summary for language models (llms.txt)' },
        ],
        status: [{ href: urlOf(context, 'getReadiness'), type: 'application/json' }],
        'terms-of-service': [{ href: context.settings.legalUrl, type: 'text/html' }],
      },
      {
        anchor: absolute(context, mcp.path),
        'service-desc': [{ href: urlOf(context, 'getWellKnownMcpServerCard'), type: 'application/json', title: 'MCP server card' }],
        'service-doc': [{ href: docsUrl(mcp, context.settings.publicBaseUrl), type: 'text/html' }],
        'terms-of-service': [{ href: context.settings.legalUrl, type: 'text/html' }],
      },
    ],
  }
}
