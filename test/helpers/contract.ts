/**
 * Contract conformance: every response a test receives is checked against openapi.yaml
 * (operation, status, content type, required headers, the value of every declared header,
 * body schema). A response the
 * contract does not describe fails the test.
 */
import { readFileSync } from 'node:fs'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { projectPath } from '../../src/infra/paths.js'

type JsonObject = Record<string, unknown>

const contract = JSON.parse(readFileSync(projectPath('generated', 'openapi.json'), 'utf8')) as JsonObject
const ajv = new Ajv2020({ strict: false, allErrors: true })
;(addFormats as unknown as (a: Ajv2020) => void)(ajv)
ajv.addSchema({ $id: 'contract', components: contract.components }, 'contract')

/** A response as a test saw it, from `app.inject()` or from a real HTTP request. */
export interface ObservedResponse {
  readonly method: string
  readonly url: string
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>
  readonly body: string
}

const paths = Object.entries(contract.paths as Record<string, JsonObject>).map(([template, item]) => ({
  template,
  item,
  pattern: new RegExp(`^${template.replace(/[.+*?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]*')}$`),
}))

function resolve(node: unknown): JsonObject {
  const ref = (node as JsonObject | undefined)?.$ref
  if (typeof ref !== 'string') return node as JsonObject
  let target: unknown = contract
  for (const key of ref.slice(2).split('/')) target = (target as JsonObject)[key.replace(/~1/g, '/').replace(/~0/g, '~')]
  return resolve(target)
}

function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase)
  if (node === null || typeof node !== 'object') return node
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `contract${v}` : rebase(v)]))
}

const validators = new Map<string, ValidateFunction>()
function validatorFor(key: string, schema: unknown): ValidateFunction {
  let validate = validators.get(key)
  if (validate === undefined) {
    validate = ajv.compile(rebase(schema) as object)
    validators.set(key, validate)
  }
  return validate
}

/** The operation for a request, if the contract has one. */
function findOperation(method: string, url: string): { template: string; operation: JsonObject } | undefined {
  const path = new URL(url, 'http://x').pathname
  const effective = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()
  for (const { template, item, pattern } of paths) {
    const operation = item[effective]
    if (pattern.test(path) && operation !== undefined) return { template, operation: operation as JsonObject }
  }
  return undefined
}

/**
 * Responses for paths or methods the contract lacks: the generic 400, 404, 405, 408 and 431 of
 * info.description (the 404 also as the HTML page, for clients that ask for HTML).
 */
const GENERIC: JsonObject = Object.fromEntries(
  ['400', '404', '405', '408', '431'].map((status) => [
    status,
    {
      content: {
        'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
        ...(status === '404' ? { 'text/html': { schema: { type: 'string' } } } : {}),
      },
    },
  ]),
)

/**
 * A header's value as its schema sees it: the text, or for a numeric schema the number it
 * spells (a value that is not a plain decimal number stays text, and fails the schema).
 */
function headerValue(raw: string | string[] | number, schema: JsonObject): unknown {
  const text = Array.isArray(raw) ? raw.join(', ') : String(raw)
  const type = schema.type
  if ((type === 'integer' || type === 'number') && /^-?\d+(?:\.\d+)?$/.test(text)) return Number(text)
  return text
}

/** The declared headers that are missing (when required) or whose value breaks their schema. */
function headerViolations(label: string, declared: JsonObject, headers: ObservedResponse['headers']): string[] {
  const problems: string[] = []
  for (const [name, node] of Object.entries(declared)) {
    const header = resolve(node)
    const raw = headers[name.toLowerCase()]
    if (raw === undefined) {
      if (header.required === true) problems.push(`${label}: required header ${name} is missing`)
      continue
    }
    if (header.schema === undefined) continue
    const validate = validatorFor(`${label} header ${name}`, header.schema)
    if (!validate(headerValue(raw, resolve(header.schema)))) {
      problems.push(`${label}: header ${name} ${JSON.stringify(raw)} ${(validate.errors ?? []).map((e) => e.message ?? '').join('; ')}`)
    }
  }
  return problems
}

/**
 * CORS preflights, which info.description states once instead of as operations: 204 without a
 * body, or the MCP endpoint's 403 for an origin it does not allow; else the generic answers.
 */
const PREFLIGHT: JsonObject = {
  ...GENERIC,
  '204': { description: 'preflight' },
  '403': { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
}

/**
 * Lists every way the response departs from the contract; empty when it conforms.
 * @example contractViolations(observed) // ['200 body: /slug must match pattern ...']
 */
export function contractViolations(response: ObservedResponse): string[] {
  const found = findOperation(response.method, response.url)
  const fallback = response.method.toUpperCase() === 'OPTIONS' ? PREFLIGHT : GENERIC
  const responses = (found?.operation.responses as JsonObject | undefined) ?? fallback
  const label = found === undefined ? `${response.method} ${response.url} (no operation)` : `${response.method} ${found.template}`
  const status = String(response.status)
  const declared = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default
  if (declared === undefined) return [`${label}: status ${status} is not in the contract`]
  const spec = resolve(declared)
  const problems = headerViolations(`${label} ${status}`, (spec.headers as JsonObject | undefined) ?? {}, response.headers)
  const content = spec.content as Record<string, JsonObject> | undefined
  const rawType = response.headers['content-type']
  const mediaType = typeof rawType === 'string' ? (rawType.split(';')[0] ?? '').trim() : undefined
  if (content === undefined) {
    if (response.body.length > 0) problems.push(`${label} ${status}: the contract declares no body but one was sent`)
    return problems
  }
  const media = mediaType === undefined ? undefined : content[mediaType]
  if (media === undefined) {
    return [...problems, `${label} ${status}: content type ${String(mediaType)} is not one of ${Object.keys(content).join(', ')}`]
  }
  // A HEAD response has the GET's headers and never a body (RFC 9110 9.3.2).
  if (media.schema === undefined || response.method.toUpperCase() === 'HEAD') return problems
  let body: unknown = response.body
  if (mediaType === 'application/json' || mediaType?.endsWith('+json') === true) {
    try {
      body = JSON.parse(response.body)
    } catch {
      return [...problems, `${label} ${status}: body is not JSON`]
    }
  }
  const validate = validatorFor(`${label} ${status} ${mediaType}`, media.schema)
  if (!validate(body)) {
    for (const error of validate.errors ?? []) problems.push(`${label} ${status} body: ${error.instancePath || '/'} ${error.message ?? ''}`)
  }
  return problems
}
