/**
 * The discovery files cannot drift from the server: every link, path and tool they name is
 * looked up in the contract and asked of the running app (with the credentials the contract
 * says the path needs), and every operation and error code is in llms-full.txt.
 */
import { readFileSync } from 'node:fs'
import t from 'tap'
import { ERROR_CATALOGUE } from '../../src/errors.js'
import { projectPath } from '../../src/infra/paths.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

const BASE = 'https://api.example.test'

type JsonObject = Record<string, unknown>
const contract = JSON.parse(readFileSync(projectPath('generated', 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, JsonObject>> }
const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** The contract's paths with a matcher for concrete paths. */
const templates = Object.entries(contract.paths).map(([template, item]) => ({
  template,
  item,
  pattern: new RegExp(`^${template.replace(/[.+*?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}))

function contractPath(path: string): (typeof templates)[number] | undefined {
  return templates.find((entry) => entry.template === path) ?? templates.find((entry) => entry.pattern.test(path))
}

/** Every string value of a JSON document. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings)
  return []
}

/** http(s) URLs in a text, without trailing punctuation. */
function urlsIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s"'<>)`\]]+/g)].map((m) => m[0].replace(/[.,;:]+$/, ''))
}

/** A Markdown document without its fenced JSON blocks (example payloads and schemas, not links). */
function withoutJsonBlocks(markdown: string): string {
  return markdown.replace(/```json\n[\s\S]*?\n```/g, '')
}

/** URIs that name a format rather than link to a resource: the API catalog's profile, the server card's $schema. */
const FORMAT_IDENTIFIERS = new Set(['https://www.rfc-editor.org/info/rfc9727', 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json'])

t.test('every path, link and tool the discovery files name exists and answers', async (t) => {
  // With metrics served, as the contract's /metrics describes (else it is 404 like any unknown path).
  const metricsToken = 'discovery-drift-metrics-token'
  const testApp = await buildTestApp(t, {
    env: { PUBLIC_BASE_URL: BASE, AUTH_JWT_SECRET: TEST_JWT_SECRET, METRICS_TOKEN: metricsToken, OPERATOR_CLAIM: 'app_metadata.role' },
  })
  const { app } = testApp
  const { key } = await createTestKey(testApp, { tier: 'scale' })
  // An operator's token, so that the operator operations the files name answer as well.
  const token = signToken('discovery-drift', { app_metadata: { role: 'operator' } })
  const get = async (url: string) => {
    const res = await call(t, app, { url })
    t.equal(res.statusCode, 200, url)
    return res.body
  }

  const llms = await get('/llms.txt')
  const full = await get('/llms-full.txt')
  const catalog = JSON.parse(await get('/.well-known/api-catalog')) as { linkset: Array<{ anchor: string } & JsonObject> }
  const card = JSON.parse(await get('/.well-known/mcp/server-card.json')) as { tools: Array<{ name: string }> } & JsonObject
  const plugin = JSON.parse(await get('/.well-known/ai-plugin.json')) as JsonObject
  const robots = await get('/robots.txt')
  const sitemap = await get('/sitemap.xml')

  // Every URL each file names, by file.
  const named: Record<string, string[]> = {
    'llms.txt': [...llms.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1] ?? '').concat(urlsIn(llms)),
    'llms-full.txt': urlsIn(withoutJsonBlocks(full)),
    'api-catalog': catalog.linkset.flatMap((entry) =>
      Object.entries(entry)
        .filter(([relation]) => relation !== 'anchor')
        .flatMap(([, targets]) => strings(targets).filter((s) => /^https?:/.test(s))),
    ),
    'server card': strings({ ...card, tools: [] }).filter((s) => /^https?:/.test(s)),
    'ai-plugin.json': strings(plugin).filter((s) => /^https?:/.test(s)),
    // Rules are path prefixes; `Allow: /` (everything) names no page of its own.
    'robots.txt': urlsIn(robots).concat([...robots.matchAll(/^(?:Allow|Disallow): (\/\S+)$/gm)].map((m) => `${BASE}${m[1] ?? ''}`)),
    'sitemap.xml': [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? ''),
  }
  t.ok(
    catalog.linkset.every((entry) => entry.anchor.startsWith(`${BASE}/`)),
    'catalog anchors are on this server',
  )

  t.test('each URL is on this server and names a path of the contract that answers', async (t) => {
    const checked = new Map<string, number>()
    for (const [file, urls] of Object.entries(named)) {
      t.ok(urls.length > 0, `${file} names URLs`)
      for (const url of new Set(urls)) {
        if (url === BASE || FORMAT_IDENTIFIERS.has(url)) continue
        t.ok(url.startsWith(`${BASE}/`), `${file}: ${url} is on PUBLIC_BASE_URL`)
        const target = url.slice(BASE.length).split('#')[0] ?? ''
        const path = target.split('?')[0] ?? ''
        const entry = contractPath(path)
        if (entry === undefined) {
          t.fail(`${file}: ${path} is not a path of the contract`)
          continue
        }
        // A template such as /api/v1/keys/{id} (a placeholder in a curl example) cannot be requested.
        if (path.includes('{')) continue
        const status = checked.get(target) ?? (await request(target, entry.item))
        checked.set(target, status)
        if (dashboardSignedOut(entry.item, status)) continue
        t.ok(status >= 200 && status < 300, `${file}: ${target} answers ${status}`)
      }
    }
    t.ok(checked.size >= 20, `requested ${checked.size} distinct URLs`)
  })

  /**
   * The dashboard's sign-in steps and forms need a browser session (test/dashboard covers them):
   * without one they answer a redirect to the dashboard, or for a form a 403 page, both documented.
   */
  function dashboardSignedOut(item: Record<string, JsonObject>, status: number): boolean {
    const operation = item.get ?? item.post
    const tags = Array.isArray(operation?.tags) ? operation.tags : []
    const documented = Object.keys((operation?.responses ?? {}) as JsonObject)
    return tags.includes('Dashboard') && (status === 303 || status === 403) && documented.includes(String(status))
  }

  /** Requests a path with GET when the contract has one, else the JSON-RPC call of the MCP endpoint; with the credentials its operation needs. */
  async function request(target: string, item: Record<string, JsonObject>): Promise<number> {
    // GET /mcp is in the contract only for its 405: the endpoint is called with POST.
    // A GET that only redirects (the dashboard's sign-in steps) is still requested with GET.
    const answersGet =
      Object.keys((item.get?.responses as JsonObject | undefined) ?? {}).some((status) => status.startsWith('2')) ||
      (item.get !== undefined && item.post === undefined)
    const operation = answersGet ? item.get : item.post
    const security = Array.isArray(operation?.security) ? (operation.security as JsonObject[]).flatMap((s) => Object.keys(s)) : []
    const headers: Record<string, string> = {}
    if (security.some((s) => s.startsWith('ApiKey'))) headers['x-api-key'] = key
    else if (security.includes('IdentityToken')) headers.authorization = `Bearer ${token}`
    else if (security.includes('MetricsToken')) headers.authorization = `Bearer ${metricsToken}`
    if (answersGet) return (await call(t, app, { url: target, headers })).statusCode
    if (item.post === undefined) {
      t.fail(`${target} has neither GET nor POST`)
      return 0
    }
    const res = await call(t, app, {
      method: 'POST',
      url: target,
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    })
    return res.statusCode
  }

  t.test('each path template in llms-full.txt is an operation of the contract', async (t) => {
    const headings = [...full.matchAll(/^#### ([A-Z]+) (\/\S*)$/gm)]
    t.ok(headings.length > 20)
    for (const [, method = '', path = ''] of headings) {
      t.ok(contract.paths[path]?.[method.toLowerCase()], `${method} ${path}`)
    }
    // Paths named in code spans (`/api/v1/verse/{slug}`, `POST /api/v1/keys`) exist too.
    const spans = [...withoutJsonBlocks(full).matchAll(/`(?:[A-Z]+ )?(\/(?:api\/v1|mcp|\.well-known)[^`\s?]*)`/g)].map((m) => m[1] ?? '')
    t.ok(spans.length > 5)
    for (const path of new Set(spans)) t.ok(contractPath(path), `\`${path}\` is a contract path`)
  })

  t.test('every operation of the contract and every error code is in llms-full.txt', async (t) => {
    for (const [path, item] of Object.entries(contract.paths)) {
      for (const method of METHODS.filter((m) => item[m] !== undefined)) {
        t.ok(full.includes(`\n#### ${method.toUpperCase()} ${path}\n`), `${method.toUpperCase()} ${path}`)
      }
    }
    for (const code of Object.keys(ERROR_CATALOGUE)) t.ok(full.includes(`\`${code}\``), code)
  })

  t.test('every tool named is served by the MCP endpoint', async (t) => {
    const res = await call(t, app, {
      method: 'POST',
      url: '/mcp',
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    })
    t.equal(res.statusCode, 200)
    const served = new Set(res.json<{ result: { tools: Array<{ name: string }> } }>().result.tools.map((tool) => tool.name))
    t.ok(served.size > 0, 'the endpoint lists tools')
    const inCard = card.tools.map((tool) => tool.name)
    const inFull = [...(full.split('\n## MCP tools\n')[1]?.matchAll(/^### (\S+)/gm) ?? [])].map((m) => m[1] ?? '')
    const inLlms =
      llms
        .split('\n')
        .find((line) => line.startsWith('- [POST /mcp]'))
        ?.split('; tools ')[1]
        ?.split(', ') ?? []
    for (const [file, names] of [
      ['server card', inCard],
      ['llms-full.txt', inFull],
      ['llms.txt', inLlms],
    ] as const) {
      t.same([...names].sort(), [...served].sort(), `${file} names exactly the served tools`)
    }
  })
})
