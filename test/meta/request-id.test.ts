/**
 * Request ids: every response carries X-Request-Id (the caller's when it is sane, else one
 * the server makes), problem bodies carry the same id, and every log line of the request
 * names it, while the API key sent never appears in a log line.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import t from 'tap'
import type { Problem } from '../../src/errors.js'
import { requestIdOf } from '../../src/http/request-id.js'
import { call } from '../helpers/http.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

t.test('requestIdOf keeps sane ids and replaces the rest', async (t) => {
  t.equal(requestIdOf('abc-123'), 'abc-123')
  t.equal(requestIdOf('trace:01.A_b'), 'trace:01.A_b')
  for (const bad of [undefined, '', 'a b', 'x'.repeat(129), 'a\nb', 'é', ['a', 'b']]) t.match(requestIdOf(bad), UUID, JSON.stringify(bad))
})

t.test('the ids made are random version 4 UUIDs, a new one every time', async (t) => {
  const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
  // Over a thousand: several refills of the random bytes they are drawn from.
  const ids = Array.from({ length: 1_000 }, () => requestIdOf(undefined))
  t.ok(
    ids.every((id) => V4.test(id)),
    'version and variant bits set',
  )
  t.equal(new Set(ids).size, ids.length, 'no id repeats')
})

t.test('X-Request-Id on responses, in problem bodies and in the logs', async (t) => {
  const lines: Array<Record<string, unknown>> = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  const testApp = await buildTestApp(t, { logger: pino({ level: 'info' }, sink) })
  const { app } = testApp
  const { key } = await createTestKey(testApp)

  const made = await call(t, app, { url: '/healthz' })
  t.match(made.headers['x-request-id'], UUID, 'an id is made when none is sent')
  const other = await call(t, app, { url: '/healthz' })
  t.not(other.headers['x-request-id'], made.headers['x-request-id'], 'one per request')

  const echoed = await call(t, app, { url: '/healthz', headers: { 'x-request-id': 'client-trace-7' } })
  t.equal(echoed.headers['x-request-id'], 'client-trace-7', 'a sane id is kept')
  const replaced = await call(t, app, { url: '/healthz', headers: { 'x-request-id': 'bad id\twith tab' } })
  t.match(replaced.headers['x-request-id'], UUID, 'an unsafe id is replaced')

  const problem = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-request-id': 'trace-401' } })
  t.equal(problem.statusCode, 401)
  t.equal(problem.json<Problem>().request_id, 'trace-401', 'the problem body names the request')
  const notFound = await call(t, app, { url: '/api/v1/nothing-here' })
  t.equal(notFound.json<Problem>().request_id, notFound.headers['x-request-id'])

  const served = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key, 'x-request-id': 'trace-200' } })
  t.equal(served.statusCode, 200)
  const ofRequest = lines.filter((l) => l.reqId === 'trace-200')
  t.ok(ofRequest.length >= 2, 'the request and its response are logged with the id')
  t.notOk(
    lines.some((l) => JSON.stringify(l).includes(key)),
    'the API key never appears in a log line',
  )
})
