/**
 * The public pages' routes: thin handlers over WebService, with entity tags, caching, the
 * strict security headers of helmet, and HTML for a path that names nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { routes } from '../../generated/route-schemas.js'
import { etagOf, sendTagged, type Representation } from '../http/etag.js'
import { SITE_CSS } from './site.css.js'
import type { Sitemaps } from './sitemaps.js'
import type { PageOutcome, WebService } from './web.service.js'
import { pathOf } from '../http/url-path.js'
import { securityHeadersHook } from './security-headers.js'

/** What the routes use. */
export interface WebRouteDeps {
  readonly web: WebService
  readonly sitemaps: Sitemaps
}

const HTML = 'text/html; charset=utf-8'
/** Pages change only when content does; five minutes keeps readers and crawlers current. */
const PAGE_CACHE_CONTROL = 'public, max-age=300'
/** The stylesheet and sitemaps change with a release or a content load. */
const ASSET_CACHE_CONTROL = 'public, max-age=3600'

/**
 * First path segments that belong to the API, not to pages: a page-shaped path under them
 * that names nothing gets the API's own 404 or 405 problem, not the HTML page.
 */
const API_SEGMENTS: ReadonlySet<string> = new Set(['api', 'mcp', '.well-known', 'assets', 'sitemaps', 'problems', 'docs', 'metrics'])

/**
 * The security headers of every page: no scripts at all, styles and images from this origin,
 * forms posting only here, never framed.
 */
const PAGE_SECURITY = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
} as const

/** Answers a page outcome: the page, a 301 to the canonical path, or the 404. */
function answer(request: FastifyRequest, reply: FastifyReply, outcome: PageOutcome, web: WebService): FastifyReply {
  if (outcome.kind === 'page') return sendTagged(request, reply, outcome.page, HTML, PAGE_CACHE_CONTROL)
  if (outcome.kind === 'redirect') return reply.redirect(outcome.location, 301)
  const path = pathOf(request.url)
  // Under the API's paths, or for a client that asks for JSON rather than HTML, the API's own 404 or 405 problem.
  const accept = request.headers.accept ?? ''
  if (API_SEGMENTS.has(path.split('/')[1] ?? '') || (/json/.test(accept) && !accept.includes('text/html'))) {
    reply.callNotFound()
    return reply
  }
  return reply.code(404).type(HTML).send(web.notFound(path))
}

/**
 * Registers the pages, the stylesheet and the sitemaps.
 * @example await registerWebRoutes(app, { web, sitemaps })
 */
export async function registerWebRoutes(app: FastifyInstance, deps: WebRouteDeps): Promise<void> {
  const { web, sitemaps } = deps
  const page = { config: { page: true }, onRequest: securityHeadersHook(PAGE_SECURITY) }
  const stylesheet: Representation = { body: SITE_CSS, etag: etagOf(SITE_CSS) }

  app.route({ ...routes.getHomePage, ...page, handler: (request, reply) => answer(request, reply, web.home(), web) })
  app.route<{ Params: { book: string } }>({
    ...routes.getBookPage,
    ...page,
    handler: (request, reply) => answer(request, reply, web.book(request.params.book), web),
  })
  app.route<{ Params: { book: string; chapter: string }; Querystring: { style?: string } }>({
    ...routes.getChapterPage,
    ...page,
    handler: (request, reply) => answer(request, reply, web.chapter(request.params.book, request.params.chapter, request.query.style), web),
  })
  app.route<{ Params: { book: string; chapter: string; verse: string } }>({
    ...routes.getVersePage,
    ...page,
    handler: (request, reply) => answer(request, reply, web.verse(request.params.book, request.params.chapter, request.params.verse), web),
  })
  app.route<{ Querystring: { gospel?: string; q?: string } }>({
    ...routes.getNarrativesPage,
    ...page,
    handler: (request, reply) => answer(request, reply, web.narratives(request.query.gospel, request.query.q), web),
  })
  app.route<{ Params: { slug: string } }>({
    ...routes.getNarrativePage,
    ...page,
    handler: (request, reply) => answer(request, reply, web.narrative(request.params.slug), web),
  })
  app.route<{ Querystring: { q?: string; cursor?: string } }>({
    ...routes.getSearchPage,
    ...page,
    async handler(request, reply) {
      const body = await web.search(request.query.q, request.query.cursor)
      // Results are not cached by the server; a browser may keep them briefly.
      return reply.header('cache-control', 'public, max-age=60').type(HTML).send(body)
    },
  })
  app.route({
    ...routes.getStylesheet,
    handler: (request, reply) => sendTagged(request, reply, stylesheet, 'text/css; charset=utf-8', ASSET_CACHE_CONTROL),
  })
  // Sitemaps are discovery files: any origin may read them, as the others (src/discovery).
  app.route({
    ...routes.getSitemap,
    handler: (request, reply) =>
      sendTagged(request, reply.header('access-control-allow-origin', '*'), sitemaps.index(), 'application/xml; charset=utf-8', ASSET_CACHE_CONTROL),
  })
  app.route<{ Params: { name: string } }>({
    ...routes.getSitemapPart,
    handler(request, reply) {
      const part = sitemaps.part(request.params.name)
      if (part === undefined)
        return reply
          .code(404)
          .type(HTML)
          .send(web.notFound(pathOf(request.url)))
      return sendTagged(request, reply.header('access-control-allow-origin', '*'), part, 'application/xml; charset=utf-8', ASSET_CACHE_CONTROL)
    },
  })
}
