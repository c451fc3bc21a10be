/**
 * buildApp(deps): the Fastify application with every capability registered. It never
 * listens; server.ts does, and tests call `app.inject()`.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { routes } from '../generated/route-schemas.js'
import type { Config } from './config.js'
import type { ContentStore } from './content/content.store.js'
import { AppError, installErrorHandling, sendProblem } from './errors.js'
import type { DatabaseHandle } from './infra/database.js'
import { registerMetaRoutes } from './meta/meta.routes.js'
import type { VerseStore } from './verses/verse.store.js'
import { registerVerseRoutes } from './verses/verses.routes.js'
import { VersesService } from './verses/verses.service.js'

/** Everything the app needs, created once by the caller and passed in. */
export interface AppDeps {
  readonly config: Config
  readonly database: DatabaseHandle
  readonly verses: VerseStore
  readonly content: ContentStore
  /** A pino logger; omit for silence (tests). */
  readonly logger?: FastifyBaseLogger
  /** Readiness as seen by /readyz; defaults to always ready. */
  readonly isReady?: () => boolean
}

/**
 * Builds the app.
 * @example const app = await buildApp(deps); const res = await app.inject('/api/v1/verse/john-3-16')
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.logger === undefined ? { logger: false } : { loggerInstance: deps.logger }),
    // Slugs are checked by the verse service, which answers 404 for long garbage; the
    // router's own limit would answer before it with a body of its own.
    routerOptions: { maxParamLength: 10_000 },
    // Errors raised before routing (a malformed URL) get the same problem body as the rest.
    frameworkErrors: (error, request, reply) => {
      sendProblem(reply, request, deps.config.publicBaseUrl, new AppError('invalid_parameter', `The request URL is malformed: ${error.message}`))
    },
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } },
  })

  installErrorHandling(app, deps.config.publicBaseUrl, Object.values(routes))

  const verses = new VersesService({ verses: deps.verses, content: deps.content, config: deps.config })
  registerVerseRoutes(app, verses)
  await registerMetaRoutes(app, {
    isReady: deps.isReady ?? (() => true),
    verseCount: () => deps.verses.size,
    database: deps.database,
    publicBaseUrl: deps.config.publicBaseUrl,
  })
  await app.ready()
  return app
}
