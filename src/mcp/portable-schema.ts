/**
 * Tool schemas that every MCP client reads the same way. The contract's schemas say "a string
 * or null" as `type: ["string", "null"]` (JSON Schema 2020-12, OpenAPI 3.1); several MCP
 * clients and the MCP Inspector warn on type arrays, so tool schemas say it as
 * `anyOf: [{type: "string", ...}, {type: "null"}]`, which validates the same values.
 */
import type { JsonSchemaObject } from './mcp.tools.js'

/** Keywords that describe the whole value, kept beside the `anyOf` rather than inside a branch. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples'])

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite)
  if (typeof node !== 'object' || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    // Property names are data: rewrite the schemas under them, never the names.
    out[key] =
      key === 'properties' && typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, rewrite(schema)]))
        : rewrite(value)
  }
  const types = out.type
  if (!Array.isArray(types)) return out
  const annotations = Object.fromEntries(Object.entries(out).filter(([key]) => ANNOTATIONS.has(key)))
  const constraints = Object.fromEntries(Object.entries(out).filter(([key]) => key !== 'type' && !ANNOTATIONS.has(key)))
  const branches = types.map((type) => {
    if (type === 'null') return { type: 'null' }
    const allowed = Array.isArray(constraints.enum) ? { enum: constraints.enum.filter((value) => value !== null) } : {}
    return { type, ...constraints, ...allowed }
  })
  return { ...annotations, anyOf: branches }
}

/**
 * The schema with every `type` array written as an `anyOf` of single types.
 * @example portable({ type: 'object', properties: { a: { type: ['string', 'null'] } } })
 *   // { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } } }
 */
export function portable(schema: JsonSchemaObject): JsonSchemaObject {
  return rewrite(schema) as JsonSchemaObject
}
