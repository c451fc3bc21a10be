/**
 * Clients generated from the contract by three third-party generators (openapi-typescript with
 * openapi-fetch, @hey-api/openapi-ts, orval) compile with `strict`, and one conformance suite
 * runs through each against one live server: every operation of the contract, its success and
 * its documented errors, each answer checked on the wire against the contract (status, declared
 * headers, body) by test/helpers/contract.ts, and what the client made of the body checked
 * against the wire (the JSON value, or the text of a text, HTML, YAML, XML or SVG answer).
 * A last check per client lists every operation and documented status of the contract that the
 * suite did not exercise through it; only the reasoned exclusions below may be missing.
 *
 * orval 7.10 (the last release that runs on Node 20) parses every body as JSON in its own fetch
 * code, so it is generated with src/client/orval-fetch.ts as its `mutator`, which reads each
 * body by its Content-Type.
 */
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { projectPath } from '../../src/infra/paths.js'
import { setOrvalBaseUrl } from '../../src/client/orval-fetch.js'
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
  'orval/use.ts': `import { getVerse, searchVerses, getApiCatalog, getLlmsTxt } from './plainverse.js'
export const verse = getVerse('john-3-16', { style: 'all' })
export const search = searchVerses({ q: 'shepherd', limit: 5 })
export const linkset = getApiCatalog().then((r) => (r.status === 200 ? r.data.linkset[0]?.anchor : undefined))
export const text = getLlmsTxt().then((r) => (r.status === 200 ? r.data.split('\\n')[0] : undefined))
`,
}

t.test('three generators produce clients that compile with strict', async (t) => {
  await run(bin('openapi-typescript'), ['openapi.json', '-o', 'ot/api.ts'], { cwd: dir })
  await run(bin('openapi-ts'), ['-i', 'openapi.json', '-o', 'hey', '-c', '@hey-api/client-fetch'], { cwd: dir })
  // The mutator reads each body by its Content-Type (orval's own fetch code parses every body as JSON).
  const mutator = { path: projectPath('src', 'client', 'orval-fetch.ts'), name: 'orvalFetch', extension: '.js' }
  const output = { target: './orval/plainverse.ts', client: 'fetch', mode: 'single', override: { mutator } }
  writeFileSync(join(dir, 'orval.config.cjs'), `module.exports = ${JSON.stringify({ plainverse: { input: './openapi.json', output } })}\n`)
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

/** One call of an operation, as a caller of any of the clients would describe it. */
interface Call {
  readonly path?: Record<string, string>
  readonly query?: Record<string, unknown>
  readonly body?: unknown
  /** An API key: `X-API-Key` (@hey-api: its `auth` value, sent for every scheme of the operation). */
  readonly key?: string
  /** A Bearer token (identity or metrics): `Authorization: Bearer` (@hey-api: its `auth` value). */
  readonly token?: string
  readonly headers?: Record<string, string>
}

/** What a client gave back: the status, the headers and the body as the client read it. */
interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly data: unknown
}

/** Calls an operation by its operationId through one generated client. */
type Client = (operationId: string, call: Call) => Promise<Answer>

type JsonObject = Record<string, unknown>

/** The last answer as it was on the wire: its body and media type. */
interface Wire {
  readonly body: string
  readonly mediaType: string
}

/** An operation of the contract as the clients need it. */
interface Operation {
  readonly method: string
  readonly template: string
  readonly hasBody: boolean
  readonly hasQuery: boolean
  /** Whether its success answers are JSON (else the caller reads them as text). */
  readonly jsonSuccess: boolean
  /** Each documented status and the shared response it refers to, if any. */
  readonly responses: ReadonlyMap<string, string | undefined>
}

const contract = JSON.parse(readFileSync(projectPath('generated', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, JsonObject>>
  components: { parameters: Record<string, { in: string }> }
}
const isJsonType = (mediaType: string): boolean => mediaType === 'application/json' || mediaType.endsWith('+json')

/** Every operation of the contract, by operationId. */
const OPERATIONS = ((): ReadonlyMap<string, Operation> => {
  const found = new Map<string, Operation>()
  for (const [template, item] of Object.entries(contract.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const operationId = operation.operationId
      if (typeof operationId !== 'string') continue
      const parameters = (operation.parameters ?? []) as Array<{ in?: string; $ref?: string }>
      const where = (p: { in?: string; $ref?: string }): string | undefined => p.in ?? contract.components.parameters[(p.$ref ?? '').split('/').pop() ?? '']?.in
      const responses = new Map<string, string | undefined>()
      let jsonSuccess = false
      for (const [status, response] of Object.entries(operation.responses as Record<string, JsonObject>)) {
        responses.set(status, typeof response.$ref === 'string' ? response.$ref.split('/').pop() : undefined)
        const content = response.content as JsonObject | undefined
        if (status.startsWith('2') && content !== undefined) jsonSuccess = Object.keys(content).some(isJsonType)
      }
      found.set(operationId, {
        method: method.toUpperCase(),
        template,
        hasBody: operation.requestBody !== undefined,
        hasQuery: parameters.some((p) => where(p) === 'query'),
        jsonSuccess,
        responses,
      })
    }
  }
  return found
})()

/** An operation's contract entry (throws for an operationId the contract does not have). */
function operationOf(operationId: string): Operation {
  const operation = OPERATIONS.get(operationId)
  if (operation === undefined) throw new Error(`the contract has no operation ${operationId}`)
  return operation
}

/**
 * Documented answers the suite does not produce through the generated clients, each with why.
 * Besides these, no 5xx is required (server faults: test/infra and test/meta cause them; the
 * dashboard's 503 is called only to reach its operation), nor the per-second rate limit's 429
 * (`RateLimited`, `PageRateLimited` and the HEAD's): the live server runs with those limits off
 * so that no answer depends on timing, and test/quotas/rate-limit.test.ts tests them with a
 * controlled clock. The monthly quota's 429
 * (`QuotaExceeded`) is exercised.
 */
const EXCLUDED: Readonly<Record<string, string>> = {
  'dashboardLogin 303': 'a redirect-only step to a reachable identity provider; test/dashboard/dashboard-browser.test.ts signs in through one',
  'dashboardCallback 303': 'needs the state and PKCE verifier of a sign-in started in a browser (dashboard-browser.test.ts)',
  'dashboardCallback 401': 'needs a code the identity provider issued for a started sign-in (dashboard-browser.test.ts)',
  'dashboardCreateKey 201': 'needs a signed-in session cookie and its CSRF token in a form body the contract does not model (dashboard-browser.test.ts)',
  'dashboardCreateKey 303': 'needs a signed-in session (dashboard-browser.test.ts)',
  'dashboardCreateKey 400': 'needs a signed-in session and a form body (dashboard-browser.test.ts)',
  'dashboardCreateKey 409': 'needs a signed-in session and a form body (dashboard-browser.test.ts)',
  'dashboardKey 200': 'needs a signed-in session (dashboard-browser.test.ts)',
  'dashboardKey 404': 'needs a signed-in session (dashboard-browser.test.ts)',
  'dashboardUpdateKey 303': 'needs a signed-in session and a form body (dashboard-browser.test.ts)',
  'dashboardUpdateKey 400': 'needs a signed-in session and a form body (dashboard-browser.test.ts)',
  'dashboardUpdateKey 404': 'needs a signed-in session and a form body (dashboard-browser.test.ts)',
  'dashboardRevokeKey 303': 'needs a signed-in session and a form body (dashboard-browser.test.ts)',
  'dashboardRevokeKey 400': 'needs a signed-in session and a form body (dashboard-browser.test.ts)',
  'dashboardRevokeKey 404': 'needs a signed-in session and a form body (dashboard-browser.test.ts)',
  'dashboardOperator 200': "needs an operator's signed-in session (dashboard-browser.test.ts)",
  'dashboardOperator 403': 'needs a signed-in session of someone who is not an operator (dashboard-browser.test.ts)',
  'dashboardOperatorKey 303': "needs an operator's signed-in session and a form body (dashboard-browser.test.ts)",
  'dashboardOperatorKey 400': "needs an operator's signed-in session and a form body (dashboard-browser.test.ts)",
  'dashboardOperatorKey 404': "needs an operator's signed-in session and a form body (dashboard-browser.test.ts)",
  'getMetrics 404': 'this server serves the metrics (METRICS_TOKEN is set); test/metrics/metrics.test.ts asks one that does not',
  'getBookPage 405': 'no one-segment path belongs to an API operation that refuses GET, so only the three-segment page answers it (/api/v1/mcp)',
  'getChapterPage 405': 'no two-segment path belongs to an API operation that refuses GET, so only the three-segment page answers it (/api/v1/mcp)',
}

/** Whether a documented answer must be exercised through every client. */
function mustExercise(operationId: string, status: string, shared: string | undefined): boolean {
  if (status.startsWith('5')) return false
  if (status === '429' && shared !== 'QuotaExceeded') return false
  return EXCLUDED[`${operationId} ${status}`] === undefined
}

const MCP_ACCEPT = { Accept: 'application/json, text/event-stream' }
const rpc = (method: string, params?: JsonObject): JsonObject => ({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) })
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000'
const METRICS_TOKEN = 'conformance-metrics-token-0123456789'

t.test('the conformance suite through each client', async (t) => {
  const server = await startServer({
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    MAX_KEYS_PER_ACCOUNT: '1',
    QUOTA_FREE: '3',
    QUOTA_DEVELOPER: '100000',
    METRICS_TOKEN,
    OPERATOR_CLAIM: 'app_metadata.role',
    // A provider that does not answer: the dashboard's pages and forms without a session.
    OIDC_ISSUER: 'http://127.0.0.1:9',
    OIDC_CLIENT_ID: 'conformance',
  })
  t.teardown(async () => {
    await server.stop('SIGTERM')
    removeDataDir(server.dataDir)
  })
  // Every request the clients send goes through here: every answer is checked against the
  // contract on the wire, and kept so that what the client read can be compared with it.
  const realFetch = globalThis.fetch
  const wire: { last?: Wire } = {}
  let checked = 0
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const response = await realFetch(request)
    const body = await response.clone().text()
    const violations = contractViolations({
      method: request.method,
      url: url.pathname + url.search,
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body,
    })
    if (violations.length > 0) t.fail(`contract: ${violations.join('; ')}`)
    wire.last = { body, mediaType: (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '' }
    checked++
    return response
  }
  t.teardown(() => {
    globalThis.fetch = realFetch
  })

  const clients: Record<string, () => Promise<Client>> = {
    'openapi-typescript + openapi-fetch': async () => {
      // The generated types only check the calls at compile time (ot/use.ts above); at run time the client is openapi-fetch.
      const { default: createClient } = await import('openapi-fetch')
      return fetchClient(createClient({ baseUrl: server.baseUrl }) as unknown as FetchClient)
    },
    '@hey-api/openapi-ts': async () => {
      const sdk = (await import(join(dir, 'hey', 'index.ts'))) as Record<string, HeyFunction>
      const { client } = (await import(join(dir, 'hey', 'client.gen.ts'))) as { client: { setConfig(config: JsonObject): void } }
      client.setConfig({ baseUrl: server.baseUrl })
      return heyClient(sdk)
    },
    orval: async () => {
      setOrvalBaseUrl(server.baseUrl)
      return orvalClient((await import(join(dir, 'orval', 'plainverse.ts'))) as Record<string, OrvalFunction>)
    },
  }
  let account = 0
  for (const [name, make] of Object.entries(clients)) {
    await t.test(name, async (t) => {
      const before = checked
      const client = await make()
      const exercised = new Set<string>()
      /** Calls, checks the status and that the client read the body the wire carried; returns the answer. */
      const expect = async (operationId: string, call: Call, status: number, what = ''): Promise<Answer> => {
        delete wire.last
        const answer = await client(operationId, call)
        // Set by the fetch above (TypeScript cannot see that the call reassigns it).
        const seen = wire.last as Wire | undefined
        t.equal(answer.status, status, `${operationId} ${status}${what === '' ? '' : ` ${what}`}`)
        if (answer.status === status) exercised.add(`${operationId} ${status}`)
        if (seen !== undefined && seen.body !== '') {
          const expected: unknown = isJsonType(seen.mediaType) ? JSON.parse(seen.body) : seen.body
          t.same(answer.data, expected, `${operationId} ${status}: the client read the ${seen.mediaType} body`)
        }
        return answer
      }
      /** A 200 with an ETag, then the 304 for it. */
      const cached = async (operationId: string, call: Call = {}): Promise<Answer> => {
        const first = await expect(operationId, call, 200)
        const etag = first.headers.get('etag') ?? ''
        t.not(etag, '', `${operationId} has an ETag`)
        await expect(operationId, { ...call, headers: { ...call.headers, 'If-None-Match': etag } }, 304)
        return first
      }

      const n = ++account
      const token = signToken(`conformance-${n}`)
      const operator = signToken(`conformance-ops-${n}`, { app_metadata: { role: 'operator' } })
      // Keys: create (201), then the account limit, size, media type, validation and credentials.
      const created = await expect('createKey', { token, body: { name: 'conformance' } }, 201)
      const first = created.data as { key: string; id: string }
      t.match(first.key, /^pv_/)
      await expect('createKey', { token, body: { name: 'second' } }, 409, 'over the account limit')
      await expect('createKey', { token, body: { name: 'x'.repeat(70_000) } }, 413, 'for a body over 64 KiB')
      await expect('createKey', { token, body: { name: 'x' }, headers: { 'Content-Type': 'text/plain' } }, 415, 'for a text body')
      await expect('createKey', { token, body: { name: 'x', tier: 'unlimited' } }, 400, 'for an unknown field')
      await expect('createKey', { token: 'garbage', body: { name: 'x' } }, 401, 'with a garbage token')
      // A verse: success, conditional, bad style, no key, a key that is not one, no such verse.
      const verse = await expect('getVerse', { key: first.key, path: { slug: 'jn-3-16' } }, 200)
      t.equal((verse.data as { slug: string }).slug, 'john-3-16')
      const etag = verse.headers.get('etag') ?? ''
      await expect('getVerse', { key: first.key, path: { slug: 'john-3-16' }, headers: { 'If-None-Match': etag } }, 304)
      await expect('getVerse', { key: first.key, path: { slug: 'john-3-16' }, query: { style: 'formal' } }, 400)
      await expect('getVerse', { path: { slug: 'john-3-16' } }, 401)
      await expect('getVerse', { key: 'pv_notakey', path: { slug: 'john-3-16' } }, 403)
      await expect('getVerse', { key: first.key, path: { slug: 'john-3-99' } }, 404)
      const search = await expect('searchVerses', { key: first.key, query: { q: 'shepherd', limit: 2 } }, 200)
      t.ok((search.data as { data: unknown[] }).data.length <= 2, 'search honours an integer limit')
      await expect('searchVerses', { key: first.key, query: { q: 'shepherd', limit: 0 } }, 400)
      await expect('searchVerses', { query: { q: 'shepherd' } }, 401)
      await expect('searchVerses', { key: 'pv_notakey', query: { q: 'shepherd' } }, 403)
      // The free quota here is 3: the verse and the search took two; one more, then 429 on every counted read.
      await expect('getVerse', { key: first.key, path: { slug: 'genesis-1-1' } }, 200)
      await expect('getVerse', { key: first.key, path: { slug: 'genesis-1-2' } }, 429, 'on an exhausted quota')
      await expect('searchVerses', { key: first.key, query: { q: 'shepherd' } }, 429)
      await expect('getNarrative', { key: first.key, path: { slug: 'john-jesus-feeds-five-thousand' } }, 429)
      await expect('getPassage', { key: first.key, path: { ref: 'psalms-23' } }, 429)
      const getVerseTool = rpc('tools/call', { name: 'get_verse', arguments: { reference: 'John 3:16' } })
      for (const mcp of ['postMcp', 'postMcpV1']) await expect(mcp, { key: first.key, headers: MCP_ACCEPT, body: getVerseTool }, 429)

      // A second account's key, raised to the developer tier by an operator, for the counted reads below.
      const other = (await expect('createKey', { token: signToken(`conformance-${n}-b`), body: { name: 'reads' } }, 201)).data as { key: string; id: string }
      const raised = await expect('setKeyTier', { token: operator, path: { id: other.id }, body: { tier: 'developer' } }, 200)
      t.equal((raised.data as { tier: string }).tier, 'developer')
      const key = other.key
      await expect('setKeyTier', { token: operator, path: { id: other.id }, body: { tier: 'platinum' } }, 400)
      await expect('setKeyTier', { token: operator, path: { id: NO_SUCH_ID }, body: { tier: 'developer' } }, 404)
      await expect('setKeyTier', { token: operator, path: { id: other.id }, body: { tier: 'x'.repeat(70_000) } }, 413)
      await expect('setKeyTier', { token: operator, path: { id: other.id }, body: { tier: 'developer' }, headers: { 'Content-Type': 'text/plain' } }, 415)
      await expect('setKeyTier', { token, path: { id: other.id }, body: { tier: 'developer' } }, 403, 'for someone who is not an operator')
      await expect('setKeyTier', { path: { id: other.id }, body: { tier: 'developer' } }, 401)
      await expect('listOperatorAccounts', { token: operator }, 200)
      await expect('listOperatorAccounts', { token: operator, query: { sort: 'bogus' } }, 400)
      await expect('listOperatorAccounts', { token }, 403)
      await expect('listOperatorAccounts', {}, 401)
      await expect('getServiceUsage', { token: operator }, 200)
      await expect('getServiceUsage', { token }, 403)
      await expect('getServiceUsage', {}, 401)
      await expect('revokeAnyKey', { token: operator, path: { id: NO_SUCH_ID } }, 404)
      await expect('revokeAnyKey', { token, path: { id: NO_SUCH_ID } }, 403)
      await expect('revokeAnyKey', { path: { id: NO_SUCH_ID } }, 401)

      // Scripture reads with the developer key, and their errors.
      await expect('listNarratives', { key, query: { gospel: 'mark', limit: 2 } }, 200)
      await expect('listNarratives', { key, query: { limit: 0 } }, 400)
      await expect('listNarratives', {}, 401)
      await expect('listNarratives', { key: 'pv_notakey' }, 403)
      await expect('getNarrative', { key, path: { slug: 'john-jesus-feeds-five-thousand' } }, 200)
      await expect('getNarrative', { key, path: { slug: 'john-jesus-feeds-five-thousand' }, query: { style: 'formal' } }, 400)
      await expect('getNarrative', { path: { slug: 'john-jesus-feeds-five-thousand' } }, 401)
      await expect('getNarrative', { key: 'pv_notakey', path: { slug: 'john-jesus-feeds-five-thousand' } }, 403)
      await expect('getNarrative', { key, path: { slug: 'john-no-such-narrative' } }, 404)
      await expect('resolveReference', { key, query: { q: 'see John 3:16 and Ps 23' } }, 200)
      await expect('resolveReference', { key, query: { q: '' } }, 400)
      await expect('resolveReference', { query: { q: 'John 3:16' } }, 401)
      await expect('resolveReference', { key: 'pv_notakey', query: { q: 'John 3:16' } }, 403)
      await expect('getPassage', { key, path: { ref: 'psalms-23' } }, 200)
      await expect('getPassage', { key, path: { ref: 'psalms-23' }, query: { style: 'formal' } }, 400)
      await expect('getPassage', { path: { ref: 'psalms-23' } }, 401)
      await expect('getPassage', { key: 'pv_notakey', path: { ref: 'psalms-23' } }, 403)
      await expect('getPassage', { key, path: { ref: 'nothing-here-9-9' } }, 404)

      // Keys and usage of the account.
      const keys = await expect('listKeys', { token }, 200)
      t.equal((keys.data as { data: unknown[] }).data.length, 1)
      await expect('listKeys', {}, 401)
      const renamed = await expect('updateKey', { token, path: { id: first.id }, body: { name: 'renamed' } }, 200)
      t.equal((renamed.data as { name: string }).name, 'renamed')
      await expect('updateKey', { token, path: { id: first.id }, body: { name: 'x', tier: 'scale' } }, 400)
      await expect('updateKey', { token, path: { id: NO_SUCH_ID }, body: { name: 'x' } }, 404)
      await expect('updateKey', { token, path: { id: first.id }, body: { name: 'x'.repeat(70_000) } }, 413)
      await expect('updateKey', { token, path: { id: first.id }, body: { name: 'x' }, headers: { 'Content-Type': 'text/plain' } }, 415)
      await expect('updateKey', { path: { id: first.id }, body: { name: 'x' } }, 401)
      const usage = await expect('getUsage', { token }, 200, 'with the identity token')
      t.ok(typeof usage.data === 'object' && usage.data !== null && 'by_endpoint' in usage.data, "the account's usage")
      await expect('getUsage', { key }, 200, 'with the key')
      await expect('getUsage', {}, 401)
      await expect('getUsage', { key: 'pv_notakey' }, 403)

      // The MCP endpoint, on both paths.
      for (const mcp of ['postMcp', 'postMcpV1']) {
        const listed = await expect(mcp, { key, headers: MCP_ACCEPT, body: rpc('tools/list') }, 200)
        t.ok(((listed.data as { result: { tools: unknown[] } }).result.tools.length ?? 0) > 0, `${mcp}: tools/list`)
        const called = await expect(mcp, { key, headers: MCP_ACCEPT, body: getVerseTool }, 200)
        t.match(called.data, { result: { structuredContent: { slug: 'john-3-16' } } }, `${mcp}: get_verse`)
        await expect(mcp, { key, headers: MCP_ACCEPT, body: { jsonrpc: '2.0', method: 'notifications/initialized' } }, 202)
        await expect(mcp, { key, headers: MCP_ACCEPT, body: { foo: 1 } }, 400)
        await expect(mcp, { headers: MCP_ACCEPT, body: rpc('tools/list') }, 401)
        await expect(mcp, { key: 'pv_notakey', headers: MCP_ACCEPT, body: rpc('tools/list') }, 403, 'for a key that is not one')
        await expect(mcp, { key, headers: { ...MCP_ACCEPT, Origin: 'http://evil.example' }, body: rpc('tools/list') }, 403, 'for an origin not allowed')
        await expect(mcp, { key, headers: { Accept: 'application/json' }, body: rpc('tools/list') }, 406)
        await expect(mcp, { key, headers: MCP_ACCEPT, body: rpc('tools/list', { padding: 'x'.repeat(70_000) }) }, 413)
        await expect(mcp, { key, headers: { ...MCP_ACCEPT, 'Content-Type': 'text/plain' }, body: rpc('tools/list') }, 415)
      }
      await expect('getMcp', {}, 405)

      // Books, the contract, the docs, the problem types.
      await cached('listBooks')
      await cached('getBook', { path: { book: 'john' } })
      await expect('getBook', { path: { book: 'x'.repeat(210) } }, 400)
      await expect('getBook', { path: { book: 'nobook' } }, 404)
      await expect('getOpenApiJson', {}, 200)
      const yaml = await expect('getOpenApiYaml', {}, 200)
      t.match(yaml.data, /^openapi: 3\.1/, 'the YAML contract as text')
      const docs = await cached('getDocs')
      t.match(docs.data, /<rapi-doc/, 'the reference page as text')
      await cached('getDocsScript')
      const problem = await expect('getProblemType', { path: { type: 'quota-exceeded' } }, 200)
      t.match(problem.data, /<html/)
      await expect('getProblemType', { path: { type: 'x'.repeat(120) } }, 400)
      await expect('getProblemType', { path: { type: 'no-such-problem' } }, 404)

      // Discovery, text files, probes, metrics.
      for (const operationId of [
        'getMcpServerCard',
        'getWellKnownMcpServerCard',
        'getAiPluginManifest',
        'getSitemap',
        'getTerms',
        'getLogo',
        'getRobotsTxt',
        'getLlmsFullTxt',
      ]) {
        await cached(operationId)
      }
      const catalog = await cached('getApiCatalog')
      t.equal((catalog.data as { linkset: Array<{ anchor: string }> }).linkset[0]?.anchor, 'http://localhost:8080/api/v1')
      await cached('headApiCatalog')
      const llms = await cached('getLlmsTxt')
      t.match(llms.data, /^# Plainverse/, 'llms.txt as text')
      await expect('getHealth', {}, 200)
      await expect('getReadiness', {}, 200)
      const metrics = await expect('getMetrics', { token: METRICS_TOKEN }, 200)
      t.match(metrics.data, /^# HELP /m, 'the metrics as text')
      await expect('getMetrics', {}, 401)
      await expect('getMetrics', { token: 'not-the-metrics-token-0123' }, 403)
      await cached('getSitemapPart', { path: { name: 'pages.xml' } })
      await expect('getSitemapPart', { path: { name: 'nothing.xml' } }, 404)
      await cached('getStylesheet')
      await cached('getDashboardScript')

      // The public pages.
      await cached('getHomePage')
      const results = await expect('getSearchPage', { query: { q: 'shepherd' } }, 200)
      t.equal(results.headers.get('etag'), null, 'search results are not tagged (the contract documents no 304)')
      await cached('getNarrativesPage')
      await cached('getNarrativePage', { path: { slug: 'john-jesus-feeds-five-thousand' } })
      await expect('getNarrativePage', { path: { slug: 'john-no-such-narrative' } }, 404)
      await cached('getBookPage', { path: { book: 'john' } })
      await expect('getBookPage', { path: { book: 'John' } }, 301)
      await expect('getBookPage', { path: { book: 'nobook' } }, 404)
      await cached('getChapterPage', { path: { book: 'john', chapter: '3' } })
      await expect('getChapterPage', { path: { book: 'jn', chapter: '3' } }, 301)
      await expect('getChapterPage', { path: { book: 'john', chapter: '99' } }, 404)
      const page = await cached('getVersePage', { path: { book: 'john', chapter: '3', verse: '16' } })
      t.match(page.data, /<html/, 'a page as text')
      await expect('getVersePage', { path: { book: 'jn', chapter: '3', verse: '16' } }, 301)
      await expect('getVersePage', { path: { book: 'john', chapter: '3', verse: '99' } }, 404)
      await expect('getVersePage', { path: { book: 'api', chapter: 'v1', verse: 'mcp' } }, 405, 'for the path of an API operation that refuses GET')

      // The dashboard without a session (its provider does not answer).
      const dashboard = await expect('getDashboard', {}, 200)
      t.match(dashboard.data, /href="\/dashboard\/login"/, 'signed out: a sign-in link')
      await expect('dashboardLogin', {}, 503, 'while the identity provider does not answer')
      await expect('dashboardCallback', { query: { code: 'abc', state: 'not-started-here' } }, 400)
      await expect('dashboardLogout', {}, 303)
      await expect('dashboardCreateKey', {}, 403)
      await expect('dashboardKey', { path: { id: NO_SUCH_ID } }, 303)
      await expect('dashboardUpdateKey', { path: { id: NO_SUCH_ID } }, 403)
      await expect('dashboardRevokeKey', { path: { id: NO_SUCH_ID } }, 403)
      await expect('dashboardOperator', {}, 303)
      await expect('dashboardOperatorKey', { path: { id: NO_SUCH_ID } }, 403)

      // Last, the revocations: the account's own key, then an operator's revocation of another.
      await expect('revokeKey', { token, path: { id: 'x'.repeat(70) } }, 400)
      await expect('revokeKey', { token, path: { id: NO_SUCH_ID } }, 404)
      await expect('revokeKey', { path: { id: first.id } }, 401)
      await expect('revokeKey', { token, path: { id: first.id } }, 204)
      await expect('revokeAnyKey', { token: operator, path: { id: other.id } }, 204)

      const missing: string[] = []
      for (const [operationId, operation] of OPERATIONS) {
        if (![...exercised].some((done) => done.startsWith(`${operationId} `))) missing.push(`${operationId} (not called)`)
        for (const [status, shared] of operation.responses) {
          if (mustExercise(operationId, status, shared) && !exercised.has(`${operationId} ${status}`)) missing.push(`${operationId} ${status}`)
        }
      }
      t.same(missing, [], `every operation and documented answer of the contract went through ${name}`)
      t.comment(`${name}: ${checked - before} answers checked against the contract`)
    })
  }
  t.ok(checked > 0, `${checked} answers checked against the contract`)
})

/** Splits a call's credentials into the headers openapi-fetch and orval send. */
function headersOf(call: Call): Record<string, string> {
  return {
    ...(call.key === undefined ? {} : { 'X-API-Key': call.key }),
    ...(call.token === undefined ? {} : { Authorization: `Bearer ${call.token}` }),
    ...call.headers,
  }
}

/** The part of openapi-fetch's client the suite uses: one function per method. */
type FetchClient = Record<string, (path: string, init: JsonObject) => Promise<{ data?: unknown; error?: unknown; response: Response }>>

/** openapi-fetch: the caller names the path template and reads non-JSON successes with `parseAs: 'text'`. */
function fetchClient(client: FetchClient): Client {
  return async (operationId, call) => {
    const operation = operationOf(operationId)
    const send = client[operation.method]
    if (send === undefined) throw new Error(`openapi-fetch has no ${operation.method}`)
    const r = await send(operation.template, {
      params: { path: call.path ?? {}, query: call.query ?? {} },
      headers: headersOf(call),
      ...(call.body === undefined ? {} : { body: call.body }),
      parseAs: operation.jsonSuccess ? 'json' : 'text',
      // A 3xx is the answer, not a step to follow.
      redirect: 'manual',
    })
    return { status: r.response.status, headers: r.response.headers, data: r.data ?? r.error }
  }
}

/** A generated @hey-api/openapi-ts SDK function. */
type HeyFunction = (options: JsonObject) => Promise<{ data?: unknown; error?: unknown; response: Response }>

/** @hey-api's client sends its one `auth` value for every scheme of an operation: both headers where a key goes. */
function heyClient(sdk: Record<string, HeyFunction>): Client {
  return async (operationId, call) => {
    const operation = operationOf(operationId)
    const send = sdk[operationId]
    if (send === undefined) throw new Error(`@hey-api generated no function ${operationId}`)
    const auth = call.key ?? call.token
    const r = await send({
      path: call.path,
      query: call.query,
      ...(call.body === undefined ? {} : { body: call.body }),
      ...(call.headers === undefined ? {} : { headers: call.headers }),
      ...(auth === undefined ? {} : { auth }),
      parseAs: operation.jsonSuccess ? 'json' : 'text',
      redirect: 'manual',
    })
    return { status: r.response.status, headers: r.response.headers, data: r.data ?? r.error }
  }
}

/** A generated orval function: path parameters in order, the body, the query parameters, then fetch's options. */
type OrvalFunction = (...args: unknown[]) => Promise<{ data: unknown; status: number; headers: Headers }>

function orvalClient(sdk: Record<string, OrvalFunction>): Client {
  return async (operationId, call) => {
    const operation = operationOf(operationId)
    const send = sdk[operationId]
    if (send === undefined) throw new Error(`orval generated no function ${operationId}`)
    const pathArguments = [...operation.template.matchAll(/\{([^}]+)\}/g)].map((m) => call.path?.[m[1] ?? ''])
    const r = await send(...pathArguments, ...(operation.hasBody ? [call.body] : []), ...(operation.hasQuery ? [call.query] : []), {
      headers: headersOf(call),
      redirect: 'manual',
    } satisfies RequestInit)
    return { status: r.status, headers: r.headers, data: r.data }
  }
}
