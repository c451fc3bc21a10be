/**
 * Where the per-second rate limit applies: per key (by tier) on the routes that take an API
 * key, right after the key is verified; per client address on every other route. `OPTIONS`
 * preflights and the health probes are never limited (browsers and load balancers send them
 * on their own).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { RateLimitConfig } from '../config.js'
import { rateLimited, type RateDecision, type RateLimiter } from './rate-limiter.js'

/** An onRequest callback hook. */
export type RequestHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void

/** Paths that are never limited: a load balancer's probes must always get their answer. */
const UNLIMITED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz'])

/** Passes the request on, or fails it with the 429, once the decision is known (without a promise when it is known at once). */
function settle(decision: RateDecision | Promise<RateDecision>, scope: 'key' | 'address', now: () => number, done: HookHandlerDoneFunction): void {
  const finish = (outcome: RateDecision): void => (outcome.allowed ? done() : done(rateLimited(outcome, scope, now())))
  if (decision instanceof Promise) decision.then(finish, (error: Error) => done(error))
  else finish(decision)
}

/**
 * Wraps the API-key hook so that a verified key is also held to its tier's per-second limit
 * (a limit of 0 is off).
 * @example const authenticate = limitKeys(auth.authenticate, limiter, config.rateLimits, () => Date.now())
 */
export function limitKeys(authenticate: RequestHook, limiter: RateLimiter, limits: RateLimitConfig, now: () => number): RequestHook {
  return (request, reply, done) => {
    authenticate(request, reply, (error) => {
      if (error !== undefined && error !== null) return done(error)
      const key = request.apiKey
      const limit = key === undefined ? 0 : limits.perKey[key.tier]
      if (key === undefined || limit === 0) return done()
      settle(limiter.hit(`key:${key.id}`, limit), 'key', now, done)
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
