/** `/`: what the service is, a live example verse, the tiers as configured, and where to go next. */
import type { VerseResource } from '../../verses/verses.service.js'
import { html, type SafeHtml } from '../html.js'
import type { PageMeta } from '../layout.js'
import { tiersTable, type TierLimits } from '../tiers-table.js'

/** The home page's metadata and body. */
export function homePage(example: VerseResource, tiers: TierLimits, name: string, baseUrl: string): { meta: PageMeta; body: SafeHtml } {
  const examplePath = new URL(example.attribution.url).pathname
  const body = html`<h1>${name}: the King James Version, verse by verse, in plain modern English</h1>
    <p>
      ${name} serves all 31,102 verses of the KJV with faithful and casual modern-English texts, notes on each verse, and the 548 narratives of the Gospels, as
      a JSON API for apps, an MCP endpoint for AI assistants, and these pages for readers.
    </p>
    <h2>An example verse</h2>
    <blockquote class="kjv"><p>${example.kjv_text}</p></blockquote>
    ${example.faithful?.simplified_text === null || example.faithful === undefined ? '' : html`<p>${example.faithful.simplified_text}</p>`}
    <p>
      <a href="${examplePath}">Read ${example.reference} with its notes</a> · <a href="/${examplePath.split('/')[1] ?? ''}">The book</a> ·
      <a href="/narratives">The Gospel narratives</a>
    </p>
    <h2>For developers</h2>
    <p>
      Every verse is one request away: <code>GET ${baseUrl}/api/v1/verse/${example.slug}</code> with an API key. Keys have a monthly quota and a per-second
      limit by tier:
    </p>
    ${tiersTable(tiers)}
    <ul>
      <li><a href="/dashboard">Dashboard</a>: sign in, create an API key and see its usage</li>
      <li><a href="/docs">API reference</a> (OpenAPI 3.1: <a href="/api/v1/openapi.json">openapi.json</a>)</li>
      <li>MCP endpoint for AI assistants: <code>${baseUrl}/mcp</code> (<a href="/.well-known/mcp/server-card.json">server card</a>)</li>
      <li><a href="/llms.txt">llms.txt</a> and <a href="/llms-full.txt">llms-full.txt</a> for language models</li>
      <li><a href="/terms">Usage terms</a></li>
    </ul>`
  return {
    meta: {
      title: name,
      description: `The King James Version, all 31,102 verses, with faithful and casual modern-English texts and notes: a JSON API, an MCP endpoint and public pages.`,
      path: '/',
      structuredData: {
        '@context': 'https://schema.org',
        '@type': 'WebSite',
        name,
        url: `${baseUrl}/`,
        potentialAction: { '@type': 'SearchAction', target: `${baseUrl}/search?q={query}`, 'query-input': 'required name=query' },
      },
    },
    body,
  }
}
