/**
 * `/llms-full.txt`: the whole API reference as one Markdown document, written from the
 * contract (every operation but the preflights), the error catalogue and the MCP tool
 * definitions.
 */
import { ERROR_CATALOGUE, type ErrorCode, problemType } from '../errors.js'
import { absolute, type DiscoveryContext, type DiscoveryTool, operation, quotaSentence, urlOf } from './discovery.context.js'
import {
  authenticationOf,
  exampleUrl,
  isPreflight,
  type JsonObject,
  type OperationView,
  type ParameterView,
  rebase,
  type RequestBodyView,
  resolveRef,
  type ResponseView,
} from './openapi-view.js'

/** A key that shows its shape without being one. */
const KEY_PLACEHOLDER = 'pv_...'
/** The contract's schema of JSON-RPC bodies (the MCP endpoint). */
const JSON_RPC_SCHEMA = 'JsonRpcMessage'
const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
/** Streamable HTTP requires clients to accept both forms of answer. */
const STREAMABLE_HTTP_ACCEPT = '-H "Accept: application/json, text/event-stream"'

/** Escapes a value for a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim()
}

function json(value: unknown): string {
  return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``
}

/** A JSON Schema's type in a few words: `string`, `integer`, `array of string`, `Verse`. */
function typeOf(schema: JsonObject): string {
  if (typeof schema.$ref === 'string') return schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1)
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : typeof schema.type === 'string' ? schema.type : 'any'
  if (type === 'array' && typeof schema.items === 'object' && schema.items !== null) return `array of ${typeOf(schema.items as JsonObject)}`
  return type
}

/** Default, allowed values and limits of a schema, as a table cell. */
function constraintsOf(schema: JsonObject): string {
  const parts: string[] = []
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}`)
  if (schema.const !== undefined) parts.push(`always \`${String(schema.const)}\``)
  if (typeof schema.pattern === 'string') parts.push(`pattern \`${schema.pattern}\``)
  if (typeof schema.minLength === 'number') parts.push(`at least ${schema.minLength} characters`)
  if (typeof schema.maxLength === 'number') parts.push(`at most ${schema.maxLength} characters`)
  if (typeof schema.maxItems === 'number') parts.push(`at most ${schema.maxItems} items`)
  if (schema.default !== undefined) parts.push(`default \`${String(schema.default)}\``)
  return parts.join('; ')
}

function parametersTable(parameters: readonly ParameterView[]): string {
  const rows = parameters.map(
    (p) =>
      `| \`${p.name}\` | ${p.in} | ${cell(typeOf(p.schema))} | ${p.required ? 'yes' : 'no'} | ${cell(constraintsOf(p.schema))} | ${cell(p.description ?? '')}${p.example === undefined || p.schema.enum !== undefined || p.schema.default !== undefined ? '' : ` E.g. \`${cell(p.example)}\`.`} |`,
  )
  return ['| name | in | type | required | values | description |', '|---|---|---|---|---|---|', ...rows].join('\n')
}

function requestBodySection(body: RequestBodyView): string {
  const lines = [
    `**Request body** (${body.required ? 'required' : 'optional'}, \`${body.mediaType}\`${body.schemaName === undefined ? '' : `, schema \`${body.schemaName}\``}):`,
  ]
  const properties =
    typeof body.schema.properties === 'object' && body.schema.properties !== null ? Object.entries(body.schema.properties as Record<string, JsonObject>) : []
  const required = new Set(Array.isArray(body.schema.required) ? body.schema.required : [])
  if (typeof body.schema.description === 'string') lines.push('', body.schema.description.trim())
  if (properties.length > 0) {
    lines.push('', '| field | type | required | values | description |', '|---|---|---|---|---|')
    for (const [name, schema] of properties) {
      lines.push(
        `| \`${name}\` | ${cell(typeOf(schema))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(constraintsOf(schema))} | ${cell(typeof schema.description === 'string' ? schema.description : '')} |`,
      )
    }
  }
  return lines.join('\n')
}

function responseLine(response: ResponseView): string {
  const media = response.mediaTypes.length === 0 ? 'no body' : response.mediaTypes.map((m) => `\`${m}\``).join(', ')
  const schema = response.schemaName === undefined ? '' : ` \`${response.schemaName}\``
  const codes = response.codes.length === 0 ? '' : ` Codes: ${response.codes.map((c) => `\`${c}\``).join(', ')}.`
  const headers = response.headers.length === 0 ? '' : ` Headers: ${response.headers.join(', ')}.`
  return `- \`${response.status}\` (${media}${schema}): ${cell(response.description)}${codes}${headers}`
}

/** A value for a schema: its example, default, const or first allowed value, else a placeholder of its type. */
function sampleOf(schema: JsonObject, context: DiscoveryContext): unknown {
  const resolved = resolveRef(context.document, schema).value
  const known = [
    resolved.example,
    ...(Array.isArray(resolved.examples) ? resolved.examples : []),
    resolved.default,
    resolved.const,
    ...(Array.isArray(resolved.enum) ? resolved.enum : []),
  ]
  const found = known.find((v) => v !== undefined)
  if (found !== undefined) return found
  if (resolved.type === 'object' || typeof resolved.properties === 'object') {
    const properties = (resolved.properties ?? {}) as Record<string, JsonObject>
    const required = Array.isArray(resolved.required) ? resolved.required.filter((r): r is string => typeof r === 'string') : []
    return Object.fromEntries(required.map((name) => [name, sampleOf(properties[name] ?? {}, context)]))
  }
  if (resolved.type === 'array') return []
  if (resolved.type === 'integer' || resolved.type === 'number') return 1
  if (resolved.type === 'boolean') return true
  return 'string'
}

/** A curl command for the operation, with its example values and absolute URL. */
function curlOf(op: OperationView, context: DiscoveryContext): string {
  const base = context.settings.publicBaseUrl
  let url = exampleUrl(op, base)
  if (url === undefined) {
    // A value without an example stays a visible placeholder, e.g. /api/v1/keys/{id}.
    const filled = op.parameters.filter((p) => p.in === 'path' && p.example !== undefined)
    url = absolute(
      context,
      filled.reduce((path, p) => path.replace(`{${p.name}}`, encodeURIComponent(p.example ?? '')), op.path),
    )
  }
  const parts = [`curl -s${op.method === 'GET' ? '' : ` -X ${op.method}`} "${url}"`]
  const auth = authenticationOf(op)
  if (auth.startsWith('API key')) parts.push(`-H "X-API-Key: ${KEY_PLACEHOLDER}"`)
  else if (auth === 'identity token') parts.push('-H "Authorization: Bearer $ACCESS_TOKEN"')
  else if (auth === 'metrics token') parts.push('-H "Authorization: Bearer $METRICS_TOKEN"')
  if (op.requestBody !== undefined) {
    const jsonRpc = op.requestBody.schemaName === JSON_RPC_SCHEMA
    // A JSON-RPC schema says little about a useful call; listing the tools is the first one a client makes.
    const example = op.requestBody.examples[0]?.value ?? (jsonRpc ? TOOLS_LIST : sampleOf(op.requestBody.schema, context))
    parts.push(`-H "Content-Type: ${op.requestBody.mediaType}"`)
    if (jsonRpc) parts.push(STREAMABLE_HTTP_ACCEPT)
    parts.push(`-d '${JSON.stringify(rebase(example, context.document.servers?.[0]?.url, base)).replace(/'/g, "'\\''")}'`)
  }
  return `\`\`\`sh\n${parts.join(' \\\n  ')}\n\`\`\``
}

function operationSection(op: OperationView, context: DiscoveryContext): string {
  const defaultServer = context.document.servers?.[0]?.url
  const lines = [`#### ${op.method} ${op.path}`, '', `**${op.summary}** (operation \`${op.operationId}\`; authentication: ${authenticationOf(op)})`]
  if (op.description !== undefined) lines.push('', op.description.trim())
  const parameters = op.parameters.filter((p) => p.name.toLowerCase() !== 'if-none-match')
  if (parameters.length > 0) lines.push('', '**Parameters:**', '', parametersTable(parameters))
  if (op.parameters.some((p) => p.name.toLowerCase() === 'if-none-match'))
    lines.push('', 'Send `If-None-Match` with an earlier `ETag` to get an empty `304` when nothing changed.')
  if (op.requestBody !== undefined) lines.push('', requestBodySection(op.requestBody))
  lines.push('', '**Responses:**', '', ...op.responses.map(responseLine))
  lines.push('', '**Example request:**', '', curlOf(op, context))
  for (const response of op.responses) {
    for (const example of response.examples) {
      lines.push(
        '',
        `**Example response** (\`${response.status}\`${example.summary === undefined ? '' : `, ${example.summary}`}):`,
        '',
        json(rebase(example.value, defaultServer, context.settings.publicBaseUrl)),
      )
    }
  }
  return lines.join('\n')
}

function endpointsSection(context: DiscoveryContext): string {
  const operations = context.operations.filter((op) => !isPreflight(op))
  const tags = [...(context.document.tags ?? []).map((t) => t.name), ...operations.flatMap((op) => op.tags)].filter((t, i, all) => all.indexOf(t) === i)
  const parts = ['## Endpoints']
  for (const tag of tags) {
    const members = operations.filter((op) => (op.tags[0] ?? '') === tag)
    if (members.length === 0) continue
    const description = context.document.tags?.find((t) => t.name === tag)?.description
    parts.push(`### ${tag}${description === undefined ? '' : `\n\n${description}`}`, ...members.map((op) => operationSection(op, context)))
  }
  const untagged = operations.filter((op) => op.tags.length === 0)
  if (untagged.length > 0) parts.push('### Other', ...untagged.map((op) => operationSection(op, context)))
  return parts.join('\n\n')
}

function errorsSection(context: DiscoveryContext): string {
  const rows = (Object.entries(ERROR_CATALOGUE) as [ErrorCode, (typeof ERROR_CATALOGUE)[ErrorCode]][]).map(
    ([code, entry]) =>
      `| \`${code}\` | ${entry.status} | ${cell(entry.title)} | ${cell(entry.description)} | ${problemType(context.settings.publicBaseUrl, code)} |`,
  )
  return [
    '## Error codes',
    '',
    'Every error is an RFC 9457 problem (`application/problem+json`) with `type`, `title`, `status`, `detail` and one of these stable codes; the `type` URI resolves to a page describing the code.',
    '',
    '| code | status | title | meaning | type |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n')
}

function toolSection(tool: DiscoveryTool): string {
  const readOnly = tool.annotations?.readOnlyHint === true ? ' Read-only.' : ''
  return [
    `### ${tool.name}${tool.title === undefined ? '' : ` (${tool.title})`}`,
    '',
    `${tool.description.trim()}${readOnly}`,
    '',
    '**Input schema:**',
    '',
    json(tool.inputSchema),
  ].join('\n')
}

function mcpSection(context: DiscoveryContext): string {
  const endpoint = urlOf(context, 'postMcp')
  const clientConfig = { mcpServers: { [context.serviceName.toLowerCase()]: { type: 'http', url: endpoint, headers: { 'X-API-Key': KEY_PLACEHOLDER } } } }
  return [
    '## MCP tools',
    '',
    `The Model Context Protocol endpoint is \`POST ${endpoint}\` (also \`${urlOf(context, 'postMcpV1')}\`): Streamable HTTP, stateless, protocol revision ${context.protocolVersion}. Authenticate with the API key as on REST (\`X-API-Key\` or \`Authorization: Bearer\`). Each tool call that returns scripture counts as one query. The server card: ${urlOf(context, 'getWellKnownMcpServerCard')}.`,
    '',
    'A client configuration (the shape most MCP clients accept):',
    '',
    json(clientConfig),
    '',
    `Listing the tools with curl: see \`POST ${operation(context, 'postMcp').path}\` above.`,
    '',
    ...context.tools.map(toolSection).flatMap((s) => [s, '']),
  ].join('\n')
}

/**
 * Builds llms-full.txt.
 * @example buildLlmsFullTxt(context).includes('#### GET /api/v1/verse/{slug}') // true
 */
export function buildLlmsFullTxt(context: DiscoveryContext): string {
  const { document, settings } = context
  const base = settings.publicBaseUrl
  // The contract's own headings become sub-headings of the overview.
  const overview = (document.info.description ?? '').trim().replace(/^(#+) /gm, '#$1 ')
  return [
    `# ${document.info.title} reference`,
    '',
    `> ${document.info.summary ?? ''}`,
    '',
    `Generated from the OpenAPI contract (version ${document.info.version}) and the MCP tool definitions of this server (version ${context.version}). Base URL: ${base}. The contract: ${urlOf(context, 'getOpenApiJson')} (JSON), ${urlOf(context, 'getOpenApiYaml')} (YAML); interactive documentation: ${urlOf(context, 'getDocs')}; summary: ${urlOf(context, 'getLlmsTxt')}.`,
    '',
    '## Overview',
    '',
    overview,
    '',
    '### Quotas on this server',
    '',
    `Monthly allowances per key, by tier: ${quotaSentence(settings)}. Usage terms: ${urlOf(context, 'getTerms')}.`,
    '',
    '### Attribution',
    '',
    `Every verse carries \`attribution\` (\`source\` ${JSON.stringify(settings.attributionSource)}, the verse's public \`url\`, \`license\`); cite it when you quote. Licence: ${settings.attributionLicense}`,
    '',
    '### CORS',
    '',
    'Browsers may call the API from any origin: every keyed path also answers an `OPTIONS` preflight without credentials (those operations are not listed below). Credentials are headers, never cookies.',
    '',
    endpointsSection(context),
    '',
    errorsSection(context),
    '',
    mcpSection(context),
  ].join('\n')
}
