/** The generators on their own: any tool list, a base URL with a path, external terms, limits. */
import { readFileSync } from 'node:fs'
import t from 'tap'
import { buildAiPluginManifest } from '../../src/discovery/ai-plugin.js'
import { buildApiCatalog } from '../../src/discovery/api-catalog.js'
import { createDiscoveryContext, type DiscoverySettings, type DiscoveryTool } from '../../src/discovery/discovery.context.js'
import { buildLlmsFullTxt } from '../../src/discovery/llms-full.js'
import { buildLlmsTxt } from '../../src/discovery/llms-txt.js'
import { firstSentence, listOperations, rebase, type OpenApiDocument } from '../../src/discovery/openapi-view.js'
import { buildRobotsTxt } from '../../src/discovery/robots.js'
import { buildServerCard } from '../../src/discovery/server-card.js'
import { buildSitemap, buildSitemapIndex } from '../../src/discovery/sitemap.js'
import { buildTermsHtml } from '../../src/discovery/terms.js'
import { projectPath } from '../../src/infra/paths.js'

const document = JSON.parse(readFileSync(projectPath('generated', 'openapi.json'), 'utf8')) as OpenApiDocument

const settings: DiscoverySettings = {
  publicBaseUrl: 'https://example.org/bible',
  attributionSource: 'Plainverse',
  attributionLicense: 'Licence <text> & more.',
  quotas: { free: 10, developer: 20, scale: 30 },
  contactEmail: 'api@example.org',
  legalUrl: 'https://legal.example.org/terms',
}

const tools: DiscoveryTool[] = [
  {
    name: 'echo_text',
    title: 'Echo',
    description: 'Says it back.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    annotations: { readOnlyHint: true },
  },
  { name: 'count_words', description: 'Counts words.', inputSchema: { type: 'object', properties: {} } },
]

const context = createDiscoveryContext({ settings, document, tools, version: '9.8.7', protocolVersion: '2025-11-25' })

t.test('the tool list is an input: the card, llms.txt and llms-full.txt describe exactly the tools given', async (t) => {
  const card = buildServerCard(context)
  t.same(card.tools, [
    { name: 'echo_text', title: 'Echo', description: 'Says it back.', inputSchema: tools[0]?.inputSchema, annotations: { readOnlyHint: true } },
    { name: 'count_words', description: 'Counts words.', inputSchema: { type: 'object', properties: {} } },
  ])
  t.equal(card.version, '9.8.7')
  t.same(card.remotes[0]?.supportedProtocolVersions, ['2025-11-25'])
  t.match(buildLlmsTxt(context), 'tools echo_text, count_words')
  const full = buildLlmsFullTxt(context)
  t.match(full, '### echo_text (Echo)\n\nSays it back. Read-only.')
  t.match(full, '### count_words\n\nCounts words.')
  t.notMatch(full, /^### get_verse/m, 'no tool that was not given')
})

t.test('a base URL with a path prefixes every URL and every robots rule', async (t) => {
  const robots = buildRobotsTxt(context)
  t.match(robots, 'Allow: /bible/\n')
  t.match(robots, 'Disallow: /bible/api/v1/keys\n')
  t.match(robots, 'Disallow: /bible/mcp\n')
  t.match(robots, 'Allow: /bible/mcp/server-card\n')
  t.match(robots, 'Sitemap: https://example.org/bible/sitemap.xml')
  t.equal(buildServerCard(context).remotes[0]?.url, 'https://example.org/bible/mcp')
  t.equal(buildServerCard(context).name, 'org.example/plainverse', 'the host reversed, a slash, the service')
  t.equal(buildAiPluginManifest(context).api.url, 'https://example.org/bible/api/v1/openapi.json')
})

t.test('terms held elsewhere (LEGAL_URL) are linked as well as the terms page', async (t) => {
  const llms = buildLlmsTxt(context)
  t.match(llms, '- [Usage terms](https://example.org/bible/terms): attribution and licence; free 10, developer 20 and scale 30 queries a month')
  t.match(llms, '- [Legal information](https://legal.example.org/terms)')
  t.equal(buildAiPluginManifest(context).legal_info_url, 'https://legal.example.org/terms')
  t.match(buildApiCatalog(context).linkset[0]?.['terms-of-service'], [{ href: 'https://legal.example.org/terms' }])
})

t.test('llms.txt links every operation that answers 2XX but the preflights and itself, once', async (t) => {
  const llms = buildLlmsTxt(context)
  for (const op of listOperations(document)) {
    if (op.method === 'OPTIONS' || op.operationId === 'getLlmsTxt') continue
    // Only a 405 (GET /mcp) or only a redirect (the dashboard's sign-in steps and form posts): nothing a client reads.
    if (!op.responses.some((r) => r.status.startsWith('2'))) {
      t.notOk(llms.includes(`[${op.method} ${op.path}]`), `${op.operationId} (no 2XX) is not listed`)
      continue
    }
    const byName = llms.includes(`[${op.method} ${op.path}]`)
    const byLink =
      llms.includes(`](https://example.org/bible${op.path})`) || llms.includes(`#${op.method.toLowerCase()}-${op.path.replace(/[\s#:?&={}]/g, '-')})`)
    t.ok(byName || byLink, `${op.operationId} is linked`)
  }
  const links = [...llms.matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((m) => m[1])
  t.equal(new Set(links).size, links.length, 'no link twice')
})

t.test('the terms page escapes configuration', async (t) => {
  const html = buildTermsHtml(context)
  t.match(html, 'Licence &lt;text&gt; &amp; more.')
  t.notMatch(html, '<text>')
})

t.test('the human description of the manifest fits in 120 characters', async (t) => {
  const long = createDiscoveryContext({
    settings,
    tools,
    version: '1',
    protocolVersion: 'x',
    document: { ...document, info: { ...document.info, summary: 'word '.repeat(60).trim() } },
  })
  const manifest = buildAiPluginManifest(long)
  t.ok(manifest.description_for_human.length <= 120, `${manifest.description_for_human.length} characters`)
  t.match(manifest.description_for_human, /word…$/)
  t.ok(manifest.description_for_model.length <= 8000)
})

t.test('the sitemap takes any list of pages, and the index any list of sitemaps', async (t) => {
  const xml = buildSitemap([{ loc: 'https://example.org/a?b=1&c=2', lastmod: '2026-11-24' }, { loc: 'https://example.org/john/3/16' }])
  t.match(xml, '<url><loc>https://example.org/a?b=1&amp;c=2</loc><lastmod>2026-11-24</lastmod></url>')
  t.match(xml, '<url><loc>https://example.org/john/3/16</loc></url>')
  t.match(buildSitemap([]), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>')
  t.throws(() => buildSitemap(Array.from({ length: 50_001 }, (_, i) => ({ loc: `https://example.org/${i}` }))), /at most 50000/)
  const index = buildSitemapIndex([{ loc: 'https://example.org/sitemaps/verses-1.xml', lastmod: '2026-11-24' }])
  t.match(index, '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
  t.match(index, '<sitemap><loc>https://example.org/sitemaps/verses-1.xml</loc><lastmod>2026-11-24</lastmod></sitemap>')
})

t.test('helpers', async (t) => {
  t.equal(firstSentence('Resolves here, e.g. `/problems/x`. More text.'), 'Resolves here, e.g. `/problems/x`.')
  t.equal(firstSentence('No period'), 'No period')
  t.same(rebase({ a: ['http://localhost:8080/john/3/16', 'http://localhost:80801/x', 'http://localhost:8080'] }, 'http://localhost:8080', 'https://b.org'), {
    a: ['https://b.org/john/3/16', 'http://localhost:80801/x', 'https://b.org'],
  })
})
