/**
 * /readyz: 200 when ready; otherwise 503 `not_ready` with Retry-After, the same short wait as
 * the other temporary 503s (a start, a shutdown or a backend coming back all pass). The
 * contract requires the header on this 503 (NotReady); the value is asserted here.
 */
import t from 'tap'
import type { Problem } from '../../src/errors.js'
import { buildTestApp } from '../helpers/app.js'
import { call } from '../helpers/http.js'

t.test('/readyz answers 503 not_ready with Retry-After: 2 until the instance is ready', async (t) => {
  let ready = false
  const { app } = await buildTestApp(t, { isReady: () => ready })
  const starting = await call(t, app, { url: '/readyz' })
  t.equal(starting.statusCode, 503)
  t.equal(starting.json<Problem>().code, 'not_ready')
  t.equal(starting.json<Problem>().detail, 'The service is starting or shutting down.')
  t.equal(starting.headers['retry-after'], '2')
  ready = true
  const served = await call(t, app, { url: '/readyz' })
  t.equal(served.statusCode, 200)
  t.same(served.json(), { status: 'ready', verses: 31102, database: 'pglite' })
  t.equal(served.headers['retry-after'], undefined, 'no Retry-After once ready')
})

t.test('/readyz answers 503 not_ready with Retry-After when the quota counter does not answer', async (t) => {
  const { app, services } = await buildTestApp(t)
  // The embedded counter always answers; stand in a counter whose ping fails as Redis's does when down.
  const ping = services.counter.ping.bind(services.counter)
  services.counter.ping = async () => {
    throw new Error('down')
  }
  t.teardown(() => {
    services.counter.ping = ping
  })
  const res = await call(t, app, { url: '/readyz' })
  t.equal(res.statusCode, 503)
  t.equal(res.json<Problem>().detail, 'The quota counter backend (Redis) does not answer.')
  t.equal(res.headers['retry-after'], '2')
})
