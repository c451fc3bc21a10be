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

/** Every discovery file, built together on the first request for any of them. */
interface DiscoveryFiles {
  readonly llmsTxt: StaticFile
  readonly llmsFullTxt: StaticFile
  readonly apiCatalog: StaticFile
  readonly serverCard: StaticFile
  readonly serverCardAsCard: Negotiated
  readonly aiPlugin: StaticFile
  readonly robots: StaticFile
  readonly terms: StaticFile
  readonly logo: StaticFile
}

/**
 * Registers a GET (and Fastify's implicit HEAD) that serves the file `pick` chooses, or 304 when
 * `If-None-Match` matches; with `negotiated`, a request whose `Accept` names its media type gets
 * that one.
 */
function serve(
  app: FastifyInstance,
  route: { readonly method: string; readonly url: string; readonly schema: object },
  files: () => Promise<DiscoveryFiles>,
  pick: (files: DiscoveryFiles) => StaticFile,
  negotiatedOf?: (files: DiscoveryFiles) => Negotiated,
): void {
  app.route({
    ...route,
    method: 'GET',
    async handler(request, reply) {
      const built = await files()
      const file = pick(built)
      // Public files: any origin may read them (credentials are never involved).
      reply.header('access-control-allow-origin', '*').headers(file.headers)
      if (negotiatedOf === undefined) return sendTagged(request, reply, file, file.type, CACHE_CONTROL)
      const negotiated = negotiatedOf(built)
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
  // Read now: a missing or broken contract stops the start. The files are built on the first
  // request for one of them, with the MCP SDK's protocol versions (the SDK is loaded then, not
  // at every start).
  let building: Promise<DiscoveryFiles> | undefined
  const files = (): Promise<DiscoveryFiles> => (building ??= buildFiles(deps, document))

  serve(app, routes.getLlmsTxt, files, (f) => f.llmsTxt)
  serve(app, routes.getLlmsFullTxt, files, (f) => f.llmsFullTxt)
  serve(app, routes.getApiCatalog, files, (f) => f.apiCatalog)
  serve(
    app,
    routes.getWellKnownMcpServerCard,
    files,
    (f) => f.serverCard,
    (f) => f.serverCardAsCard,
  )
  serve(
    app,
    routes.getMcpServerCard,
    files,
    (f) => f.serverCard,
    (f) => f.serverCardAsCard,
  )
  serve(app, routes.getAiPluginManifest, files, (f) => f.aiPlugin)
  serve(app, routes.getRobotsTxt, files, (f) => f.robots)
  serve(app, routes.getTerms, files, (f) => f.terms)
  serve(app, routes.getLogo, files, (f) => f.logo)
}

/** Builds every discovery file from the contract, the settings and the MCP protocol versions. */
async function buildFiles(deps: DiscoveryDeps, document: OpenApiDocument): Promise<DiscoveryFiles> {
  const { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } = await import('@modelcontextprotocol/sdk/types.js')
  const context = createDiscoveryContext({
    settings: deps.settings,
    document,
    tools: deps.tools,
    version: SERVER_VERSION,
    protocolVersion: LATEST_PROTOCOL_VERSION,
  })
  const card = JSON.stringify(buildServerCard(context, SUPPORTED_PROTOCOL_VERSIONS))
  const text = 'text/plain; charset=utf-8'
  const json = 'application/json; charset=utf-8'
  return {
    llmsTxt: staticFile(buildLlmsTxt(context), text),
    llmsFullTxt: staticFile(buildLlmsFullTxt(context), text),
    apiCatalog: staticFile(JSON.stringify(buildApiCatalog(context)), API_CATALOG_MEDIA_TYPE, { link: apiCatalogLinkHeader(context) }),
    serverCard: staticFile(card, json),
    // The same bytes under another media type: a tag of its own, so caches never swap them.
    serverCardAsCard: {
      alternate: SERVER_CARD_MEDIA_TYPE,
      file: { ...staticFile(card, SERVER_CARD_MEDIA_TYPE), etag: etagOf(`${SERVER_CARD_MEDIA_TYPE}\n${card}`) },
    },
    aiPlugin: staticFile(JSON.stringify(buildAiPluginManifest(context)), json),
    robots: staticFile(buildRobotsTxt(context), text),
    terms: staticFile(buildTermsHtml(context), 'text/html; charset=utf-8'),
    logo: staticFile(buildLogoSvg(context.serviceName), 'image/svg+xml'),
  }
}
