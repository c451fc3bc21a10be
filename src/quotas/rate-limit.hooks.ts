/**
 * Where the per-second rate limit applies: per key (by tier) on the routes that take an API
 * key, right after the key is verified; per client address on every other route. `OPTIONS`
 * preflights and the health probes are never limited (browsers and load balancers send them
 * on their own).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { RateLimitConfig } from '../config.js'
import type { ApiKeyAuth } from '../keys/api-key.plugin.js'
import type { KeyRecord } from '../keys/keys.repository.js'
import { rateLimited, type RateDecision, type RateLimiter } from './rate-limiter.js'

/** An onRequest callback hook. */
export type RequestHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void

/** Paths that are never limited: a load balancer's probes must always get their answer. */
const UNLIMITED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz'])

/** Passes the request on, or fails it with the 429, once the decision is known (without a promise when it is known at once). */
function settle(decision: RateDecision | Promise<RateDecision>, scope: 'key' | 'address', now: () => number, done: HookHandlerDoneFunction): void {
  if (decision instanceof Promise) {
    decision.then(
      (outcome) => finish(outcome, scope, now, done),
      (error: Error) => done(error),
    )
  } else finish(decision, scope, now, done)
}

function finish(outcome: RateDecision, scope: 'key' | 'address', now: () => number, done: HookHandlerDoneFunction): void {
  if (outcome.allowed) done()
  else done(rateLimited(outcome, scope, now()))
}

/**
 * The per-second limit of a verified key, by its tier: its decision, or undefined when the
 * tier has no limit (0 is off).
 */
export type KeyLimit = (key: KeyRecord) => RateDecision | Promise<RateDecision> | undefined

/**
 * Counts one request of a key against its tier's per-second limit: the step shared by the
 * key hook below and the verse lane (verses/verse.lane.ts).
 * @example const decision = perKeyLimit(limiter, config.rateLimits)(key)
 */
export function perKeyLimit(limiter: RateLimiter, limits: RateLimitConfig): KeyLimit {
  /** `key:<id>` per key id, built once: the limiter's id for the key's window. */
  const ids = new Map<string, string>()
  return (key) => {
    const perSecond = limits.perKey[key.tier]
    if (perSecond === 0) return undefined
    let id = ids.get(key.id)
    if (id === undefined) {
      // Bounded like the keys themselves; a clear now and then costs one string per key.
      if (ids.size >= 100_000) ids.clear()
      ids.set(key.id, (id = `key:${key.id}`))
    }
    return limiter.hit(id, perSecond)
  }
}

/**
 * Wraps the API-key check so that a verified key is also held to its tier's per-second limit
 * (`keyLimit`). A key answered from memory and counted in-process costs no promise and no
 * closure: this runs on every counted request.
 * @example const authenticate = limitKeys(auth, perKeyLimit(limiter, config.rateLimits), () => Date.now())
 */
export function limitKeys(auth: ApiKeyAuth, keyLimit: KeyLimit, now: () => number): RequestHook {
  const limit = (request: FastifyRequest, done: HookHandlerDoneFunction): void => {
    const key = request.apiKey
    const decision = key === undefined ? undefined : keyLimit(key)
    if (decision === undefined) return done()
    settle(decision, 'key', now, done)
  }
  return (request, reply, done) => {
    let known: KeyRecord | undefined
    try {
      known = auth.authenticateNow(request)
    } catch (error) {
      return done(error as Error)
    }
    if (known !== undefined) return limit(request, done)
    auth.authenticate(request, reply, (error) => {
      if (error !== undefined && error !== null) return done(error)
      limit(request, done)
    })
  }
}

/**
 * Adds the per-address limit to every route registered from now on that does not use
 * `keyHook` (those are limited per key), except preflights and the health probes. Call it
 * before any route is registered. A limit of 0 is off.
 */
export function limitAddresses(app: FastifyInstance, limiter: RateLimiter, perAddress: number, keyHook: RequestHook, now: () => number): void {
  if (perAddress === 0) return
  const byAddress: RequestHook = (request, _reply, done) => settle(limiter.hit(`ip:${request.ip}`, perAddress), 'address', now, done)
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat()
    if (methods.every((method) => method === 'OPTIONS') || UNLIMITED_PATHS.has(route.url ?? '')) return
    const hooks: RequestHook[] = route.onRequest === undefined ? [] : ([route.onRequest].flat() as RequestHook[])
    if (hooks.includes(keyHook)) return
    route.onRequest = [byAddress, ...hooks]
  })
}
