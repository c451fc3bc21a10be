/**
 * Fastify's own schema compilers (Ajv for validation, fast-json-stringify for responses), each
 * route's function compiled when it is first used rather than while the app starts. The app has
 * dozens of routes, most of them rarely asked for, and compiling every schema up front was
 * about a tenth of a later start's time to ready; a route pays its few milliseconds once, on its
 * first request. What the functions do is unchanged: they are Fastify's defaults, built with
 * the same options.
 */
import { AjvCompiler } from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify'

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>
type ValidatorFactory = NonNullable<CompilersFactory['buildValidator']>
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>
type ValidatorCompiler = FastifySchemaCompiler<unknown>
type SerializerCompiler = ReturnType<SerializerFactory>
/** What Fastify calls to validate a request part: it reads `errors` after a `false`. */
type Validate = ReturnType<ValidatorCompiler> & { errors?: unknown }

/**
 * A validator compiler that defers `compile(route)` to the first validation. Fastify reads the
 * function's `errors` after it returns false, so the wrapper carries the compiled function's.
 */
export function lazyValidatorCompiler(compile: ValidatorCompiler): ValidatorCompiler {
  return (route) => {
    let compiled: Validate | undefined
    const validate: Validate = (data: unknown) => {
      compiled ??= compile(route) as Validate
      const result = compiled(data)
      validate.errors = compiled.errors
      return result
    }
    return validate
  }
}

/** A serializer compiler that defers `compile(route)` to the first serialization. */
export function lazySerializerCompiler(compile: SerializerCompiler): SerializerCompiler {
  return (route) => {
    let compiled: ReturnType<SerializerCompiler> | undefined
    return (data: unknown) => (compiled ??= compile(route))(data)
  }
}

/**
 * The `schemaController.compilersFactory` option: Fastify's default compilers (one pool per app,
 * as Fastify keeps them), compiling on first use.
 * @example Fastify({ schemaController: { compilersFactory: lazySchemaCompilers() } })
 */
export function lazySchemaCompilers(): Required<CompilersFactory> {
  const validators = AjvCompiler()
  const serializers = SerializerSelector()
  // The packages' declarations give the pool's compiler Ajv's own compile signature; Fastify
  // calls it with a route definition (FastifySchemaCompiler), as it does the defaults.
  const buildValidator = (externalSchemas: Parameters<ValidatorFactory>[0], options: Parameters<ValidatorFactory>[1]): ValidatorCompiler =>
    lazyValidatorCompiler(validators(externalSchemas, options) as unknown as ValidatorCompiler)
  const buildSerializer: SerializerFactory = (externalSchemas, options) => lazySerializerCompiler(serializers(externalSchemas, options))
  return { buildValidator: buildValidator as unknown as ValidatorFactory, buildSerializer }
}
