/** HTTP routes of the verses capability: thin adapters over VersesService. */
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { operations } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { etagOf, ifNoneMatchMatches, type Representation, RepresentationCache } from '../http/etag.js'
import type { VersesService } from './verses.service.js'

type GetVerse = operations['getVerse']['parameters']

/** Enough for every verse in every style selector; a few hundred MB at the very most. */
const CACHE_CAPACITY = 100_000

/** Registers GET /api/v1/verse/{slug} and GET /api/v1/books. */
export function registerVerseRoutes(app: FastifyInstance, service: VersesService): void {
  const representations = new RepresentationCache(CACHE_CAPACITY)

  app.route<{ Params: GetVerse['path']; Querystring: Required<NonNullable<GetVerse['query']>> }>({
    ...routes.getVerse,
    handler(request, reply) {
      const verse = service.resolve(request.params.slug)
      const style = request.query.style
      const representation = representations.get(`${verse.id}:${style}`, () =>
        reply.serialize(service.toResource(verse, style)) as string,
      )
      return sendRepresentation(representation, request.headers['if-none-match'], reply)
    },
  })

  let books: Representation | undefined
  app.route({
    ...routes.listBooks,
    handler(request, reply) {
      if (books === undefined) {
        const body = reply.serialize(service.listBooks()) as string
        books = { body, etag: etagOf(body) }
      }
      return sendRepresentation(books, request.headers['if-none-match'], reply)
    },
  })
}

function sendRepresentation(
  representation: Representation,
  ifNoneMatch: string | undefined,
  reply: FastifyReply,
): FastifyReply {
  reply.header('etag', representation.etag).header('cache-control', 'no-cache')
  if (ifNoneMatchMatches(ifNoneMatch, representation.etag)) return reply.code(304).send()
  return reply.type('application/json; charset=utf-8').send(representation.body)
}
