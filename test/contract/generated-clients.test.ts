/**
 * Clients generated from the contract by three third-party generators (openapi-typescript with
 * openapi-fetch, @hey-api/openapi-ts, orval) compile with `strict`, and one conformance suite
 * runs through each against a live server: successes and documented errors, each answer checked
 * on the wire against the contract (status, declared headers, body) by test/helpers/contract.ts.
 *
 * orval 7.10 (the last release that runs on Node 20) parses every body as JSON, so its suite
 * calls the JSON operations only.
 */
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { projectPath } from '../../src/infra/paths.js'
import { contractViolations } from '../helpers/contract.js'
import { removeDataDir, startServer } from '../helpers/server.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

const run = promisify(execFile)
const bin = (name: string): string => projectPath('node_modules', '.bin', name)

// Inside the project, so that the generated code resolves openapi-fetch from its node_modules.
mkdirSync(projectPath('var'), { recursive: true })
const dir = mkdtempSync(projectPath('var', 'clients-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
copyFileSync(projectPath('generated', 'openapi.json'), join(dir, 'openapi.json'))

/** Code that uses each client's types the way a caller would: it must compile. */
const USAGE: Record<string, string> = {
  'ot/use.ts': `import createClient from 'openapi-fetch'
import type { paths } from './api.js'
const client = createClient<paths>({ baseUrl: 'http://localhost:8080' })
export const verse = client.GET('/api/v1/verse/{slug}', { params: { path: { slug: 'john-3-16' }, query: { style: 'all' } } })
export const search = client.GET('/api/v1/search', { params: { query: { q: 'shepherd', limit: 5 } } })
export const created = client.POST('/api/v1/keys', { body: { name: 'x', allowed_domains: ['example.org'] } })
`,
  'hey/use.ts': `import { getVerse, searchVerses, createKey, getApiCatalog, getWellKnownMcpServerCard } from './index.js'
export const verse = getVerse({ path: { slug: 'john-3-16' }, query: { style: 'all' }, auth: 'pv_x' })
export const search = searchVerses({ query: { q: 'shepherd', limit: 5 } })
export const created = createKey({ body: { name: 'x' } })
export const linkset = getApiCatalog().then((r) => r.data?.linkset[0]?.anchor)
export const tools = getWellKnownMcpServerCard().then((r) => r.data?.tools.map((tool) => tool.inputSchema['properties']))
`,
  'orval/use.ts': `import { getVerse, searchVerses, getApiCatalog } from './plainverse.js'
export const verse = getVerse('john-3-16', { style: 'all' })
export const search = searchVerses({ q: 'shepherd', limit: 5 })
export const linkset = getApiCatalog().then((r) => (r.status === 200 ? r.data.linkset[0]?.anchor : undefined))
`,
}

t.test('three generators produce clients that compile with strict', async (t) => {
  await run(bin('openapi-typescript'), ['openapi.json', '-o', 'ot/api.ts'], { cwd: dir })
  await run(bin('openapi-ts'), ['-i', 'openapi.json', '-o', 'hey', '-c', '@hey-api/client-fetch'], { cwd: dir })
  writeFileSync(
    join(dir, 'orval.config.cjs'),
    "module.exports = { plainverse: { input: './openapi.json', output: { target: './orval/plainverse.ts', client: 'fetch', mode: 'single' } } }\n",
  )
  await run(bin('orval'), ['--config', 'orval.config.cjs'], { cwd: dir })
  for (const [file, code] of Object.entries(USAGE)) writeFileSync(join(dir, file), code)
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: [],
        skipLibCheck: true,
      },
      include: ['ot/**/*.ts', 'hey/**/*.ts', 'orval/**/*.ts'],
    }),
  )
  const compiled = await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: dir }).catch((error: { stdout?: string; code?: number }) => error)
  t.notOk('code' in compiled && compiled.code !== 0, 'tsc --strict accepts all three', { output: 'stdout' in compiled ? compiled.stdout : '' })
})

/** One client's calls, each returning the HTTP status it got. */
interface Calls {
  createKey(token: string, name: string): Promise<{ status: number; key?: string }>
  getVerse(slug: string, key: string | undefined, options?: { etag?: string; style?: string }): Promise<{ status: number; etag?: string; slug?: string }>
  search(key: string, q: string, limit: number): Promise<{ status: number; count?: number }>
  getBook(book: string): Promise<number>
  listKeys(token: string): Promise<{ status: number; count?: number }>
  revokeKey(token: string, id: string): Promise<number>
  accountUsage(token: string): Promise<{ status: number; account?: boolean }>
  apiCatalog(): Promise<{ status: number; anchor?: string }>
  text?(): Promise<{ status: number; body?: string }>
  /** Any GET operation with a JSON answer, by operationId. */
  get(operationId: string, path: Record<string, string>, query: Record<string, unknown> | undefined, key?: string): Promise<number>
}

/** The contract's operations: path template, and whether they take query parameters. */
const OPERATIONS = ((): Map<string, { template: string; hasQuery: boolean }> => {
  const contract = JSON.parse(readFileSync(projectPath('generated', 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string; parameters?: Array<{ in?: string; $ref?: string }> }>>
  }
  const found = new Map<string, { template: string; hasQuery: boolean }>()
  for (const [template, item] of Object.entries(contract.paths)) {
    for (const operation of Object.values(item)) {
      if (operation.operationId === undefined) continue
      // Query parameters are written inline in this contract (the shared ones are path and header parameters, or `style`).
      const hasQuery = (operation.parameters ?? []).some((p) => p.in === 'query' || p.$ref === '#/components/parameters/Style')
      found.set(operation.operationId, { template, hasQuery })
    }
  }
  return found
})()

/** Every other GET operation with a JSON answer: the arguments and the status it must give. */
const JSON_GETS: ReadonlyArray<{ id: string; path?: Record<string, string>; query?: Record<string, unknown>; keyed?: boolean; status: number }> = [
  { id: 'listBooks', status: 200 },
  { id: 'listNarratives', query: { gospel: 'mark', limit: 2 }, keyed: true, status: 200 },
  { id: 'listNarratives', query: { limit: 0 }, keyed: true, status: 400 },
  { id: 'getNarrative', path: { slug: 'john-jesus-feeds-five-thousand' }, keyed: true, status: 200 },
  { id: 'getNarrative', path: { slug: 'john-no-such-narrative' }, keyed: true, status: 404 },
  { id: 'resolveReference', query: { q: 'see John 3:16 and Ps 23' }, keyed: true, status: 200 },
  { id: 'getPassage', path: { ref: 'psalms-23' }, keyed: true, status: 200 },
  { id: 'getPassage', path: { ref: 'nothing-here-9-9' }, keyed: true, status: 404 },
  { id: 'getOpenApiJson', status: 200 },
  { id: 'getWellKnownMcpServerCard', status: 200 },
  { id: 'getMcpServerCard', status: 200 },
  { id: 'getAiPluginManifest', status: 200 },
  { id: 'getHealth', status: 200 },
  { id: 'getReadiness', status: 200 },
]

t.test('the conformance suite through each client', async (t) => {
  const server = await startServer({ AUTH_JWT_SECRET: TEST_JWT_SECRET, MAX_KEYS_PER_ACCOUNT: '1', QUOTA_FREE: '3' })
  t.teardown(async () => {
    await server.stop('SIGTERM')
    removeDataDir(server.dataDir)
  })
  // Every request the clients send goes through here: relative URLs (orval) resolve against the
  // server, and every answer is checked against the contract on the wire.
  const realFetch = globalThis.fetch
  const seen: number[] = []
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(typeof input === 'string' && input.startsWith('/') ? `${server.baseUrl}${input}` : input, init)
    const url = new URL(request.url.replace('http://localhost:8080', server.baseUrl))
    const response = await realFetch(new Request(url, request))
    const body = await response.clone().text()
    const violations = contractViolations({
      method: request.method,
      url: url.pathname + url.search,
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body,
    })
    if (violations.length > 0) t.fail(`contract: ${violations.join('; ')}`)
    seen.push(response.status)
    return response
  }
  t.teardown(() => {
    globalThis.fetch = realFetch
  })

  const suites: Record<string, () => Promise<Calls>> = {
    'openapi-typescript + openapi-fetch': async () => {
      // The generated types only check the calls at compile time (ot/use.ts above); at run time the client is openapi-fetch.
      const { default: createClient } = await import('openapi-fetch')
      return fetchCalls(createClient({ baseUrl: server.baseUrl }) as unknown as FetchClient)
    },
    '@hey-api/openapi-ts': async () => {
      const sdk = (await import(join(dir, 'hey', 'index.ts'))) as HeySdk
      const { client } = (await import(join(dir, 'hey', 'client.gen.ts'))) as { client: HeyClient }
      return heyCalls(sdk, client, server.baseUrl)
    },
    orval: async () => orvalCalls((await import(join(dir, 'orval', 'plainverse.ts'))) as OrvalSdk),
  }
  let account = 0
  for (const [name, make] of Object.entries(suites)) {
    await t.test(name, async (t) => {
      const before = seen.length
      t.teardown(() => {
        t.comment(`${name}: ${seen.length - before} answers checked against the contract`)
      })
      const calls = await make()
      const token = signToken(`conformance-${++account}`)
      const created = await calls.createKey(token, 'conformance')
      t.equal(created.status, 201, 'createKey 201')
      const key = created.key ?? ''
      t.equal((await calls.createKey(token, 'second')).status, 409, 'createKey 409 over the account limit')
      t.equal((await calls.createKey(token, 'x'.repeat(70_000))).status, 413, 'createKey 413 for a body over 64 KiB')
      t.equal((await calls.createKey('garbage', 'x')).status, 401, 'createKey 401 with a garbage token')
      const verse = await calls.getVerse('jn-3-16', key)
      t.equal(verse.status, 200, 'getVerse 200')
      t.equal(verse.slug, 'john-3-16')
      t.equal((await calls.getVerse('john-3-16', key, { etag: verse.etag })).status, 304, 'getVerse 304')
      t.equal((await calls.getVerse('john-3-16', key, { style: 'formal' })).status, 400, 'getVerse 400')
      t.equal((await calls.getVerse('john-3-16', undefined)).status, 401, 'getVerse 401')
      t.equal((await calls.getVerse('john-3-16', 'pv_notakey')).status, 403, 'getVerse 403')
      t.equal((await calls.getVerse('john-3-99', key)).status, 404, 'getVerse 404')
      const search = await calls.search(key, 'shepherd', 2)
      t.equal(search.status, 200, 'search 200')
      t.ok((search.count ?? 0) <= 2)
      // The free quota here is 3: the verse and the search took two; one more, then 429.
      t.equal((await calls.getVerse('genesis-1-1', key)).status, 200)
      t.equal((await calls.getVerse('genesis-1-2', key)).status, 429, 'getVerse 429 on an exhausted quota')
      t.equal(await calls.getBook('john'), 200, 'getBook 200')
      t.equal(await calls.getBook('nobook'), 404, 'getBook 404')
      const keys = await calls.listKeys(token)
      t.equal(keys.status, 200, 'listKeys 200')
      t.equal(keys.count, 1)
      t.equal(await calls.revokeKey(token, '00000000-0000-4000-8000-000000000000'), 404, 'revokeKey 404')
      const usage = await calls.accountUsage(token)
      t.equal(usage.status, 200, 'getUsage 200 with the identity token')
      t.ok(usage.account, "the account's usage")
      const catalog = await calls.apiCatalog()
      t.equal(catalog.status, 200, 'getApiCatalog 200')
      t.equal(catalog.anchor, `http://localhost:8080/api/v1`)
      // A second account's key for the counted reads below (the first key's quota is used up).
      const other = await calls.createKey(signToken(`conformance-${account}-b`), 'reads')
      for (const c of JSON_GETS) {
        const status = await calls.get(c.id, c.path ?? {}, c.query, c.keyed === true ? other.key : undefined)
        t.equal(status, c.status, `${c.id} ${JSON.stringify({ ...c.path, ...c.query })} ${c.status}`)
      }
      if (calls.text !== undefined) {
        const text = await calls.text()
        t.equal(text.status, 200, 'getLlmsTxt 200 as text')
        t.match(text.body, /^# Plainverse/)
      }
    })
  }
  t.ok(seen.length > 0, `${seen.length} answers checked against the contract`)
})

/** The part of openapi-fetch's client the suite uses. */
interface FetchClient {
  GET(path: string, init: Record<string, unknown>): Promise<{ data?: unknown; error?: unknown; response: Response }>
  POST(path: string, init: Record<string, unknown>): Promise<{ data?: unknown; error?: unknown; response: Response }>
  DELETE(path: string, init: Record<string, unknown>): Promise<{ data?: unknown; error?: unknown; response: Response }>
}

function fetchCalls(client: FetchClient): Calls {
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })
  return {
    async createKey(token, name) {
      const r = await client.POST('/api/v1/keys', { body: { name }, headers: bearer(token) })
      return { status: r.response.status, key: (r.data as { key?: string } | undefined)?.key }
    },
    async getVerse(slug, key, options = {}) {
      const headers: Record<string, string> = {
        ...(key === undefined ? {} : { 'X-API-Key': key }),
        ...(options.etag === undefined ? {} : { 'If-None-Match': options.etag }),
      }
      const r = await client.GET('/api/v1/verse/{slug}', {
        params: { path: { slug }, query: options.style === undefined ? {} : { style: options.style } },
        headers,
      })
      return { status: r.response.status, etag: r.response.headers.get('etag') ?? undefined, slug: (r.data as { slug?: string } | undefined)?.slug }
    },
    async search(key, q, limit) {
      const r = await client.GET('/api/v1/search', { params: { query: { q, limit } }, headers: { 'X-API-Key': key } })
      return { status: r.response.status, count: (r.data as { data?: unknown[] } | undefined)?.data?.length }
    },
    async getBook(book) {
      return (await client.GET('/api/v1/books/{book}', { params: { path: { book } } })).response.status
    },
    async listKeys(token) {
      const r = await client.GET('/api/v1/keys', { headers: bearer(token) })
      return { status: r.response.status, count: (r.data as { data?: unknown[] } | undefined)?.data?.length }
    },
    async revokeKey(token, id) {
      return (await client.DELETE('/api/v1/keys/{id}', { params: { path: { id } }, headers: bearer(token) })).response.status
    },
    async accountUsage(token) {
      const r = await client.GET('/api/v1/usage', { headers: bearer(token) })
      return { status: r.response.status, account: typeof r.data === 'object' && r.data !== null && 'by_endpoint' in r.data }
    },
    async apiCatalog() {
      const r = await client.GET('/.well-known/api-catalog', {})
      return { status: r.response.status, anchor: (r.data as { linkset?: Array<{ anchor: string }> } | undefined)?.linkset?.[0]?.anchor }
    },
    async get(operationId, path, query, key) {
      const template = OPERATIONS.get(operationId)?.template ?? ''
      const r = await client.GET(template, { params: { path, query }, headers: key === undefined ? {} : { 'X-API-Key': key } })
      return r.response.status
    },
    async text() {
      const r = await client.GET('/llms.txt', { parseAs: 'text' })
      return { status: r.response.status, body: typeof r.data === 'string' ? r.data : undefined }
    },
  }
}

/** The generated client instance the SDK functions use. */
interface HeyClient {
  setConfig(config: Record<string, unknown>): void
}
type HeyResult = Promise<{ data?: unknown; error?: unknown; response: Response }>
/** The generated SDK functions the suite uses (@hey-api/openapi-ts). */
interface HeySdk {
  createKey(options: Record<string, unknown>): HeyResult
  getVerse(options: Record<string, unknown>): HeyResult
  searchVerses(options: Record<string, unknown>): HeyResult
  getBook(options: Record<string, unknown>): HeyResult
  listKeys(options: Record<string, unknown>): HeyResult
  revokeKey(options: Record<string, unknown>): HeyResult
  getUsage(options: Record<string, unknown>): HeyResult
  getApiCatalog(options: Record<string, unknown>): HeyResult
  getLlmsTxt(options: Record<string, unknown>): HeyResult
}

/** @hey-api's client sends its one `auth` value for every scheme of an operation: both headers where a key goes. */
function heyCalls(sdk: HeySdk, client: HeyClient, baseUrl: string): Calls {
  client.setConfig({ baseUrl })
  return {
    async createKey(token, name) {
      const r = await sdk.createKey({ body: { name }, auth: token })
      return { status: r.response.status, key: (r.data as { key?: string } | undefined)?.key }
    },
    async getVerse(slug, key, options = {}) {
      const r = await sdk.getVerse({
        path: { slug },
        query: options.style === undefined ? undefined : { style: options.style },
        headers: options.etag === undefined ? undefined : { 'If-None-Match': options.etag },
        ...(key === undefined ? {} : { auth: key }),
      })
      return { status: r.response.status, etag: r.response.headers.get('etag') ?? undefined, slug: (r.data as { slug?: string } | undefined)?.slug }
    },
    async search(key, q, limit) {
      const r = await sdk.searchVerses({ query: { q, limit }, auth: key })
      return { status: r.response.status, count: (r.data as { data?: unknown[] } | undefined)?.data?.length }
    },
    async getBook(book) {
      return (await sdk.getBook({ path: { book } })).response.status
    },
    async listKeys(token) {
      const r = await sdk.listKeys({ auth: token })
      return { status: r.response.status, count: (r.data as { data?: unknown[] } | undefined)?.data?.length }
    },
    async revokeKey(token, id) {
      return (await sdk.revokeKey({ path: { id }, auth: token })).response.status
    },
    async accountUsage(token) {
      const r = await sdk.getUsage({ auth: token })
      return { status: r.response.status, account: typeof r.data === 'object' && r.data !== null && 'by_endpoint' in r.data }
    },
    async apiCatalog() {
      const r = await sdk.getApiCatalog({})
      return { status: r.response.status, anchor: (r.data as { linkset?: Array<{ anchor: string }> } | undefined)?.linkset?.[0]?.anchor }
    },
    async get(operationId, path, query, key) {
      const call = (sdk as unknown as Record<string, (options: Record<string, unknown>) => HeyResult>)[operationId]
      if (call === undefined) throw new Error(`no generated function ${operationId}`)
      const r = await call({ path, query, ...(key === undefined ? {} : { auth: key }) })
      return r.response.status
    },
    async text() {
      const r = await sdk.getLlmsTxt({})
      return { status: r.response.status, body: typeof r.data === 'string' ? r.data : undefined }
    },
  }
}

type OrvalResult = Promise<{ data: unknown; status: number; headers: Headers }>
/** The generated functions the suite uses (orval, fetch client). */
interface OrvalSdk {
  createKey(body: Record<string, unknown>, options?: RequestInit): OrvalResult
  getVerse(slug: string, params?: Record<string, unknown>, options?: RequestInit): OrvalResult
  searchVerses(params: Record<string, unknown>, options?: RequestInit): OrvalResult
  getBook(book: string, options?: RequestInit): OrvalResult
  listKeys(options?: RequestInit): OrvalResult
  revokeKey(id: string, options?: RequestInit): OrvalResult
  getUsage(options?: RequestInit): OrvalResult
  getApiCatalog(options?: RequestInit): OrvalResult
}

function orvalCalls(sdk: OrvalSdk): Calls {
  const bearer = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } })
  return {
    async createKey(token, name) {
      const r = await sdk.createKey({ name }, { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } })
      return { status: r.status, key: (r.data as { key?: string }).key }
    },
    async getVerse(slug, key, options = {}) {
      const headers: Record<string, string> = {
        ...(key === undefined ? {} : { 'X-API-Key': key }),
        ...(options.etag === undefined ? {} : { 'If-None-Match': options.etag }),
      }
      const r = await sdk.getVerse(slug, options.style === undefined ? undefined : { style: options.style }, { headers })
      return { status: r.status, etag: r.headers.get('etag') ?? undefined, slug: (r.data as { slug?: string } | null)?.slug }
    },
    async search(key, q, limit) {
      const r = await sdk.searchVerses({ q, limit }, { headers: { 'X-API-Key': key } })
      return { status: r.status, count: (r.data as { data?: unknown[] }).data?.length }
    },
    async getBook(book) {
      return (await sdk.getBook(book)).status
    },
    async listKeys(token) {
      const r = await sdk.listKeys(bearer(token))
      return { status: r.status, count: (r.data as { data?: unknown[] }).data?.length }
    },
    async revokeKey(token, id) {
      return (await sdk.revokeKey(id, bearer(token))).status
    },
    async accountUsage(token) {
      const r = await sdk.getUsage(bearer(token))
      return { status: r.status, account: typeof r.data === 'object' && r.data !== null && 'by_endpoint' in r.data }
    },
    async apiCatalog() {
      const r = await sdk.getApiCatalog()
      return { status: r.status, anchor: (r.data as { linkset?: Array<{ anchor: string }> }).linkset?.[0]?.anchor }
    },
    async get(operationId, path, query, key) {
      const call = (sdk as unknown as Record<string, (...args: unknown[]) => OrvalResult>)[operationId]
      if (call === undefined) throw new Error(`no generated function ${operationId}`)
      // orval's functions take the path parameters in order, then the query parameters (when the operation has some), then fetch's options.
      const operation = OPERATIONS.get(operationId)
      const pathArguments = [...(operation?.template.matchAll(/\{([^}]+)\}/g) ?? [])].map((m) => path[m[1] ?? ''])
      const queryArguments = operation?.hasQuery === true ? [query ?? {}] : []
      const r = await call(...pathArguments, ...queryArguments, { headers: key === undefined ? {} : { 'X-API-Key': key } })
      return r.status
    },
  }
}
