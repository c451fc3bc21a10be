/**
 * A read-only view of the OpenAPI document for the discovery generators: its operations with
 * `$ref`s resolved, example values, and the URLs that name them. Every discovery file that
 * lists endpoints reads them from here, so none of them can name an endpoint the contract lacks.
 */
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.js'

/** A JSON Schema (or any other contract object) as parsed from the document. */
export type JsonObject = Readonly<Record<string, unknown>>

/** The parts of an OpenAPI 3.1 document the generators read. */
export interface OpenApiDocument {
  readonly openapi: string
  readonly info: { readonly title: string; readonly version: string; readonly summary?: string; readonly description?: string }
  readonly servers?: readonly { readonly url: string }[]
  readonly tags?: readonly { readonly name: string; readonly description?: string }[]
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  readonly components?: JsonObject
}

/** A named example value from the contract. */
export interface NamedExample {
  readonly name: string
  readonly summary: string | undefined
  readonly value: unknown
}

/** One parameter of an operation, resolved. */
export interface ParameterView {
  readonly name: string
  readonly in: string
  readonly required: boolean
  readonly description: string | undefined
  readonly schema: JsonObject
  /** A value to put in example URLs, when the contract gives one. */
  readonly example: string | undefined
}

/** One response of an operation, resolved. */
export interface ResponseView {
  readonly status: string
  readonly description: string
  readonly mediaTypes: readonly string[]
  /** The name of the body schema when it is a component (`Verse`), else undefined. */
  readonly schemaName: string | undefined
  readonly headers: readonly string[]
  /** Catalogue codes the response's description names. */
  readonly codes: readonly ErrorCode[]
  readonly examples: readonly NamedExample[]
}

/** A request body, resolved. */
export interface RequestBodyView {
  readonly required: boolean
  readonly mediaType: string
  readonly schemaName: string | undefined
  readonly schema: JsonObject
  readonly examples: readonly NamedExample[]
}

/** One operation of the contract. */
export interface OperationView {
  readonly method: string
  readonly path: string
  readonly operationId: string
  readonly tags: readonly string[]
  readonly summary: string
  readonly description: string | undefined
  /** Names of the security schemes that may authorize it; empty when it needs none. */
  readonly security: readonly string[]
  readonly parameters: readonly ParameterView[]
  readonly requestBody: RequestBodyView | undefined
  readonly responses: readonly ResponseView[]
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** Follows `$ref`s within the document; returns the object and the last ref's name. */
export function resolveRef(document: OpenApiDocument, node: unknown): { readonly value: JsonObject; readonly name: string | undefined } {
  let current: unknown = node
  let name: string | undefined
  for (let depth = 0; depth < 32 && isObject(current) && typeof current.$ref === 'string'; depth++) {
    const ref = current.$ref
    if (!ref.startsWith('#/')) break
    name = ref.slice(ref.lastIndexOf('/') + 1)
    let target: unknown = document
    for (const key of ref.slice(2).split('/')) target = isObject(target) ? target[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
    current = target
  }
  return { value: isObject(current) ? current : {}, name }
}

function examplesOf(media: JsonObject): NamedExample[] {
  const named = isObject(media.examples)
    ? Object.entries(media.examples)
        .filter((entry): entry is [string, JsonObject] => isObject(entry[1]))
        .map(([name, example]) => ({ name, summary: str(example.summary), value: example.value }))
    : []
  return media.example === undefined ? named : [{ name: 'example', summary: undefined, value: media.example }, ...named]
}

/** The first example value a parameter or its schema gives, as it would appear in a URL. */
function exampleOf(parameter: JsonObject, schema: JsonObject): string | undefined {
  const candidates: unknown[] = [
    parameter.example,
    ...(isObject(parameter.examples) ? Object.values(parameter.examples).map((e) => (isObject(e) ? e.value : undefined)) : []),
    schema.example,
    ...(Array.isArray(schema.examples) ? schema.examples : []),
    schema.default,
    ...(Array.isArray(schema.enum) ? schema.enum : []),
  ]
  const found = candidates.find((c) => typeof c === 'string' || typeof c === 'number')
  return found === undefined ? undefined : String(found)
}

const CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[]

/** The catalogue codes a text names in backticks, in catalogue order. */
function codesNamedIn(text: string): ErrorCode[] {
  return CODES.filter((code) => text.includes(`\`${code}\``))
}

function parameterView(document: OpenApiDocument, node: unknown): ParameterView {
  const parameter = resolveRef(document, node).value
  const schema = resolveRef(document, parameter.schema).value
  return {
    name: str(parameter.name) ?? '',
    in: str(parameter.in) ?? '',
    required: parameter.required === true,
    description: str(parameter.description),
    schema,
    example: exampleOf(parameter, schema),
  }
}

function responseView(document: OpenApiDocument, status: string, node: unknown): ResponseView {
  const response = resolveRef(document, node).value
  const content = isObject(response.content) ? response.content : {}
  const media = Object.values(content).find(isObject) ?? {}
  const description = str(response.description) ?? ''
  return {
    status,
    description,
    mediaTypes: Object.keys(content),
    schemaName: resolveRef(document, media.schema).name,
    headers: isObject(response.headers) ? Object.keys(response.headers) : [],
    codes: codesNamedIn(description),
    examples: examplesOf(media),
  }
}

function requestBodyView(document: OpenApiDocument, node: unknown): RequestBodyView | undefined {
  if (node === undefined) return undefined
  const body = resolveRef(document, node).value
  const content = isObject(body.content) ? body.content : {}
  const [mediaType, media] = Object.entries(content).find((entry): entry is [string, JsonObject] => isObject(entry[1])) ?? ['application/json', {}]
  const schema = resolveRef(document, media.schema)
  return { required: body.required === true, mediaType, schemaName: schema.name, schema: schema.value, examples: examplesOf(media) }
}

/**
 * Every operation of the document in document order, preflights (`OPTIONS`) included; callers
 * that describe the API to clients skip them with `isPreflight`.
 * @example listOperations(doc).find((op) => op.operationId === 'getVerse')?.path // '/api/v1/verse/{slug}'
 */
export function listOperations(document: OpenApiDocument): OperationView[] {
  const operations: OperationView[] = []
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = Array.isArray(item.parameters) ? item.parameters : []
    for (const method of METHODS) {
      const operation = item[method]
      if (!isObject(operation)) continue
      const own = Array.isArray(operation.parameters) ? operation.parameters : []
      const security = Array.isArray(operation.security) ? operation.security.filter(isObject).flatMap((requirement) => Object.keys(requirement)) : []
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: str(operation.operationId) ?? `${method} ${path}`,
        tags: Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === 'string') : [],
        summary: str(operation.summary) ?? '',
        description: str(operation.description),
        security,
        parameters: [...shared, ...own].map((p) => parameterView(document, p)),
        requestBody: requestBodyView(document, operation.requestBody),
        responses: Object.entries(isObject(operation.responses) ? operation.responses : {}).map(([status, r]) => responseView(document, status, r)),
      })
    }
  }
  return operations
}

/** CORS preflights: answered for browsers, not part of what a client calls. */
export function isPreflight(operation: OperationView): boolean {
  return operation.method === 'OPTIONS'
}

/** How an operation is authorized, in words. */
export function authenticationOf(operation: OperationView): 'API key' | 'identity token' | 'API key or identity token' | 'metrics token' | 'none' {
  const key = operation.security.some((s) => s.startsWith('ApiKey'))
  const token = operation.security.includes('IdentityToken')
  if (key && token) return 'API key or identity token'
  if (key) return 'API key'
  if (token) return 'identity token'
  // The operator's METRICS_TOKEN (GET /metrics), not something a client of the API holds.
  if (operation.security.includes('MetricsToken')) return 'metrics token'
  return 'none'
}

/**
 * A concrete URL for the operation: path parameters and required query parameters filled with
 * the contract's example values. Undefined when a required value has no example.
 * @example exampleUrl(getVerse, 'https://api.example.org') // 'https://api.example.org/api/v1/verse/john-3-16'
 */
export function exampleUrl(operation: OperationView, baseUrl: string): string | undefined {
  let path = operation.path
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    if (parameter.example === undefined) return undefined
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(parameter.example))
  }
  const query: string[] = []
  for (const parameter of operation.parameters.filter((p) => p.in === 'query' && p.required)) {
    if (parameter.example === undefined) return undefined
    query.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent(parameter.example)}`)
  }
  return `${baseUrl}${path}${query.length === 0 ? '' : `?${query.join('&')}`}`
}

/**
 * The operation in the reference at /docs: RapiDoc's anchor, `{method}-{path}` with each of
 * ` #:?&={}` written as `-` (e.g. `#post-/api/v1/keys`, `#get-/api/v1/verse/-slug-`).
 */
export function docsUrl(operation: OperationView, baseUrl: string): string {
  return `${baseUrl}/docs#${operation.method.toLowerCase()}-${operation.path.replace(/[\s#:?&={}]/g, '-')}`
}

/**
 * The URL an llms.txt-style link should point at: a concrete example for a `GET` that has
 * one (following it shows the operation at work), else the operation's documentation.
 */
export function linkUrl(operation: OperationView, baseUrl: string): string {
  return (operation.method === 'GET' ? exampleUrl(operation, baseUrl) : undefined) ?? docsUrl(operation, baseUrl)
}

/** The first sentence of a text: up to the first period that ends the text or precedes a capital (so "e.g. `x`" does not end it). */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const end = flat.search(/\.(?= [A-Z]|$)/)
  return end === -1 ? flat : flat.slice(0, end + 1)
}

/**
 * A copy of an example value with every string that starts with `from` (the contract's
 * default server) rewritten to start with `to` (this deployment), so examples name this server.
 */
export function rebase(value: unknown, from: string | undefined, to: string): unknown {
  if (from === undefined || from === to) return value
  if (typeof value === 'string') return value === from || value.startsWith(`${from}/`) ? `${to}${value.slice(from.length)}` : value
  if (Array.isArray(value)) return value.map((v) => rebase(v, from, to))
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebase(v, from, to)]))
  return value
}
