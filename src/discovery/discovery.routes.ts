/**
 * Discovery files at well-known paths: llms.txt, llms-full.txt, the API catalog, the MCP
 * server card, the AI plugin manifest, robots.txt, the terms and the logo (the sitemaps are the
 * pages' own: src/web/sitemaps.ts). Each
 * is built once, at registration, from the contract, the tool definitions and configuration,
 * then served with an ETag and a public cache lifetime.
 */
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { routes } from '../../generated/route-schemas.js'
import { etagOf, sendTagged } from '../http/etag.js'
import { projectPath } from '../infra/paths.js'
import { SERVER_VERSION } from '../meta/version.js'
import { buildAiPluginManifest } from './ai-plugin.js'
import { API_CATALOG_MEDIA_TYPE, apiCatalogLinkHeader, buildApiCatalog } from './api-catalog.js'
import { createDiscoveryContext, type DiscoverySettings, type DiscoveryTool } from './discovery.context.js'
import { buildLlmsFullTxt } from './llms-full.js'
import { buildLlmsTxt } from './llms-txt.js'
import { buildLogoSvg } from './logo.js'
import type { OpenApiDocument } from './openapi-view.js'
import { buildRobotsTxt } from './robots.js'
import { buildServerCard, SERVER_CARD_MEDIA_TYPE } from './server-card.js'
import { buildTermsHtml } from './terms.js'

/** What the discovery routes are built from besides the contract. */
export interface DiscoveryDeps {
  readonly settings: DiscoverySettings
  /** The tool definitions the MCP endpoint serves. */
  readonly tools: readonly DiscoveryTool[]
}

/** A file ready to send: body, tag, media type and any headers of its own. */
interface StaticFile {
  readonly body: string
  readonly etag: string
  readonly type: string
  readonly headers: Readonly<Record<string, string>>
}

function staticFile(body: string, type: string, headers: Readonly<Record<string, string>> = {}): StaticFile {
  return { body, etag: etagOf(body), type, headers }
}

/** The files do not change while the process runs; an hour keeps crawlers and clients current enough. */
const CACHE_CONTROL = 'public, max-age=3600'

/** A file's media type for a request: `alternate` when the request's Accept names it. */
type Negotiated = { readonly alternate: string; readonly file: StaticFile }

/**
 * Registers a GET (and Fastify's implicit HEAD) that serves `file`, or 304 when `If-None-Match`
 * matches; with `negotiated`, a request whose `Accept` names its media type gets that one.
 */
/** A value made by its first call and kept (a promise is kept too): the discovery files are built when first asked for, not while the server starts. */
function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined
  return () => (made ??= { value: make() }).value
}

function serve(
  app: FastifyInstance,
  route: { readonly method: string; readonly url: string; readonly schema: object },
  fileOf: () => Promise<StaticFile>,
  negotiatedOf?: () => Promise<Negotiated>,
): void {
  app.route({
    ...route,
    method: 'GET',
    async handler(request, reply) {
      const file = await fileOf()
      // Public files: any origin may read them (credentials are never involved).
      reply.header('access-control-allow-origin', '*').headers(file.headers)
      if (negotiatedOf === undefined) return sendTagged(request, reply, file, file.type, CACHE_CONTROL)
      const negotiated = await negotiatedOf()
      reply.header('vary', 'Accept')
      const chosen = acceptsType(request.headers.accept, negotiated.alternate) ? negotiated.file : file
      return sendTagged(request, reply, chosen, chosen.type, CACHE_CONTROL)
    },
  })
}

/** Whether an Accept header names `type` with a non-zero weight. */
function acceptsType(accept: string | undefined, type: string): boolean {
  if (accept === undefined) return false
  return accept.split(',').some((range) => {
    const [name = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase())
    return name === type && !params.some((param) => /^q=0(\.0*)?$/.test(param))
  })
}

/**
 * Registers every discovery route. The contract is read from `generated/openapi.json` (the
 * document served at /api/v1/openapi.json) and the server's version.
 * @example registerDiscoveryRoutes(app, { settings, tools: MCP_TOOLS })
 */
export function registerDiscoveryRoutes(app: FastifyInstance, deps: DiscoveryDeps): void {
  const document = JSON.parse(readFileSync(projectPath('generated', 'openapi.json'), 'utf8')) as OpenApiDocument
  // Read now: a missing or broken contract stops the start. What is derived from it is built
  // on first request, with the MCP SDK's protocol versions (the SDK is loaded then, not at start).
  const protocol = once(() => import('@modelcontextprotocol/sdk/types.js'))
  const context = once(async () =>
    createDiscoveryContext({
      settings: deps.settings,
      document,
      tools: deps.tools,
      version: SERVER_VERSION,
      protocolVersion: (await protocol()).LATEST_PROTOCOL_VERSION,
    }),
  )
  const card = once(async () => JSON.stringify(buildServerCard(await context(), (await protocol()).SUPPORTED_PROTOCOL_VERSIONS)))

  const text = 'text/plain; charset=utf-8'
  const json = 'application/json; charset=utf-8'
  const serverCard = once(async () => staticFile(await card(), json))
  // The same bytes under another media type: a tag of its own, so caches never swap them.
  const cardAsCard = once(async (): Promise<Negotiated> => ({
    alternate: SERVER_CARD_MEDIA_TYPE,
    file: { ...staticFile(await card(), SERVER_CARD_MEDIA_TYPE), etag: etagOf(`${SERVER_CARD_MEDIA_TYPE}\n${await card()}`) },
  }))

  serve(
    app,
    routes.getLlmsTxt,
    once(async () => staticFile(buildLlmsTxt(await context()), text)),
  )
  serve(
    app,
    routes.getLlmsFullTxt,
    once(async () => staticFile(buildLlmsFullTxt(await context()), text)),
  )
  serve(
    app,
    routes.getApiCatalog,
    once(async () => {
      const built = await context()
      return staticFile(JSON.stringify(buildApiCatalog(built)), API_CATALOG_MEDIA_TYPE, { link: apiCatalogLinkHeader(built) })
    }),
  )
  serve(app, routes.getWellKnownMcpServerCard, serverCard, cardAsCard)
  serve(app, routes.getMcpServerCard, serverCard, cardAsCard)
  serve(
    app,
    routes.getAiPluginManifest,
    once(async () => staticFile(JSON.stringify(buildAiPluginManifest(await context())), json)),
  )
  serve(
    app,
    routes.getRobotsTxt,
    once(async () => staticFile(buildRobotsTxt(await context()), text)),
  )
  serve(
    app,
    routes.getTerms,
    once(async () => staticFile(buildTermsHtml(await context()), 'text/html; charset=utf-8')),
  )
  serve(
    app,
    routes.getLogo,
    once(async () => staticFile(buildLogoSvg((await context()).serviceName), 'image/svg+xml')),
  )
}
