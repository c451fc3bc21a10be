/** `/robots.txt` (RFC 9309): crawl the public pages, not key management, usage or the MCP endpoint. */
import { type DiscoveryContext, operation, urlOf } from './discovery.context.js'

/** Operations whose paths crawlers have no use for: they need credentials or are JSON-RPC. */
const PRIVATE = ['listKeys', 'getUsage', 'postMcp', 'postMcpV1']

/**
 * Builds robots.txt. Paths carry the path of PUBLIC_BASE_URL (a deployment under
 * `https://example.org/bible` is crawled at `/bible/...`). The server card lives under the
 * disallowed `/mcp`, so it is allowed explicitly (the longest match wins, RFC 9309 2.2.2).
 * @example buildRobotsTxt(context).includes('Disallow: /api/v1/keys') // true
 */
export function buildRobotsTxt(context: DiscoveryContext): string {
  const prefix = new URL(context.settings.publicBaseUrl).pathname.replace(/\/+$/, '')
  return [
    `# ${context.serviceName}: ${context.document.info.summary ?? context.document.info.title}`,
    `# LLM-readable summary: ${urlOf(context, 'getLlmsTxt')}`,
    `# Full reference for LLMs: ${urlOf(context, 'getLlmsFullTxt')}`,
    'User-agent: *',
    `Allow: ${prefix}/`,
    `Allow: ${prefix}${operation(context, 'getMcpServerCard').path}`,
    ...PRIVATE.map((id) => `Disallow: ${prefix}${operation(context, id).path}`),
    '',
    `Sitemap: ${urlOf(context, 'getSitemap')}`,
    '',
  ].join('\n')
}
