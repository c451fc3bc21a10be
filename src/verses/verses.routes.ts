/** HTTP routes of the verses capability: thin adapters over VersesService and the quota rules. */
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { operations } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { registerPreflight } from '../http/cors.js'
import { etagOf, ifNoneMatchMatches, type Representation, RepresentationCache } from '../http/etag.js'
import type { Metering } from '../quotas/metering.js'
import type { VersesService } from './verses.service.js'

type GetVerse = operations['getVerse']['parameters']

/** Enough for every verse in every style selector; a few hundred MB at the very most. */
const CACHE_CAPACITY = 100_000

/** What the verse routes need besides the verse service. */
export interface VerseRouteDeps {
  readonly verses: VersesService
  readonly metering: Metering
}

/** Registers GET/OPTIONS /api/v1/verse/{slug} and GET /api/v1/books. */
export function registerVerseRoutes(app: FastifyInstance, deps: VerseRouteDeps): void {
  const { verses, metering } = deps
  const representations = new RepresentationCache(CACHE_CAPACITY)

  app.route<{ Params: GetVerse['path']; Querystring: Required<NonNullable<GetVerse['query']>> }>({
    ...routes.getVerse,
    // Authentication runs before validation: a request without a valid key learns nothing else.
    onRequest: metering.authenticate,
    onSend: metering.quotaHeaders,
    async handler(request, reply) {
      const verse = verses.find(request.params.slug)
      const style = request.query.style
      if (verse === undefined || ifNoneMatchMatches(request.headers['if-none-match'], representationOf(verse.id, style).etag)) {
        // Neither a 404 nor a 304 counts, but an exhausted quota still answers 429 first.
        await metering.admitUncounted(request, reply)
        if (verse === undefined) throw verses.notFound(request.params.slug)
        return sendRepresentation(representationOf(verse.id, style), reply, 304)
      }
      await metering.charge(request, reply, 'verse', style)
      return sendRepresentation(representationOf(verse.id, style), reply, 200)

      function representationOf(id: number, selector: typeof style): Representation {
        return representations.get(`${id}:${selector}`, () => reply.serialize(verses.toResource(verses.byId(id), selector)) as string)
      }
    },
  })

  registerPreflight(app, routes.getVerse, ['GET'])

  const bookRepresentations = new RepresentationCache(100)
  app.route<{ Params: { book: string } }>({
    ...routes.getBook,
    handler(request, reply) {
      const detail = verses.getBook(request.params.book)
      const representation = bookRepresentations.get(detail.slug, () => reply.serialize(detail) as string)
      if (ifNoneMatchMatches(request.headers['if-none-match'], representation.etag)) return sendRepresentation(representation, reply, 304)
      return sendRepresentation(representation, reply, 200)
    },
  })

  let books: Representation | undefined
  app.route({
    ...routes.listBooks,
    handler(request, reply) {
      if (books === undefined) {
        const body = reply.serialize(verses.listBooks()) as string
        books = { body, etag: etagOf(body) }
      }
      if (ifNoneMatchMatches(request.headers['if-none-match'], books.etag)) return sendRepresentation(books, reply, 304)
      return sendRepresentation(books, reply, 200)
    },
  })
}

function sendRepresentation(representation: Representation, reply: FastifyReply, status: 200 | 304): FastifyReply {
  reply.header('etag', representation.etag).header('cache-control', 'private, no-cache')
  if (status === 304) return reply.code(304).send()
  return reply.type('application/json; charset=utf-8').send(representation.body)
}
