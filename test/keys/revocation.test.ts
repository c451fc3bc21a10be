/**
 * Revocation reaches every instance within 5 seconds (the contract's bound for DELETE
 * /api/v1/keys/{id}): two instances on one database, both holding the key in their caches.
 */
import t from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import { Redis } from 'ioredis'
import type { components } from '../../generated/api-types.js'
import type { Problem } from '../../src/errors.js'
import { buildTestApp } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { signToken, TEST_JWT_SECRET } from '../helpers/tokens.js'

type CreatedKey = components['schemas']['CreatedKey']

const REDIS_URL = process.env.REDIS_URL === '' ? undefined : process.env.REDIS_URL
const BOUND_MS = 5_000
const POLL_MS = 250
const VERSE = '/api/v1/verse/john-3-16'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

t.test('revocation reaches a second instance within 5 seconds', async (t) => {
  const env = { AUTH_JWT_SECRET: TEST_JWT_SECRET, ...(REDIS_URL === undefined ? {} : { REDIS_URL }) }
  const a = await buildTestApp(t, { env })
  // Background work (key-change polling, usage flushing) runs as in server.ts.
  a.services.start()
  const alice = { authorization: `Bearer ${signToken('alice')}` }

  const createdRes = await call(t, a.app, {
    method: 'POST',
    url: '/api/v1/keys',
    headers: { ...alice, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'shared' }),
  })
  t.equal(createdRes.statusCode, 201)
  const created = createdRes.json<CreatedKey>()
  t.teardown(async () => {
    if (REDIS_URL === undefined) return
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 })
    const keys = await redis.keys(`plainverse:quota:${created.id}:*`)
    if (keys.length > 0) await redis.unlink(...keys)
    redis.disconnect()
  })

  // The second instance lives in a subtest so that it is closed before the first closes the database.
  await t.test('two instances', async (t) => {
    const b = await buildTestApp(t, { env, database: a.database })
    b.services.start()
    const verse = (app: typeof a.app, headers: Record<string, string>): Promise<LightMyRequestResponse> => call(t, app, { url: VERSE, headers })

    t.equal((await verse(a.app, { 'x-api-key': created.key })).statusCode, 200, 'A accepts the key (and caches it)')
    t.equal((await verse(b.app, { 'x-api-key': created.key })).statusCode, 200, 'B accepts the key (and caches it)')
    t.equal((await verse(b.app, { authorization: `Bearer ${created.key}` })).statusCode, 200, 'B accepts the Bearer form too')

    const revoked = await call(t, a.app, { method: 'DELETE', url: `/api/v1/keys/${created.id}`, headers: alice })
    t.equal(revoked.statusCode, 204, 'revoked on A')
    const revokedAt = performance.now()
    const pollsAtRevocation = b.services.keyVerifier.completedPolls

    const onA = await verse(a.app, { 'x-api-key': created.key })
    t.equal(onA.statusCode, 403, 'A rejects it at once')
    t.equal(onA.json<Problem>().code, 'invalid_api_key')

    // Behaviour, not a stopwatch: B must reject the key by the time a poll that started after the
    // revocation has completed (the second one completed after it). The shipped poll interval
    // (2 s, test/identity/identity.test.ts) puts that within the contract's 5 seconds.
    let rejectedAfter: number | undefined
    const seen = new Set<number>()
    for (;;) {
      const polls = b.services.keyVerifier.completedPolls
      const res = await verse(b.app, { 'x-api-key': created.key })
      seen.add(res.statusCode)
      if (res.statusCode === 403 && res.json<Problem>().code === 'invalid_api_key') {
        rejectedAfter = performance.now() - revokedAt
        break
      }
      if (polls >= pollsAtRevocation + 2) break
      await sleep(POLL_MS)
    }
    t.ok(rejectedAfter !== undefined, `B rejects the key once it has polled after the revocation (saw ${[...seen].join(', ')})`)
    t.comment(`B rejected the key after ${rejectedAfter === undefined ? '(never)' : Math.round(rejectedAfter)} ms (contract: ${BOUND_MS} ms)`)
    t.ok(
      [...seen].every((s) => s === 200 || s === 403),
      'until then B answers 200, never an error',
    )

    const bearer = await verse(b.app, { authorization: `Bearer ${created.key}` })
    t.equal(bearer.statusCode, 403, 'B rejects the Bearer form as well')
    const usage = await call(t, b.app, { url: '/api/v1/usage', headers: { 'x-api-key': created.key } })
    t.equal(usage.statusCode, 403, "B's /usage rejects it too")
    const list = await call(t, b.app, { url: '/api/v1/keys', headers: alice })
    t.same(list.json<{ data: unknown[] }>().data, [], 'the key is gone from the listing on B')
    await b.services.usage.flush()
  })
})
