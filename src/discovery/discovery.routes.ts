/**
 * Discovery files at well-known paths: llms.txt, llms-full.txt, the API catalog, the MCP
 * server card, the AI plugin manifest, robots.txt, the terms and the logo (the sitemaps are the
 * pages' own: src/web/sitemaps.ts). Each
 * is built once, at registration, from the contract, the tool definitions and configuration,
 * then served with an ETag and a public cache lifetime.
 */
import { readFileSync } from 'node:fs'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import type { FastifyInstance } from 'fastify'
import { routes } from '../../generated/route-schemas.js'
import { etagOf, sendTagged } from '../http/etag.js'
import { projectPath } from '../infra/paths.js'
import { SERVER_VERSION } from '../meta/version.js'
import { buildAiPluginManifest } from './ai-plugin.js'
import { apiCatalogLinkHeader, buildApiCatalog } from './api-catalog.js'
import { createDiscoveryContext, type DiscoverySettings, type DiscoveryTool } from './discovery.context.js'
import { buildLlmsFullTxt } from './llms-full.js'
import { buildLlmsTxt } from './llms-txt.js'
import { buildLogoSvg } from './logo.js'
import type { OpenApiDocument } from './openapi-view.js'
import { buildRobotsTxt } from './robots.js'
import { buildServerCard } from './server-card.js'
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

/** Registers a GET (and Fastify's implicit HEAD) that serves `file`, or 304 when `If-None-Match` matches. */
function serve(app: FastifyInstance, route: { readonly method: string; readonly url: string; readonly schema: object }, file: StaticFile): void {
  app.route({
    ...route,
    method: 'GET',
    handler(request, reply) {
      // Public files: any origin may read them (credentials are never involved).
      reply.header('access-control-allow-origin', '*').headers(file.headers)
      return sendTagged(request, reply, file, file.type, CACHE_CONTROL)
    },
  })
}

/**
 * Registers every discovery route. The contract is read from `generated/openapi.json` (the
 * document served at /api/v1/openapi.json) and the server's version.
 * @example registerDiscoveryRoutes(app, { settings, tools: MCP_TOOLS })
 */
export function registerDiscoveryRoutes(app: FastifyInstance, deps: DiscoveryDeps): void {
  const document = JSON.parse(readFileSync(projectPath('generated', 'openapi.json'), 'utf8')) as OpenApiDocument
  const context = createDiscoveryContext({
    settings: deps.settings,
    document,
    tools: deps.tools,
    version: SERVER_VERSION,
    protocolVersion: LATEST_PROTOCOL_VERSION,
  })

  const text = 'text/plain; charset=utf-8'
  const json = 'application/json; charset=utf-8'
  const serverCard = staticFile(JSON.stringify(buildServerCard(context)), json)

  serve(app, routes.getLlmsTxt, staticFile(buildLlmsTxt(context), text))
  serve(app, routes.getLlmsFullTxt, staticFile(buildLlmsFullTxt(context), text))
  serve(app, routes.getApiCatalog, staticFile(JSON.stringify(buildApiCatalog(context)), 'application/linkset+json', { link: apiCatalogLinkHeader(context) }))
  serve(app, routes.getWellKnownMcpServerCard, serverCard)
  serve(app, routes.getMcpServerCard, serverCard)
  serve(app, routes.getAiPluginManifest, staticFile(JSON.stringify(buildAiPluginManifest(context)), json))
  serve(app, routes.getRobotsTxt, staticFile(buildRobotsTxt(context), text))
  serve(app, routes.getTerms, staticFile(buildTermsHtml(context), 'text/html; charset=utf-8'))
  serve(app, routes.getLogo, staticFile(buildLogoSvg(context.serviceName), 'image/svg+xml'))
}
