/**
 * Integer query parameters. The contract declares them `type: integer` (so that every
 * generated client takes a number), and a query string is text. AJV's own coercion stays off:
 * it would also take "010", "5.0" or "1e1", and would coerce request bodies too. Instead this
 * hook turns exactly the canonical decimal spellings into numbers before validation; anything
 * else stays a string and fails the route's schema with `400 invalid_parameter`.
 */
import type { FastifyInstance, preValidationHookHandler } from 'fastify'

/** A decimal integer without a sign, leading zeros or spaces (at most 15 digits: always exact). */
const DECIMAL = /^(0|[1-9][0-9]{0,14})$/

/** The names of a querystring schema's integer properties. */
function integerParameters(querystring: unknown): string[] {
  if (typeof querystring !== 'object' || querystring === null) return []
  const properties = (querystring as { properties?: unknown }).properties
  if (typeof properties !== 'object' || properties === null) return []
  return Object.entries(properties as Record<string, { type?: unknown }>)
    .filter(([, schema]) => schema.type === 'integer')
    .map(([name]) => name)
}

/**
 * Adds the conversion to every route registered after this call whose querystring schema has
 * integer properties.
 * @example installQueryIntegers(app) // then `?limit=5` reaches the handler as `limit: 5`
 */
export function installQueryIntegers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const names = integerParameters(route.schema?.querystring)
    if (names.length === 0) return
    const convert: preValidationHookHandler = (request, _reply, done) => {
      const query = request.query as Record<string, unknown>
      for (const name of names) {
        const value = query[name]
        if (typeof value === 'string' && DECIMAL.test(value)) query[name] = Number(value)
      }
      done()
    }
    const existing = route.preValidation
    route.preValidation = existing === undefined ? [convert] : [...(Array.isArray(existing) ? existing : [existing]), convert]
  })
}
