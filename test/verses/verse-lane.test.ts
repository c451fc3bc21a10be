/**
 * The verse lane (src/verses/verse.lane.ts) against the verse route it stands in for: every
 * request is made twice, once to the listening server (where the lane answers or hands over)
 * and once through app.inject() (Fastify alone), each with its own key of the same tier and
 * the same history, on a stopped clock. The two answers must be the same, header for header,
 * so the two keys stay counted alike; the lane's own count says which requests it answered.
 */
import { request as httpRequest } from 'node:http'
import t, { type Test } from 'tap'
import { pino } from 'pino'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, createTestKey, TestClock, type TestApp } from '../helpers/app.js'
import { contractViolations } from '../helpers/contract.js'
import { listening } from '../helpers/mcp.js'
import { parseExposition, sampleOf } from '../helpers/prometheus.js'
import type { Asserter } from '../helpers/http.js'
import { monthPeriod } from '../../src/usage/period.js'
import type { Problem } from '../../src/errors.js'
import { REDIS_URL } from '../helpers/redis.js'

type Headers = Record<string, string | string[] | undefined>

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: string
}

/** Fields that differ between a socket and app.inject() whoever answers. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/** The headers both answers must share; a request id of the server's own making is random, so only its shape is compared. */
function comparable(headers: Headers, ownId: boolean): Headers {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSPORT.has(name)))
  if (ownId) kept['x-request-id'] = UUID.test(String(headers['x-request-id'])) ? 'a random UUID' : headers['x-request-id']
  return kept
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** A request to the listening server with the path exactly as given (fetch would normalise it), checked against the contract. */
function viaServer(t: Asserter, baseUrl: string, method: string, path: string, headers: Record<string, string | string[]>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const req = httpRequest({ hostname, port, path, method, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        const answer: Answer = { status: res.statusCode ?? 0, headers: res.headers, body }
        const violations = contractViolations({ method, url: path, status: answer.status, headers: answer.headers, body })
        if (violations.length > 0) t.fail(`contract: ${violations.join('; ')}`)
        resolve(answer)
      })
    })
    req.on('error', reject)
    req.end()
  })
}

async function viaFastify(app: FastifyInstance, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const res = await app.inject({ method: method as 'GET' | 'HEAD', url: path, headers })
  // light-my-request types its headers as outgoing ones (numbers allowed); what came back is text.
  const text = Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, typeof value === 'number' ? String(value) : value]))
  return { status: res.statusCode, headers: text, body: res.body }
}

/** Two keys of one tier: `lane` for the server, `fastify` for inject. */
interface KeyPair {
  readonly lane: { key: string; id: string }
  readonly fastify: { key: string; id: string }
}

async function keyPair(testApp: TestApp, allowedDomains: string[] = []): Promise<KeyPair> {
  return {
    lane: await createTestKey(testApp, { tier: 'free', allowedDomains, name: 'lane' }),
    fastify: await createTestKey(testApp, { tier: 'free', allowedDomains, name: 'fastify' }),
  }
}

/** A first lookup with each key (handed over: it loads the key's count), so that the next ones can take the lane. */
async function warmed(t: Test, setup: { testApp: TestApp; baseUrl: string; keys: KeyPair }): Promise<typeof setup> {
  await both(t, setup, '/api/v1/verse/genesis-1-2', { 'x-api-key': 'KEY', 'x-request-id': 'warm' })
  return setup
}

/**
 * Makes one request both ways (Fastify first: it builds the representation the lane sends)
 * and checks that the answers are the same; `KEY` in a header value stands for the key.
 * Resolves to the server's answer and whether the lane answered it.
 */
async function both(
  t: Test,
  setup: { testApp: TestApp; baseUrl: string; keys: KeyPair },
  path: string,
  headers: Record<string, string> = { 'x-api-key': 'KEY' },
  method = 'GET',
): Promise<{ answer: Answer; byLane: boolean }> {
  const withKey = (key: string): Record<string, string> => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace('KEY', key)]))
  const lane = setup.testApp.app.verseLane
  if (lane === undefined) throw new Error('the app has no verse lane')
  const fastify = await viaFastify(setup.testApp.app, method, path, withKey(setup.keys.fastify.key))
  const before = lane.served
  const answer = await viaServer(t, setup.baseUrl, method, path, withKey(setup.keys.lane.key))
  const label = `${method} ${path} ${JSON.stringify(Object.keys(headers))}`
  const ownId = headers['x-request-id'] === undefined
  // A problem body names the request id: with one of the server's own making, only its shape.
  const body = (text: string): string => (ownId ? text.replace(/"request_id":"[^"]*"/, '"request_id":"random"') : text)
  t.same(
    { status: answer.status, headers: comparable(answer.headers, ownId), body: body(answer.body) },
    { status: fastify.status, headers: comparable(fastify.headers, ownId), body: body(fastify.body) },
    `${label}: the same answer`,
  )
  return { answer, byLane: lane.served === before + 1 }
}

const CLOCK = new Date('2027-03-10T12:00:00Z')
const ID = { 'x-request-id': 'lane-test-1' }

t.test('the lane answers plain lookups exactly as the route does, and hands over the rest', async (t) => {
  const clock = new TestClock(CLOCK)
  const testApp = await buildTestApp(t, { clock, env: { QUOTA_FREE: '1000' } })
  t.ok(testApp.app.verseLane, 'an app without per-request logs, on the in-process counter, has the lane')
  const baseUrl = await listening(testApp.app)
  const setup = { testApp, baseUrl, keys: await keyPair(testApp) }
  const warm = await both(t, setup, '/api/v1/verse/john-3-16')
  t.notOk(warm.byLane, "a key's first lookup goes to the route, which loads its count from the ledger")

  const answered: Array<[string, Record<string, string>?]> = [
    ['/api/v1/verse/john-3-16'],
    ['/api/v1/verse/john-3-16?style=faithful'],
    ['/api/v1/verse/john-3-16?style=casual'],
    ['/api/v1/verse/john-3-16?style=all', { 'x-api-key': 'KEY', ...ID }],
    ['/api/v1/verse/JN-3-16?style=all', { 'x-api-key': 'KEY', ...ID }],
    ['/api/v1/verse/genesis-1-1', { authorization: 'Bearer KEY', ...ID }],
    ['/api/v1/verse/psalms-23-1?style=casual', { 'x-api-key': 'KEY', origin: 'https://app.example', ...ID }],
    // Field names in any case: the lane reads the raw header lines.
    ['/api/v1/verse/psalms-23-2', { 'X-API-Key': 'KEY', ORIGIN: 'https://app.example', 'X-Request-ID': 'lane-test-2' }],
  ]
  let served = 0
  for (const [path, headers] of answered) {
    const { answer, byLane } = await both(t, setup, path, headers)
    t.equal(answer.status, 200, `${path}: 200`)
    t.ok(byLane, `${path}: answered by the lane`)
    if (byLane) served++
  }
  const plain = await both(t, setup, '/api/v1/verse/john-3-16')
  t.ok(plain.byLane)
  t.match(plain.answer.headers['x-request-id'], UUID, 'a request id of its own when none is sent')
  served++

  const etag = String(plain.answer.headers.etag)
  const handedOver: Array<[string, Record<string, string>?, string?]> = [
    ['/api/v1/verse/john-3-99', { 'x-api-key': 'KEY', ...ID }],
    ['/api/v1/verse/not-a-verse', { 'x-api-key': 'KEY', ...ID }],
    ['/api/v1/verse/john-3-16?style=bogus', { 'x-api-key': 'KEY', ...ID }],
    ['/api/v1/verse/john-3-16?style=all&extra=1', { 'x-api-key': 'KEY', ...ID }],
    ['/api/v1/verse/john-3-16?', { 'x-api-key': 'KEY', ...ID }],
    ['/api/v1/verse/john%2D3-16', { 'x-api-key': 'KEY', ...ID }],
    ['/api/v1/verse/john-3-16/', { 'x-api-key': 'KEY', ...ID }],
    [`/api/v1/verse/${'a'.repeat(201)}`, { 'x-api-key': 'KEY', ...ID }],
    ['/api/v1/verse/john-3-16', { 'x-api-key': 'KEY', 'if-none-match': etag, ...ID }],
    ['/api/v1/verse/john-3-16', { 'x-api-key': 'KEY', 'if-none-match': '"other"', ...ID }],
    ['/api/v1/verse/john-3-16', { ...ID }],
    ['/api/v1/verse/john-3-16', { 'x-api-key': 'pv_notakey', ...ID }],
    ['/api/v1/verse/john-3-16', { authorization: 'Bearer not-a-key', ...ID }],
    ['/api/v1/verse/john-3-16', { 'x-api-key': 'KEY', ...ID }, 'HEAD'],
  ]
  for (const [path, headers, method] of handedOver) {
    const { answer, byLane } = await both(t, setup, path, headers, method)
    t.notOk(byLane, `${method ?? 'GET'} ${path}: handed over (${answer.status})`)
  }

  t.test('what the lane answered was counted and journalled like the route', async (t) => {
    const period = monthPeriod(clock.now()).id
    const usage = testApp.services.usage
    const lane = await usage.breakdown([setup.keys.lane.id], period)
    const fastify = await usage.breakdown([setup.keys.fastify.id], period)
    t.same(
      [lane.total, lane.byEndpoint, lane.byStyle],
      [fastify.total, fastify.byEndpoint, fastify.byStyle],
      'the two keys were counted alike, by endpoint and style',
    )
    t.ok(lane.total > served, 'the lane answers and the counted answers handed over')
    t.equal(lane.byStyle.all, 3, 'style=all: twice by the lane, once with an extra parameter by the route')
  })

  t.test('a field the lane reads, sent twice: the route decides what that means', async (t) => {
    const lane = testApp.app.verseLane
    // A key of its own, so that the pair above stays counted alike.
    const { key } = await createTestKey(testApp, { tier: 'free', name: 'twice' })
    await viaServer(t, baseUrl, 'GET', '/api/v1/verse/john-3-16', { 'x-api-key': key })
    const plain = lane?.served ?? 0
    await viaServer(t, baseUrl, 'GET', '/api/v1/verse/john-3-16', { 'x-api-key': key })
    t.equal(lane?.served, plain + 1, 'once each: the lane answers')
    for (const [name, value] of [
      ['x-api-key', key],
      ['x-request-id', 'twice'],
      ['origin', 'https://app.example'],
    ] as const) {
      const headers: Record<string, string | string[]> = { 'x-api-key': key, [name]: [value, value] }
      const answer = await viaServer(t, baseUrl, 'GET', '/api/v1/verse/john-3-16', headers)
      t.equal(lane?.served, plain + 1, `${name} twice: handed over (${answer.status})`)
    }
  })

  t.test('a representation not built yet: the route builds it, then the lane sends it', async (t) => {
    const lane = testApp.app.verseLane
    const before = lane?.served
    const server = await viaServer(t, baseUrl, 'GET', '/api/v1/verse/john-3-17?style=casual', { 'x-api-key': setup.keys.lane.key, ...ID })
    t.equal(server.status, 200)
    t.equal(lane?.served, before, 'the first lookup of a (verse, style) is handed over')
    const fastify = await viaFastify(testApp.app, 'GET', '/api/v1/verse/john-3-17?style=casual', { 'x-api-key': setup.keys.fastify.key, ...ID })
    t.same(comparable(server.headers, false), comparable(fastify.headers, false))
    const again = await both(t, setup, '/api/v1/verse/john-3-17?style=casual', { 'x-api-key': 'KEY', ...ID })
    t.ok(again.byLane, 'the next one takes the lane')
  })

  t.test('a key restricted to domains goes to the route', async (t) => {
    const restricted = { ...setup, keys: await keyPair(testApp, ['app.example']) }
    for (const headers of [
      { 'x-api-key': 'KEY', origin: 'https://app.example', ...ID },
      { 'x-api-key': 'KEY', origin: 'https://other.example', ...ID },
    ]) {
      const { byLane } = await both(t, restricted, '/api/v1/verse/john-3-16', headers)
      t.notOk(byLane)
    }
  })
})

t.test('a random walk over verse paths: the lane and the route never disagree', async (t) => {
  const testApp = await buildTestApp(t, { clock: new TestClock(CLOCK), env: { QUOTA_FREE: '100000' } })
  const setup = await warmed(t, { testApp, baseUrl: await listening(testApp.app), keys: await keyPair(testApp) })
  const pieces = [
    'john',
    'JOHN',
    'jn',
    'gen',
    '1-john',
    '3',
    '16',
    '0',
    '999',
    '-',
    '--',
    '%2D',
    '%41',
    '?',
    '&',
    '=',
    'style',
    'style=',
    'faithful',
    'casual',
    'all',
    '_',
    '~',
    ';',
  ]
  // No '.': app.inject() resolves dot segments as a URL parser does, where a socket's path is taken as sent.
  // A fixed seed: a failure names a path that can be tried again.
  let seed = 20261124
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed % n
  }
  let answered = 0
  for (let i = 0; i < 150; i++) {
    let suffix = ''
    for (let j = 1 + next(6); j > 0; j--) suffix += pieces[next(pieces.length)]
    const path =
      i % 3 === 0 ? `/api/v1/verse/john-3-${1 + next(36)}${['', '?style=all', '?style=casual', '?style=faithful'][next(4)]}` : `/api/v1/verse/${suffix}`
    const { answer, byLane } = await both(t, setup, path, { 'x-api-key': 'KEY', 'x-request-id': `walk-${i}` })
    t.not(answer.status, 500, `${path}: no 500`)
    if (byLane) answered++
  }
  t.ok(answered > 0, `the lane answered ${answered} of the walk's lookups`)
})

t.test('per-second limit and monthly quota: the lane hands over, the route refuses, nothing is counted twice', async (t) => {
  const clock = new TestClock(CLOCK)
  const testApp = await buildTestApp(t, { clock, env: { QUOTA_FREE: '4', RATE_LIMIT_FREE: '3' } })
  const setup = { testApp, baseUrl: await listening(testApp.app), keys: await keyPair(testApp) }
  const period = monthPeriod(clock.now()).id
  // The warm-up lookup is the first of the limit's window and of the quota.
  await warmed(t, setup)

  const first = await both(t, setup, '/api/v1/verse/john-3-16', { 'x-api-key': 'KEY', ...ID })
  const second = await both(t, setup, '/api/v1/verse/john-3-16', { 'x-api-key': 'KEY', ...ID })
  t.ok(first.byLane && second.byLane, "three lookups in one second, the warm-up's among them: the lane answers the last two")
  const third = await both(t, setup, '/api/v1/verse/john-3-16', { 'x-api-key': 'KEY', ...ID })
  t.equal(third.answer.status, 429)
  t.equal((JSON.parse(third.answer.body) as Problem).code, 'rate_limited', 'the fourth in that second is over the per-second limit')
  t.notOk(third.byLane)
  t.equal(await testApp.services.usage.keyTotal(setup.keys.lane.id, period), 3, 'the refused lookup was not counted')

  clock.set(new Date(CLOCK.getTime() + 1_000))
  const fourth = await both(t, setup, '/api/v1/verse/john-3-16', { 'x-api-key': 'KEY', ...ID })
  t.ok(fourth.byLane, 'the next second: the lane again')
  t.equal(fourth.answer.headers['x-ratelimit-remaining'], '0', 'the last query of the month')
  const fifth = await both(t, setup, '/api/v1/verse/john-3-16', { 'x-api-key': 'KEY', ...ID })
  t.equal(fifth.answer.status, 429)
  t.equal((JSON.parse(fifth.answer.body) as Problem).code, 'quota_exceeded', 'then the monthly quota is used up')
  t.notOk(fifth.byLane)
  t.equal(await testApp.services.usage.keyTotal(setup.keys.lane.id, period), 4, 'four lookups counted, the quota exactly')
})

t.test('the HTTP metrics count what the lane answers under the route', async (t) => {
  const token = 'lane-metrics-token-0123456789'
  const testApp = await buildTestApp(t, { clock: new TestClock(CLOCK), env: { METRICS_TOKEN: token, QUOTA_FREE: '100' } })
  const setup = await warmed(t, { testApp, baseUrl: await listening(testApp.app), keys: await keyPair(testApp) })
  for (let i = 0; i < 3; i++) await both(t, setup, '/api/v1/verse/john-3-16', { 'x-api-key': 'KEY', ...ID })
  t.equal(testApp.app.verseLane?.served, 3, 'Fastify built the representation first each time; the lane answered the three')
  const scrape = await testApp.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } })
  const count = sampleOf(parseExposition(scrape.body), 'plainverse_http_requests_total', { route: '/api/v1/verse/:slug', method: 'GET', status: '200' })
  t.equal(count, 8, "the warm-up's two, three through Fastify, the lane's three")
})

t.test('no lane where Fastify logs every request', async (t) => {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() })
  const info = await buildTestApp(t, { logger: pino({ level: 'info' }, sink) })
  t.equal(info.app.verseLane, undefined, 'info: Fastify logs each request, the lane would not')
  const warn = await buildTestApp(t, { logger: pino({ level: 'warn' }, sink) })
  t.ok(warn.app.verseLane, 'warn: no request lines, the lane answers')
})

t.test(
  'no lane on a shared counter',
  { skip: REDIS_URL === undefined ? 'Redis suites skipped: REDIS_URL is not set (e.g. REDIS_URL=redis://127.0.0.1:6379)' : false },
  async (t) => {
    const { app } = await buildTestApp(t, { env: { REDIS_URL: REDIS_URL ?? '' } })
    t.equal(app.verseLane, undefined, 'on Redis every count is a round trip: the route answers')
  },
)
