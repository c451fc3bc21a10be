/**
 * buildApp(deps): the Fastify application with every capability registered. It never
 * listens; server.ts does, and tests call `app.inject()`.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { routes } from '../generated/route-schemas.js'
import { metricsEnabled, type Config } from './config.js'
import { AppError, installErrorHandling, type KnownRoute, sendProblem } from './errors.js'
import { registerDashboardRoutes } from './dashboard/dashboard.routes.js'
import { OidcClient } from './dashboard/oidc.client.js'
import { SessionStore } from './dashboard/session.store.js'
import { registerDiscoveryRoutes } from './discovery/discovery.routes.js'
import { writeClientError } from './http/client-error.js'
import { requestIdOf } from './http/request-id.js'
import { lazyChildLoggerFactory, logsEveryRequest } from './http/request-logger.js'
import { NO_FRONT, serverFactory } from './http/http-server.js'
import { addCorsHeaders } from './http/cors.js'
import { lazySchemaCompilers } from './http/lazy-schema-compilers.js'
import { installQueryIntegers } from './http/query-integers.js'
import { registerIdentity } from './identity/identity.plugin.js'
import type { DatabaseHandle } from './infra/database.js'
import { epochMs, type Clock } from './infra/clock.js'
import { registerApiKeyAuth } from './keys/api-key.plugin.js'
import { registerKeyRoutes } from './keys/keys.routes.js'
import { MCP_TOOLS } from './mcp/mcp.tools.js'
import { registerMcpRoutes } from './mcp/mcp.routes.js'
import { registerMetaRoutes } from './meta/meta.routes.js'
import { installRequestMetrics } from './metrics/metrics.hook.js'
import type { Metrics } from './metrics/metrics.registry.js'
import { registerMetricsRoutes } from './metrics/metrics.routes.js'
import { registerNarrativeRoutes } from './narratives/narratives.routes.js'
import { registerOperatorRoutes } from './operator/operator.routes.js'
import { registerPassageRoutes } from './passages/passages.routes.js'
import { createMetering } from './quotas/metering.js'
import { limitAddresses, limitKeys, perKeyLimit } from './quotas/rate-limit.hooks.js'
import { registerSearchRoutes } from './search/search.routes.js'
import type { Services } from './services.js'
import { registerUsageRoutes } from './usage/usage.routes.js'
import { registerVerseRoutes } from './verses/verses.routes.js'
import { registerWebRoutes } from './web/web.routes.js'
import type { VerseStore } from './verses/verse.store.js'
import { VerseLane } from './verses/verse.lane.js'
import { VerseRepresentations } from './verses/verse.representations.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The verse lane in front of Fastify, when the app has one (see laneWanted). */
    verseLane: VerseLane | undefined
  }
}

/** Everything the app needs, created once by the caller and passed in. */
export interface AppDeps {
  readonly config: Config
  readonly database: DatabaseHandle
  readonly verses: VerseStore
  readonly services: Services
  readonly clock: Clock
  /** A pino logger; omit for silence (tests). */
  readonly logger?: FastifyBaseLogger
  /** Readiness as seen by /readyz; defaults to always ready. */
  readonly isReady?: () => boolean
  /**
   * What the request hook records and /metrics exposes; required when METRICS_TOKEN or
   * METRICS_PORT is set (server.ts makes them then), ignored otherwise.
   */
  readonly metrics?: Metrics
}

/** Config.trustProxy as Fastify takes it: a hop count becomes "trust the nearest N proxies". */
function trustProxyOption(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust
  return typeof trust === 'boolean' ? trust : [...trust]
}

/**
 * Whether the verse lane may answer in front of Fastify: with the quota counter in this
 * process (with Redis every count is a round trip, and the route waits for it anyway), and
 * where Fastify would log no line per request (the lane writes none).
 */
function laneWanted(deps: AppDeps): boolean {
  const counter = deps.services.counter
  return counter.consumeNow !== undefined && counter.peekNow !== undefined && !logsEveryRequest(deps.logger)
}

/**
 * Builds the app.
 * @example const app = await buildApp(deps); const res = await app.inject('/api/v1/verse/john-3-16')
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, services, clock } = deps
  if (metricsEnabled(config.metrics) && deps.metrics === undefined) throw new Error('METRICS_TOKEN or METRICS_PORT is set: buildApp needs the metrics')
  const metrics = metricsEnabled(config.metrics) ? deps.metrics : undefined
  const metricsToken = config.metrics.token
  const keyLimit = perKeyLimit(services.rateLimiter, config.rateLimits)
  const representations = new VerseRepresentations()
  const lane = laneWanted(deps)
    ? new VerseLane({
        verses: services.verses,
        representations,
        verifier: services.keyVerifier,
        keyLimit,
        quotas: services.quotas,
        ...(metrics === undefined ? {} : { http: metrics.http }),
      })
    : undefined
  const app = Fastify({
    ...(deps.logger === undefined ? { logger: false } : { loggerInstance: deps.logger, childLoggerFactory: lazyChildLoggerFactory }),
    // Slugs are checked by the verse service, which answers 404 for long garbage; the
    // router's own limit would answer before it with a body of its own.
    routerOptions: { maxParamLength: 10_000 },
    // Errors raised before routing (a malformed URL) get the same problem body as the rest.
    frameworkErrors: (error, request, reply) => {
      sendProblem(reply, request, config.publicBaseUrl, new AppError('invalid_parameter', `The request URL is malformed: ${error.message}`))
    },
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    // The server with its limits (HttpLimits), and the verse lane in front of Fastify when there is one.
    serverFactory: serverFactory(lane === undefined ? NO_FRONT : lane.handle.bind(lane), config.http),
    // Bytes that are not HTTP never reach routing: answer them with a problem body too, then close.
    clientErrorHandler: (error, socket) => writeClientError(socket, error, config.publicBaseUrl),
    // The caller's X-Request-Id when it is sane (it ends up in logs and headers), else our own.
    requestIdHeader: false,
    genReqId: (request) => requestIdOf(request.headers['x-request-id']),
    // The client address of the per-address rate limit: behind a load balancer, X-Forwarded-For from the proxies TRUST_PROXY names.
    trustProxy: trustProxyOption(config.trustProxy),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } },
    // Each route's validators and serializers are compiled on its first request: see lazySchemaCompilers.
    schemaController: { compilersFactory: lazySchemaCompilers() },
  })

  app.decorate('verseLane', lane)
  if (lane !== undefined)
    app.addHook('preClose', (done) => {
      lane.close()
      done()
    })
  // The per-second limits go on first, so that every route registered below gets them:
  // per key where the API key is checked, per client address everywhere else.
  const now = (): number => epochMs(clock)
  const authenticate = limitKeys(registerApiKeyAuth(app, services.keyVerifier), keyLimit, now)
  limitAddresses(app, services.rateLimiter, config.rateLimits.perAddress, authenticate, now)
  // What every response carries, in one hook (each hook is a step of its own on every
  // request): the request id, and CORS for the API. A callback hook: it needs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    addCorsHeaders(request, reply)
    done()
  })
  if (metrics !== undefined) installRequestMetrics(app, metrics)
  // Errors on the public pages, and 404s for browsers, are pages in the site's layout.
  const htmlErrors = { problem: services.web.problem.bind(services.web), notFound: services.web.notFound.bind(services.web) }
  // The 405 check looks at the API's own paths only: the pages' catch-all paths (`/:book`...)
  // would make every path look routable, and without METRICS_TOKEN /metrics is no path of
  // this port (404 for every method, not 405). GET /mcp is in the contract only to document its 405.
  const apiRoutes = Object.values(routes).filter(
    (route) => !route.url.startsWith('/:') && route !== routes.getMcp && (route !== routes.getMetrics || metricsToken !== undefined),
  )
  // The preflights are no operations of the contract; the 405 check still names OPTIONS where one answers.
  const knownRoutes: KnownRoute[] = [...apiRoutes]
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && typeof route.url === 'string') knownRoutes.push({ method: 'OPTIONS', url: route.url })
  })
  installErrorHandling(app, config.publicBaseUrl, knownRoutes, htmlErrors)
  // Request bodies are JSON only; anything else is 415 rather than a string that fails validation.
  app.removeContentTypeParser('text/plain')
  installQueryIntegers(app)
  await registerIdentity(app, services.identity, config.auth)

  // One building block for every counted endpoint: the API key, the quota, the headers.
  const metering = createMetering({ authenticate }, services.quotas)
  registerVerseRoutes(app, { verses: services.verses, metering, representations })
  registerNarrativeRoutes(app, { narratives: services.narratives, metering })
  registerPassageRoutes(app, { passages: services.passages, metering })
  registerSearchRoutes(app, { search: services.search, metering })
  registerMcpRoutes(app, {
    verses: services.verses,
    passages: services.passages,
    narratives: services.narratives,
    search: services.search,
    metering,
    config,
  })
  registerKeyRoutes(app, { keys: services.keys, quotas: services.quotas, quotaConfig: config.quotas, usage: services.usage })
  registerOperatorRoutes(app, { operator: services.operator })
  registerUsageRoutes(app, {
    usage: services.usage,
    keys: services.keys,
    quotaConfig: config.quotas,
    quotas: services.quotas,
    verifier: services.keyVerifier,
    clock,
  })
  await registerMetaRoutes(app, {
    isReady: deps.isReady ?? (() => true),
    verseCount: () => deps.verses.size,
    database: deps.database,
    counter: services.counter,
    publicBaseUrl: config.publicBaseUrl,
    contact: { email: config.contactEmail, url: config.legalUrl },
    problemPage: htmlErrors.problem,
  })
  await registerWebRoutes(app, { web: services.web, sitemaps: services.sitemaps })
  await registerDashboardRoutes(app, {
    settings: {
      site: { baseUrl: config.publicBaseUrl, name: config.attributionSource, license: config.attributionLicense },
      contactEmail: config.contactEmail,
      monthly: config.quotas.monthly,
      perSecond: config.rateLimits.perKey,
      maxKeysPerAccount: config.quotas.maxKeysPerAccount,
    },
    dashboard: services.dashboard,
    operator: services.operator,
    sessions: new SessionStore(now),
    oidc:
      config.oidc === undefined ? undefined : new OidcClient(config.oidc, `${config.publicBaseUrl}/dashboard/callback`, config.oidc.issuer.startsWith('http:')),
  })
  registerDiscoveryRoutes(app, {
    settings: {
      publicBaseUrl: config.publicBaseUrl,
      attributionSource: config.attributionSource,
      attributionLicense: config.attributionLicense,
      quotas: config.quotas.monthly,
      contactEmail: config.contactEmail,
      legalUrl: config.legalUrl,
    },
    tools: MCP_TOOLS,
  })
  if (metrics !== undefined && metricsToken !== undefined) registerMetricsRoutes(app, { metrics, token: metricsToken })
  await app.ready()
  return app
}
