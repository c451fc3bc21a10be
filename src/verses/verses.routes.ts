/** HTTP routes of the verses capability: thin adapters over VersesService and the quota rules. */
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { operations } from '../../generated/api-types.js'
import { routes } from '../../generated/route-schemas.js'
import { registerPreflight } from '../http/cors.js'
import { etagOf, ifNoneMatchMatches, type Representation, RepresentationCache } from '../http/etag.js'
import type { Metering } from '../quotas/metering.js'
import { VERSE_CACHE_CONTROL, VERSE_CONTENT_TYPE, type VerseRepresentations } from './verse.representations.js'
import type { VersesService } from './verses.service.js'

type GetVerse = operations['getVerse']['parameters']

/** Runs `next` after `first`: at once when `first` is no promise, else when it resolves. */
function then<T>(first: Promise<void> | undefined, next: () => T): T | Promise<T> {
  return first === undefined ? next() : first.then(next)
}

/** What the verse routes need besides the verse service. */
export interface VerseRouteDeps {
  readonly verses: VersesService
  readonly metering: Metering
  /** Shared with the verse lane (verse.lane.ts), which sends what this route has built. */
  readonly representations: VerseRepresentations
}

/** Registers GET/OPTIONS /api/v1/verse/{slug} and GET /api/v1/books. */
export function registerVerseRoutes(app: FastifyInstance, deps: VerseRouteDeps): void {
  const { verses, metering, representations } = deps

  app.route<{ Params: GetVerse['path']; Querystring: Required<NonNullable<GetVerse['query']>> }>({
    ...routes.getVerse,
    // Authentication runs before validation: a request without a valid key learns nothing else.
    onRequest: metering.authenticate,
    // The 400 is thrown here, with the quota's headers (as every answer to a key has them):
    // that is what the other counted routes' onSend hook is for, and without one the hot
    // path skips a step on every answer.
    attachValidation: true,
    // Not an async function: with the in-process counter nothing here needs a promise; the 200
    // is sent once its query is journalled (with the other counted answers of this turn of
    // the event loop), a promise is waited for only when there is one.
    handler(request, reply) {
      const invalid = request.validationError
      if (invalid !== undefined) {
        return then(metering.writeQuotaState(request, reply), () => {
          throw invalid
        })
      }
      const verse = verses.find(request.params.slug)
      const style = request.query.style
      if (verse === undefined) {
        // A 404 does not count, but an exhausted quota still answers 429 first.
        return then(metering.admitUncounted(request, reply), () => {
          throw verses.notFound(request.params.slug)
        })
      }
      const representation = representations.peek(verse, style) ?? representations.put(verse, style, reply.serialize(verses.toResource(verse, style)) as string)
      if (ifNoneMatchMatches(request.headers['if-none-match'], representation.etag)) {
        // Nor does a 304; the same 429 first.
        return then(metering.admitUncounted(request, reply), () => sendRepresentation(representation, reply, 304))
      }
      metering.chargeThen(request, reply, 'verse', style, () => sendRepresentation(representation, reply, 200))
      return undefined
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
  reply.header('etag', representation.etag).header('cache-control', VERSE_CACHE_CONTROL)
  if (status === 304) return reply.code(304).send()
  return reply.type(VERSE_CONTENT_TYPE).send(representation.body)
}
