/**
 * Schemas are compiled on first use: a route's validator and serializer are built when its first
 * request needs them, once, and behave as Fastify's own (errors, coercion options, output).
 */
import Fastify from 'fastify'
import t from 'tap'
import { lazySchemaCompilers, lazySerializerCompiler, lazyValidatorCompiler } from '../../src/http/lazy-schema-compilers.js'

const route = { schema: { type: 'object' }, method: 'GET', url: '/x', httpPart: 'querystring' }

t.test('a validator is compiled at its first call, once, and carries the compiled function’s errors', async (t) => {
  let compiled = 0
  const failure = [{ message: 'must be 1', keyword: 'const', instancePath: '', schemaPath: '#/const', params: {} }]
  const validate = lazyValidatorCompiler(() => {
    compiled++
    // As Ajv's functions do: `errors` is set on the function by each call.
    const inner = Object.assign(
      (data: unknown): boolean => {
        inner.errors = data === 1 ? null : failure
        return data === 1
      },
      { errors: null as typeof failure | null },
    )
    return inner
  })(route) as ((data: unknown) => unknown) & { errors?: unknown }
  t.equal(compiled, 0, 'nothing compiled before the first validation')
  t.equal(validate(1), true)
  t.equal(validate.errors, null)
  t.equal(validate(2), false)
  t.same(validate.errors, failure, 'Fastify reads the errors from the function it was given')
  t.equal(validate(1), true)
  t.equal(validate.errors, null)
  t.equal(compiled, 1, 'compiled once')
})

t.test('a serializer is compiled at its first call, once', async (t) => {
  let compiled = 0
  const serialize = lazySerializerCompiler(() => {
    compiled++
    return (doc: unknown) => JSON.stringify(doc)
  })({ schema: {}, method: 'GET', url: '/x', httpStatus: '200' })
  t.equal(compiled, 0)
  t.equal(serialize({ a: 1 }), '{"a":1}')
  t.equal(serialize({ a: 2 }), '{"a":2}')
  t.equal(compiled, 1)
})

t.test('in an app: validation errors, the ajv options and response serialization are as with the defaults', async (t) => {
  const app = Fastify({
    ajv: { customOptions: { coerceTypes: false, allErrors: true } },
    schemaController: { compilersFactory: lazySchemaCompilers() },
  })
  app.get(
    '/items/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]+$' } }, required: ['id'] },
        querystring: { type: 'object', properties: { n: { type: 'string', maxLength: 2 }, m: { type: 'string', maxLength: 2 } }, additionalProperties: false },
        response: { 200: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false } },
      },
    },
    async (request) => ({ id: (request.params as { id: string }).id, secret: 'not in the schema' }),
  )
  await app.ready()
  t.teardown(() => app.close())

  const ok = await app.inject('/items/abc')
  t.equal(ok.statusCode, 200)
  t.same(ok.json(), { id: 'abc' }, 'the response schema drops what it does not name')

  const bad = await app.inject('/items/ABC?n=123&m=456')
  t.equal(bad.statusCode, 400)
  const message = (bad.json() as { message: string }).message
  t.match(message, /params\/id must match pattern/)

  const query = await app.inject('/items/abc?n=123&m=456')
  t.equal(query.statusCode, 400)
  t.match(
    (query.json() as { message: string }).message,
    /querystring\/n must NOT have more than 2 characters, querystring\/m must NOT/,
    'allErrors from the ajv options',
  )
})
