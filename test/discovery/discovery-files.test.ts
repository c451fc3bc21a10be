/** The discovery files as served: status, media type, contract, caching, and what each must say. */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import t from 'tap'
import { validateXML } from 'xmllint-wasm'
import type { AiPluginManifest } from '../../src/discovery/ai-plugin.js'
import type { Linkset } from '../../src/discovery/api-catalog.js'
import type { McpServerCard } from '../../src/discovery/server-card.js'
import { ERROR_CATALOGUE } from '../../src/errors.js'
import { projectPath } from '../../src/infra/paths.js'
import { MCP_TOOLS } from '../../src/mcp/mcp.tools.js'
import { buildTestApp } from '../helpers/app.js'
import { call } from '../helpers/http.js'

const BASE = 'https://api.example.test'

/** Every file with the media type the contract gives it. */
const FILES: ReadonlyArray<readonly [string, string]> = [
  ['/llms.txt', 'text/plain'],
  ['/llms-full.txt', 'text/plain'],
  ['/.well-known/api-catalog', 'application/linkset+json'],
  ['/.well-known/mcp/server-card.json', 'application/json'],
  ['/mcp/server-card', 'application/json'],
  ['/.well-known/ai-plugin.json', 'application/json'],
  ['/robots.txt', 'text/plain'],
  ['/sitemap.xml', 'application/xml'],
  ['/terms', 'text/html'],
  ['/logo.svg', 'image/svg+xml'],
]

/**
 * Validates a document against a published format's schema, written into test/fixtures/schemas
 * from the format's own text (each file's $comment cites it).
 */
function publishedFormatViolations(schemaFile: string, document: unknown): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ;(addFormats as unknown as (a: Ajv2020) => void)(ajv)
  const validate = ajv.compile(JSON.parse(readFileSync(projectPath('test', 'fixtures', 'schemas', schemaFile), 'utf8')) as object)
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`)
}

/**
 * Validates a sitemap or sitemap index against the Sitemaps 0.9 XML Schema in test/fixtures/schemas
 * (written from the protocol's text), with libxml2's validator (xmllint, as WebAssembly).
 */
async function sitemapViolations(schemaFile: string, xml: string): Promise<string[]> {
  const schema = readFileSync(projectPath('test', 'fixtures', 'schemas', schemaFile), 'utf8')
  const result = await validateXML({ xml: [{ fileName: 'sitemap.xml', contents: xml }], schema: [{ fileName: schemaFile, contents: schema }] })
  return result.valid ? [] : result.errors.map((error) => error.message)
}

/** http(s) URLs in a text, without trailing punctuation. */
function urlsIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s"'<>)`\]]+/g)].map((m) => m[0].replace(/[.,;:]+$/, ''))
}

t.test('discovery files', async (t) => {
  const { app } = await buildTestApp(t, {
    env: {
      PUBLIC_BASE_URL: `${BASE}/`,
      QUOTA_FREE: '123',
      QUOTA_DEVELOPER: '4567',
      QUOTA_SCALE: '890000',
      CONTACT_EMAIL: 'sales@example.test',
      ATTRIBUTION_SOURCE: 'Example Bible Co',
    },
  })
  const get = async (url: string, headers: Record<string, string> = {}) => call(t, app, { url, headers })

  t.test('each is served with its media type, an ETag, a public cache lifetime and CORS', async (t) => {
    for (const [path, type] of FILES) {
      const res = await get(path)
      t.equal(res.statusCode, 200, path)
      t.equal(String(res.headers['content-type']).split(';')[0], type, `${path} media type`)
      t.match(res.headers.etag, /^"[^"]+"$/, `${path} has a strong ETag`)
      t.equal(res.headers['cache-control'], 'public, max-age=3600', `${path} cache-control`)
      t.equal(res.headers['access-control-allow-origin'], '*', `${path} may be read from any origin`)
      t.ok(res.body.length > 0, `${path} has a body`)
      const crossOrigin = await get(path, { origin: 'https://elsewhere.example' })
      t.equal(crossOrigin.statusCode, 200, `${path} from a browser on another origin`)
      t.equal(crossOrigin.headers['access-control-allow-origin'], '*')
    }
  })

  t.test('If-None-Match gives an empty 304, and a stale tag the file', async (t) => {
    for (const [path] of FILES) {
      const first = await get(path)
      const etag = String(first.headers.etag)
      const again = await get(path, { 'if-none-match': etag })
      t.equal(again.statusCode, 304, `${path} 304`)
      t.equal(again.body, '', `${path} 304 has no body`)
      t.equal(again.headers.etag, etag)
      t.equal((await get(path, { 'if-none-match': `W/${etag}, "other"` })).statusCode, 304, `${path} weak comparison in a list`)
      t.equal((await get(path, { 'if-none-match': '"stale"' })).statusCode, 200, `${path} stale tag`)
    }
    t.equal((await get('/.well-known/mcp/server-card.json')).headers.etag, (await get('/mcp/server-card')).headers.etag, 'both card paths serve one document')
  })

  t.test('the API catalog answers HEAD and GET with its Link header', async (t) => {
    const link = `<${BASE}/.well-known/api-catalog>; rel="api-catalog"`
    const head = await call(t, app, { method: 'HEAD', url: '/.well-known/api-catalog' })
    t.equal(head.statusCode, 200)
    t.equal(head.headers.link, link)
    t.equal(head.body, '')
    t.match(head.headers['content-type'], /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"(;|$)/, 'the RFC 9727 profile')
    const res = await get('/.well-known/api-catalog')
    t.equal(res.headers['content-type'], head.headers['content-type'])
    t.equal(res.headers.link, link)
    t.equal(head.headers.etag, res.headers.etag)
    const catalog = res.json<Linkset>()
    t.same(publishedFormatViolations('api-catalog.schema.json', catalog), [], 'RFC 9727 / RFC 9264 linkset')
    const api = catalog.linkset.find((entry) => entry.anchor === `${BASE}/api/v1`)
    t.same(api?.['service-desc'], [
      { href: `${BASE}/api/v1/openapi.json`, type: 'application/json', title: 'OpenAPI 3.1 document (JSON)' },
      { href: `${BASE}/api/v1/openapi.yaml`, type: 'application/yaml', title: 'OpenAPI 3.1 document (YAML)' },
    ])
    // Every target's type is the one it is served with.
    for (const entry of catalog.linkset) {
      for (const [relation, targets] of Object.entries(entry)) {
        if (relation === 'anchor' || typeof targets === 'string') continue
        for (const target of targets) {
          if (target.type === undefined || !target.href.startsWith(BASE)) continue
          const served = await get(target.href.slice(BASE.length))
          t.equal(String(served.headers['content-type']).split(';')[0], target.type, `${relation} ${target.href} is served as ${target.type}`)
        }
      }
    }
    t.match(api?.['service-doc'], [{ href: `${BASE}/docs`, type: 'text/html' }, { href: `${BASE}/llms-full.txt` }, { href: `${BASE}/llms.txt` }])
    t.match(api?.status, [{ href: `${BASE}/readyz` }])
    t.match(api?.['terms-of-service'], [{ href: `${BASE}/terms` }])
    const mcp = catalog.linkset.find((entry) => entry.anchor === `${BASE}/mcp`)
    t.match(mcp?.['service-desc'], [{ href: `${BASE}/.well-known/mcp/server-card.json`, type: 'application/json' }])
  })

  t.test('llms.txt: H1, blockquote, H2 sections of links, an Optional section', async (t) => {
    const res = await get('/llms.txt')
    t.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    const lines = res.body.split('\n')
    t.equal(lines[0], '# Plainverse', 'the first line is the H1')
    const firstContent = lines.slice(1).find((l) => l.trim() !== '')
    t.match(firstContent, /^> \S/, 'a blockquote summary follows the H1')
    t.equal(lines.filter((l) => l.startsWith('# ')).length, 1, 'one H1')
    const sections = lines.filter((l) => l.startsWith('## ')).map((l) => l.slice(3))
    t.same(sections, ['Docs', 'API', 'MCP', 'Terms', 'Optional'])
    t.equal(sections.at(-1), 'Optional', 'Optional comes last')
    // Inside each section, every non-blank line is a list item `- [name](url)` or `- [name](url): notes`.
    const body = res.body.slice(res.body.indexOf('\n## '))
    for (const line of body.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('## '))) {
      t.match(line, /^- \[[^\]]+\]\(https?:\/\/[^)\s]+\)(: .+)?$/, line.slice(0, 60))
    }
    const section = (name: string): string => res.body.split(`## ${name}\n`)[1]?.split('\n## ')[0] ?? ''
    t.match(section('Docs'), `](${BASE}/docs)`)
    t.match(section('Docs'), `](${BASE}/llms-full.txt)`)
    t.match(section('Docs'), `](${BASE}/api/v1/openapi.json)`)
    t.match(section('Docs'), `](${BASE}/api/v1/openapi.yaml)`)
    t.match(section('API'), `[GET /api/v1/verse/{slug}](${BASE}/api/v1/verse/john-3-16): Look up one verse (API key)`)
    t.match(section('MCP'), `[POST /mcp](${BASE}/mcp)`)
    t.match(section('MCP'), `](${BASE}/.well-known/mcp/server-card.json)`)
    t.match(section('MCP'), MCP_TOOLS.map((tool) => tool.name).join(', '))
    t.match(section('Terms'), `[Usage terms](${BASE}/terms)`)
    t.match(section('Terms'), 'free 123, developer 4,567 and scale 890,000 queries a month', 'quotas from configuration')
    t.match(section('Optional'), `](${BASE}/.well-known/api-catalog)`)
    t.match(section('Optional'), `](${BASE}/healthz)`)
  })

  t.test('llms-full.txt: every operation, every error code, every tool', async (t) => {
    const res = await get('/llms-full.txt')
    const text = res.body
    t.match(text, /^# Plainverse API reference\n/)
    for (const code of Object.keys(ERROR_CATALOGUE)) t.match(text, `| \`${code}\` |`, `error code ${code} in the table`)
    for (const tool of MCP_TOOLS) {
      t.match(text, `### ${tool.name} (${tool.title})`, `tool ${tool.name}`)
      t.ok(text.includes(JSON.stringify(tool.inputSchema, null, 2)), `${tool.name} input schema`)
    }
    t.match(text, `curl -s "${BASE}/api/v1/verse/john-3-16" \\\n  -H "X-API-Key: pv_..."`, 'an example request with an absolute URL and the key header')
    t.match(text, '| `style` | query | string | no | one of `faithful`, `casual`, `all`; default `faithful` |', 'parameters with allowed values and defaults')
    t.match(text, 'Codes: `verse_not_found`', 'responses name their error codes')
    t.match(text, `"url": "${BASE}/john/3/16"`, 'response examples name this server')
    t.match(text, 'free 123, developer 4,567 and scale 890,000 queries a month')
    t.match(text, '### CORS')
    t.notMatch(text, /#### OPTIONS /, 'preflights are not listed')
    t.notMatch(text, /localhost/, "nothing names the contract's default server")
  })

  t.test('the server card lists the tools the MCP endpoint serves', async (t) => {
    const card = (await get('/.well-known/mcp/server-card.json')).json<McpServerCard>()
    t.same(publishedFormatViolations('mcp-server-card.schema.json', card), [], 'the server card draft (SEP-2127)')
    t.equal(card.$schema, 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json')
    t.equal(card.name, 'test.example.api/plainverse', 'reverse DNS of the public host, then the service')
    t.equal(card.version, '1.0.0')
    t.ok(card.description.length <= 100)
    t.match(card.remotes, [
      {
        type: 'streamable-http',
        url: `${BASE}/mcp`,
        headers: [{ name: 'X-API-Key', isSecret: true }],
        authentication: { required: true, schemes: ['bearer'] },
      },
    ])
    for (const version of card.remotes[0]?.supportedProtocolVersions ?? []) t.match(version, /^\d{4}-\d{2}-\d{2}$/)
    t.same(card.capabilities, { tools: { listChanged: false } })
    t.same(
      card.tools.map((tool) => tool.name),
      MCP_TOOLS.map((tool) => tool.name),
    )
    for (const tool of MCP_TOOLS) {
      const listed = card.tools.find((c) => c.name === tool.name)
      t.same(
        listed,
        {
          name: tool.name,
          title: tool.title,
          description: tool.description,
          inputSchema: tool.inputSchema,
          outputSchema: tool.outputSchema,
          annotations: tool.annotations,
        },
        `${tool.name} as defined`,
      )
    }
  })

  t.test('the server card is application/mcp-server-card+json when asked for', async (t) => {
    for (const path of ['/.well-known/mcp/server-card.json', '/mcp/server-card']) {
      const plain = await get(path)
      const asked = await get(path, { accept: 'application/mcp-server-card+json, application/json;q=0.5' })
      t.equal(String(asked.headers['content-type']).split(';')[0], 'application/mcp-server-card+json', path)
      t.equal(asked.body, plain.body, 'the same document')
      t.not(asked.headers.etag, plain.headers.etag, 'a tag of its own per media type')
      t.equal(asked.headers.vary, 'Accept')
      t.equal(String(plain.headers['content-type']).split(';')[0], 'application/json')
      const refused = await get(path, { accept: 'application/mcp-server-card+json;q=0, application/json' })
      t.equal(String(refused.headers['content-type']).split(';')[0], 'application/json', 'q=0 refuses the type')
      t.equal((await get(path, { accept: 'application/mcp-server-card+json', 'if-none-match': String(asked.headers.etag) })).statusCode, 304)
    }
  })

  t.test('the AI plugin manifest', async (t) => {
    const manifest = (await get('/.well-known/ai-plugin.json')).json<AiPluginManifest>()
    t.same(publishedFormatViolations('ai-plugin.schema.json', manifest), [], 'the published manifest format')
    t.equal(manifest.schema_version, 'v1')
    t.equal(manifest.name_for_model, 'plainverse')
    t.ok(manifest.description_for_human.length <= 100)
    t.match(manifest.description_for_model, 'GET /api/v1/verse/{slug}')
    t.match(manifest.description_for_model, 'free 123, developer 4,567 and scale 890,000')
    t.match(manifest.auth, { type: 'user_http', authorization_type: 'bearer', instructions: /API key/ })
    t.same(manifest.api, { type: 'openapi', url: `${BASE}/api/v1/openapi.json` })
    t.equal(manifest.logo_url, `${BASE}/logo.svg`)
    t.equal(manifest.contact_email, 'sales@example.test')
    t.equal(manifest.legal_info_url, `${BASE}/terms`)
  })

  t.test('robots.txt', async (t) => {
    const lines = (await get('/robots.txt')).body.split('\n')
    t.ok(lines.includes('User-agent: *'))
    t.ok(lines.includes('Allow: /'))
    for (const path of ['/api/v1/keys', '/api/v1/usage', '/mcp', '/api/v1/mcp']) t.ok(lines.includes(`Disallow: ${path}`), `disallows ${path}`)
    t.ok(lines.includes('Allow: /mcp/server-card'), 'the card under /mcp stays crawlable')
    t.ok(lines.includes(`Sitemap: ${BASE}/sitemap.xml`))
    t.ok(lines.includes(`# LLM-readable summary: ${BASE}/llms.txt`))
  })

  t.test("the sitemap is an index of the pages' sitemaps (test/web/pages.test.ts checks what they cover)", async (t) => {
    const body = (await get('/sitemap.xml')).body
    t.match(body, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/)
    t.same(
      [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]),
      ['pages', 'books', 'chapters', 'verses-1', 'narratives'].map((name) => `${BASE}/sitemaps/${name}.xml`),
    )
    const pages = (await get('/sitemaps/pages.xml')).body
    for (const path of ['/docs', '/terms', '/llms.txt', '/llms-full.txt']) t.match(pages, `<loc>${BASE}${path}</loc>`)
  })

  t.test('the sitemap index and every sitemap validate against the Sitemaps 0.9 schemas (xmllint)', async (t) => {
    const index = (await get('/sitemap.xml')).body
    t.same(await sitemapViolations('siteindex.xsd', index), [], '/sitemap.xml')
    for (const [, url] of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
      const path = new URL(url ?? '').pathname
      t.same(await sitemapViolations('sitemap.xsd', (await get(path)).body), [], path)
    }
    // What the check catches: an entry without <loc>, a priority out of range.
    const broken =
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><priority>2</priority></url></urlset>'
    t.not((await sitemapViolations('sitemap.xsd', broken)).length, 0, 'a sitemap that breaks the format fails')
  })

  t.test('the terms page is written from configuration', async (t) => {
    const html = (await get('/terms')).body
    t.match(html, /^<!doctype html>/)
    t.match(html, 'the source (<q>Example Bible Co</q>)', 'ATTRIBUTION_SOURCE')
    t.match(html, 'KJV text is in the public domain.')
    t.match(html, '<tr><td>free</td><td>123</td></tr><tr><td>developer</td><td>4,567</td></tr><tr><td>scale</td><td>890,000</td></tr>')
    t.match(html, 'Bulk data and enterprise use are licensed separately through sales contact: <a href="mailto:sales@example.test">sales@example.test</a>')
  })

  t.test('the logo is an SVG image', async (t) => {
    const svg = (await get('/logo.svg')).body
    t.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 64 64"/)
    t.match(svg, '<title id="title">Plainverse</title>')
    t.match(svg, /<\/svg>\n$/)
  })

  t.test('every URL in every file is absolute on PUBLIC_BASE_URL', async (t) => {
    // Namespace names are identifiers, not links.
    const namespaces = new Set([
      'http://www.sitemaps.org/schemas/sitemap/0.9',
      'http://www.w3.org/2000/svg',
      // The server card's $schema names its format.
      'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    ])
    for (const [path] of FILES) {
      const body = (await get(path)).body
      t.notMatch(body, /localhost|127\.0\.0\.1/, `${path} names no local server`)
      const urls = urlsIn(body).filter((u) => !namespaces.has(u))
      for (const url of urls) t.ok(url === BASE || url.startsWith(`${BASE}/`), `${path}: ${url}`)
      // Markdown links and hrefs are never relative.
      for (const m of body.matchAll(/\]\(([^)]+)\)|href="([^"]+)"/g)) {
        const target = m[1] ?? m[2] ?? ''
        t.ok(target.startsWith(`${BASE}/`) || target.startsWith('mailto:'), `${path} links ${target}`)
      }
    }
  })
})

t.test('defaults: contact and legal URL follow PUBLIC_BASE_URL', async (t) => {
  const { app } = await buildTestApp(t)
  const manifest = (await call(t, app, { url: '/.well-known/ai-plugin.json' })).json<AiPluginManifest>()
  t.equal(manifest.contact_email, 'api@localhost')
  t.equal(manifest.legal_info_url, 'http://localhost:8080/terms')
  t.equal(manifest.api.url, 'http://localhost:8080/api/v1/openapi.json')
  // The published formats hold with the defaults too, not only with a configured public URL.
  t.same(publishedFormatViolations('ai-plugin.schema.json', manifest), [], 'the manifest, with the defaults')
  const catalog = (await call(t, app, { url: '/.well-known/api-catalog' })).json()
  t.same(publishedFormatViolations('api-catalog.schema.json', catalog), [], 'the API catalog, with the defaults')
  const card = (await call(t, app, { url: '/.well-known/mcp/server-card.json' })).json()
  t.same(publishedFormatViolations('mcp-server-card.schema.json', card), [], 'the server card, with the defaults')
})

t.test('the OpenAPI document as served validates against the OpenAPI 3.1 schema (Spectral oas3-schema)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pv-served-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // Only the schema rule: the committed ruleset's overrides name openapi.yaml, and its other rules run there (test/contract).
  const ruleset = join(dir, 'schema.yaml')
  writeFileSync(ruleset, 'extends: [[spectral:oas, off]]\nrules:\n  oas3-schema: error\n')
  const configured = await buildTestApp(t, { env: { PUBLIC_BASE_URL: `${BASE}/`, CONTACT_EMAIL: 'sales@example.test' } })
  const defaults = await buildTestApp(t)
  const documents: Record<string, { info: { contact: Record<string, string> } }> = {
    configured: (await call(t, configured.app, { url: '/api/v1/openapi.json' })).json(),
    defaults: (await call(t, defaults.app, { url: '/api/v1/openapi.json' })).json(),
  }
  t.same(documents.configured?.info.contact, { name: documents.configured?.info.contact.name, email: 'sales@example.test', url: `${BASE}/terms` })
  t.notOk('email' in (documents.defaults?.info.contact ?? {}), 'no contact address at a single-label host (api@localhost)')
  t.equal(documents.defaults?.info.contact.url, 'http://localhost:8080/terms', 'the terms URL stays')
  // What the check catches: the default contact address as it was served before.
  const before = structuredClone(documents.defaults) as { info: { contact: Record<string, string> } }
  before.info.contact.email = 'api@localhost'
  const lint = async (name: string, document: unknown): Promise<{ failed: boolean; output: string }> => {
    const file = join(dir, `${name}.json`)
    writeFileSync(file, JSON.stringify(document))
    const args = ['lint', file, '--ruleset', ruleset, '--format', 'text', '--fail-severity', 'error']
    const result = await promisify(execFile)(projectPath('node_modules', '.bin', 'spectral'), args).catch((error: { stdout?: string; code?: number }) => error)
    return { failed: 'code' in result && result.code !== 0, output: 'stdout' in result ? String(result.stdout) : '' }
  }
  for (const [name, document] of Object.entries(documents)) {
    const result = await lint(name, document)
    t.notOk(result.failed, `${name}: no schema error`, { output: result.output })
  }
  const broken = await lint('before', before)
  t.ok(broken.failed, 'a contact address the schema refuses fails the check')
  t.match(broken.output, /oas3-schema/)
})
