/** The contract, the human-readable docs, and health probes. */
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { routes } from '../../generated/route-schemas.js'
import { withCodeSamples } from '../discovery/code-samples.js'
import type { OpenApiDocument } from '../discovery/openapi-view.js'
import { AppError, codeOfProblemType, ERROR_CATALOGUE, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors.js'
import { sendTagged } from '../http/etag.js'
import { projectPath } from '../infra/paths.js'
import { docsPage, DOCS_SECURITY_POLICY, referenceScript } from './docs.page.js'
import { pathOf } from '../http/url-path.js'

/** What the probes look at. */
export interface MetaDeps {
  /** False before start-up finishes and once shutdown begins. */
  readonly isReady: () => boolean
  readonly verseCount: () => number
  readonly database: { readonly kind: 'pglite' | 'postgres'; ping(): Promise<void> }
  /** The quota counter backend (in-process or Redis). */
  readonly counter: { ping(): Promise<void> }
  readonly publicBaseUrl: string
  /** CONTACT_EMAIL and LEGAL_URL: the served contract's `info.contact`. */
  readonly contact: { readonly email: string; readonly url: string }
  /** A problem type's page, in the public pages' layout. */
  readonly problemPage: (problem: { title: string; status: number; code: string; detail: string }, path: string) => string
}

/**
 * The readiness probe's 503. Every cause passes (a start, a shutdown, a backend coming back), so
 * it carries Retry-After like the other temporary 503s; a load balancer moves on, a client waits.
 */
function notReady(detail: string): AppError {
  return new AppError('not_ready', detail, { headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } })
}

/** Registers /healthz, /readyz, /api/v1/openapi.{json,yaml} and /docs. */
export async function registerMetaRoutes(app: FastifyInstance, deps: MetaDeps): Promise<void> {
  const yamlText = readFileSync(projectPath('openapi.yaml'), 'utf8')
  const document = JSON.parse(readFileSync(projectPath('generated', 'openapi.json'), 'utf8')) as OpenApiDocument & { info: { contact?: { name?: string } } }
  // Serve the contract with this deployment's own address as its server, its own contact, and
  // request examples for every operation (shown by the reference at /docs). The OpenAPI schema's
  // `email` format, as validators apply it, wants a dotted domain: an address at a single-label
  // host (`api@localhost`, the default of a local run) is left out, the terms URL stays.
  const publishable = /@[^@]+\.[^@.]+$/.test(deps.contact.email)
  const contact = { name: document.info.contact?.name, ...(publishable ? { email: deps.contact.email } : {}), url: deps.contact.url }
  const served = {
    ...withCodeSamples(document, deps.publicBaseUrl),
    info: { ...document.info, contact },
    servers: [{ url: deps.publicBaseUrl, description: 'This server' }],
  }
  const servedJson = JSON.stringify(served)
  const page = docsPage(document.info.title)
  const script = referenceScript()

  app.route({ ...routes.getOpenApiJson, handler: (_request, reply) => reply.type('application/json; charset=utf-8').send(servedJson) })
  app.route({ ...routes.getOpenApiYaml, handler: (_request, reply) => reply.type('application/yaml; charset=utf-8').send(yamlText) })
  app.route({ ...routes.getHealth, handler: () => ({ status: 'ok' as const }) })
  app.route<{ Params: { type: string } }>({
    ...routes.getProblemType,
    handler(request, reply) {
      const code = codeOfProblemType(request.params.type)
      if (code === undefined) throw new AppError('not_found', 'No such problem type.')
      const entry = ERROR_CATALOGUE[code]
      const path = pathOf(request.url)
      return reply.type('text/html; charset=utf-8').send(deps.problemPage({ title: entry.title, status: entry.status, code, detail: entry.description }, path))
    },
  })
  app.route({
    ...routes.getReadiness,
    async handler() {
      if (!deps.isReady()) throw notReady('The service is starting or shutting down.')
      try {
        await deps.database.ping()
      } catch {
        throw notReady('The database does not answer.')
      }
      try {
        await deps.counter.ping()
      } catch {
        throw notReady('The quota counter backend (Redis) does not answer.')
      }
      return { status: 'ready' as const, verses: deps.verseCount(), database: deps.database.kind }
    },
  })
  app.route({
    ...routes.getDocs,
    handler(request, reply) {
      reply.header('content-security-policy', DOCS_SECURITY_POLICY).header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer')
      return sendTagged(request, reply, page, 'text/html; charset=utf-8', 'public, max-age=3600')
    },
  })
  app.route({
    ...routes.getDocsScript,
    handler: (request, reply) => sendTagged(request, reply, script, 'text/javascript; charset=utf-8', 'public, max-age=86400'),
  })
}
