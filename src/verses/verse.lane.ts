/**
 * The verse lane: the one request that dominates the API's traffic, a plain verse lookup
 * with a valid key (`GET /api/v1/verse/{slug}[?style=...]`), answered straight from node:http's
 * request event, before Fastify's routing, hooks, validation and reply pipeline. Everything
 * else, and every verse lookup the lane cannot answer in full, goes to Fastify untouched.
 *
 * Why: the metered lookup must cost little more than a bare node:http server (README,
 * Benchmark). Through Fastify, the route's two hooks, its validation and thirteen headers set
 * one by one cost about a third of its throughput; the lane does the same work (the key, the
 * per-second limit, the monthly quota, the usage journal, the same headers and bytes) and
 * nothing else.
 *
 * The rule that keeps the two paths one behaviour: the lane answers only a 200 it can send
 * exactly as the route would (same status, headers and body: test/verses/verse-lane.test.ts
 * compares them), and decides to hand over before it changes anything, with two exceptions
 * that hand over afterwards and stay exact: a key over its per-second limit (its window only
 * grows, so Fastify's own check refuses it too) and a journal that failed to write (the
 * query's unit was given back, so Fastify counts it afresh or answers the failure itself).
 * What it hands over:
 * - anything but GET of that path, a query other than nothing or one `style=` of the three,
 *   a slug with characters beyond letters, digits and `-` (percent-encodings), a request body;
 * - If-None-Match (the 304 and its conditions), a verse that is not found, a representation
 *   not built yet (the route builds it on the first request);
 * - no key, a key that memory cannot vouch for, a key restricted to domains;
 * - a quota the counter does not hold in this process (Redis, or not loaded yet) or used up.
 * It runs only where the route would log nothing per request (the log level is above info)
 * and with a counter in this process (the embedded default); the HTTP metrics count its
 * answers as the route's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { API_CORS_HEADERS } from '../http/cors.js'
import { requestIdOf } from '../http/request-id.js'
import { credentialFrom } from '../keys/credentials.js'
import type { KeyVerifier } from '../keys/key-verifier.js'
import type { KeyRecord } from '../keys/keys.repository.js'
import type { HttpMetrics } from '../metrics/http-metrics.js'
import { appendRateLimitHeaders } from '../quotas/quota.headers.js'
import type { QuotaService, QuotaState } from '../quotas/quota.service.js'
import type { KeyLimit } from '../quotas/rate-limit.hooks.js'
import type { RateDecision } from '../quotas/rate-limiter.js'
import type { Representation } from '../http/etag.js'
import { VERSE_CACHE_CONTROL, VERSE_CONTENT_TYPE, type VerseRepresentations } from './verse.representations.js'
import type { StyleSelector, VersesService } from './verses.service.js'

/** A node:http request handler: Fastify's, for what the lane hands over. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void

/** What the lane needs: the services the verse route and its hooks use. */
export interface VerseLaneDeps {
  readonly verses: Pick<VersesService, 'find'>
  readonly representations: VerseRepresentations
  readonly verifier: Pick<KeyVerifier, 'verifyCached'>
  readonly keyLimit: KeyLimit
  readonly quotas: Pick<QuotaService, 'admitsNow' | 'consumeThen'>
  /** The HTTP metrics, when they are on. */
  readonly http?: HttpMetrics
}

const PREFIX = '/api/v1/verse/'
/** The route's pattern, as the HTTP metrics label it. */
const ROUTE = '/api/v1/verse/:slug'
/** Slugs the lane takes: no percent-encoding to undo, at most the contract's 200 characters. */
const PLAIN_SLUG = /^[A-Za-z0-9-]{1,200}$/
/** The only queries the lane takes, with the style each names. */
const QUERIES: ReadonlyMap<string, StyleSelector> = new Map([
  ['style=faithful', 'faithful'],
  ['style=casual', 'casual'],
  ['style=all', 'all'],
])

/** The request header fields the lane reads. */
interface LaneFields {
  apiKey: string | undefined
  authorization: string | undefined
  requestId: string | undefined
  origin: boolean
}

/**
 * The fields the lane reads, from the raw header lines (Node makes `request.headers`, an object
 * built field by field, only when it is first read); undefined when the lane must hand the
 * request over: a field that asks for more than a plain lookup (a condition, a body) or one of
 * its fields twice (Node would join or drop the repeats, the route decides what that means).
 */
function laneFields(raw: readonly string[]): LaneFields | undefined {
  const fields: LaneFields = { apiKey: undefined, authorization: undefined, requestId: undefined, origin: false }
  for (let i = 0; i < raw.length; i += 2) {
    const value = raw[i + 1]
    switch (raw[i]?.toLowerCase()) {
      case 'x-api-key':
        if (fields.apiKey !== undefined) return undefined
        fields.apiKey = value
        break
      case 'authorization':
        if (fields.authorization !== undefined) return undefined
        fields.authorization = value
        break
      case 'x-request-id':
        if (fields.requestId !== undefined) return undefined
        fields.requestId = value
        break
      case 'origin':
        if (fields.origin) return undefined
        fields.origin = true
        break
      case 'if-none-match':
      case 'content-length':
      case 'transfer-encoding':
        return undefined
    }
  }
  return fields
}

/** The verse lane of one app. */
export class VerseLane {
  #closing = false
  #served = 0

  constructor(private readonly deps: VerseLaneDeps) {}

  /** Verse lookups the lane answered itself since it was made. */
  get served(): number {
    return this.#served
  }

  /** From now on everything goes to Fastify (which answers 503 while the app closes). */
  close(): void {
    this.#closing = true
  }

  /**
   * Answers the request when it is a verse lookup the lane can answer in full, else hands it
   * to `next` as it came.
   */
  handle(request: IncomingMessage, response: ServerResponse, next: RequestHandler): void {
    const url = request.url
    if (this.#closing || request.method !== 'GET' || url === undefined || !url.startsWith(PREFIX)) return next(request, response)
    const query = url.indexOf('?', PREFIX.length)
    const slug = query === -1 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, query)
    const style = query === -1 ? 'faithful' : QUERIES.get(url.slice(query + 1))
    const fields = style === undefined || !PLAIN_SLUG.test(slug) ? undefined : laneFields(request.rawHeaders)
    if (style === undefined || fields === undefined) return next(request, response)
    const verse = this.deps.verses.find(slug)
    const representation = verse === undefined ? undefined : this.deps.representations.peek(verse, style)
    if (representation === undefined) return next(request, response)
    const credential = credentialFrom(fields.apiKey, fields.authorization)
    const check = credential?.kind === 'api-key' ? this.deps.verifier.verifyCached(credential.value) : undefined
    if (check === undefined || !check.ok || check.key.allowedDomains.length > 0) return next(request, response)
    const key = check.key
    if (!this.deps.quotas.admitsNow(key)) return next(request, response)
    const started = this.deps.http === undefined ? 0 : performance.now()
    const decision = this.deps.keyLimit(key)
    if (decision instanceof Promise) {
      decision.then(
        (later) => this.#charge(later, request, response, next, fields, key, style, representation, started),
        () => next(request, response),
      )
    } else this.#charge(decision, request, response, next, fields, key, style, representation, started)
  }

  #charge(
    decision: RateDecision | undefined,
    request: IncomingMessage,
    response: ServerResponse,
    next: RequestHandler,
    fields: LaneFields,
    key: KeyRecord,
    style: StyleSelector,
    representation: Representation,
    started: number,
  ): void {
    if (decision !== undefined && !decision.allowed) return next(request, response)
    // The callback runs at the end of this turn of the event loop, once the query's line is
    // written: always after consumeThen has returned the outcome it reads.
    const outcome = this.deps.quotas.consumeThen(key, 'verse', style, (error) => {
      if (error !== undefined || outcome === undefined) return next(request, response)
      this.#send(response, fields, outcome.state, representation, started)
    })
    if (outcome === undefined || !outcome.allowed) return next(request, response)
  }

  /** The route's 200, header for header, in one write. */
  #send(response: ServerResponse, fields: LaneFields, state: QuotaState, representation: Representation, started: number): void {
    const list = ['x-request-id', requestIdOf(fields.requestId)]
    if (fields.origin) list.push(...API_CORS_HEADERS)
    appendRateLimitHeaders(list, state)
    list.push(
      'etag',
      representation.etag,
      'cache-control',
      VERSE_CACHE_CONTROL,
      'content-type',
      VERSE_CONTENT_TYPE,
      'content-length',
      String(representation.body.length),
    )
    response.writeHead(200, list)
    response.end(representation.body)
    this.#served++
    this.deps.http?.observe(ROUTE, 'GET', 200, performance.now() - started)
  }
}
