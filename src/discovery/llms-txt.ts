/** `/llms.txt` (llmstxt.org): what the service is and where everything is, for language models. */
import { absolute, type DiscoveryContext, operation, quotaSentence, urlOf } from './discovery.context.js'
import { authenticationOf, firstSentence, isPreflight, linkUrl, type OperationView } from './openapi-view.js'

/** Operations linked under "Docs", in this order. */
const DOCS = ['getDocs', 'getLlmsFullTxt', 'getOpenApiJson', 'getOpenApiYaml']
/** Discovery operations linked under "MCP" besides the endpoint itself. */
const MCP_CARDS = ['getWellKnownMcpServerCard', 'getMcpServerCard']
/** Tags whose operations are not the reading API. */
const NOT_API = new Set(['Meta', 'Discovery', 'MCP'])

interface Item {
  readonly name: string
  readonly url: string
  readonly notes: string
}

function line(item: Item): string {
  const name = item.name.replace(/[[\]]/g, '')
  return `- [${name}](${item.url})${item.notes === '' ? '' : `: ${item.notes.replace(/\s+/g, ' ').trim()}`}`
}

function section(title: string, items: readonly Item[]): string {
  return `## ${title}\n\n${items.map(line).join('\n')}\n`
}

function authNote(op: OperationView): string {
  const auth = authenticationOf(op)
  return auth === 'none' ? '' : ` (${auth})`
}

/** A link named by the operation's summary, with the first sentence of its description. */
function described(op: OperationView, context: DiscoveryContext): Item {
  return { name: op.summary, url: linkUrl(op, context.settings.publicBaseUrl), notes: op.description === undefined ? '' : firstSentence(op.description) }
}

/**
 * Builds llms.txt: an H1, a blockquote summary, a paragraph, then H2 sections of
 * `- [name](url): notes` (Docs, API, MCP, Terms, Optional). Every operation of the contract
 * that a client calls (not the preflights, the HEAD of a GET, GET /mcp, which is only a 405, or
 * the dashboard's sign-in steps and form posts, which only redirect a browser)
 * and this file itself is linked exactly once.
 * @example buildLlmsTxt(context).startsWith('# Plainverse\n') // true
 */
export function buildLlmsTxt(context: DiscoveryContext): string {
  const { settings, document, serviceName } = context
  const base = settings.publicBaseUrl
  const listed = context.operations.filter(
    (op) => !isPreflight(op) && op.method !== 'HEAD' && op.responses.some((r) => r.status.startsWith('2')) && op.operationId !== 'getLlmsTxt',
  )
  const placed = new Set<string>([...DOCS, ...MCP_CARDS, 'getTerms'])

  const docs = DOCS.map((id) => described(operation(context, id), context))
  const api = listed
    .filter((op) => !op.tags.some((tag) => NOT_API.has(tag)))
    .map((op) => ({ name: `${op.method} ${op.path}`, url: linkUrl(op, base), notes: `${op.summary}${authNote(op)}` }))
  const toolNames = context.tools.map((tool) => tool.name).join(', ')
  const mcp = [
    ...listed
      .filter((op) => op.tags.includes('MCP'))
      .map((op) => ({
        name: `${op.method} ${op.path}`,
        url: absolute(context, op.path),
        notes: `${op.summary}: JSON-RPC over Streamable HTTP, stateless${authNote(op)}${toolNames === '' ? '' : `; tools ${toolNames}`}`,
      })),
    ...MCP_CARDS.map((id) => described(operation(context, id), context)),
  ]
  const terms = [
    {
      name: 'Usage terms',
      url: urlOf(context, 'getTerms'),
      notes: `attribution and licence; ${quotaSentence(settings)}; bulk data and enterprise use are licensed separately (${settings.contactEmail})`,
    },
    ...(settings.legalUrl === urlOf(context, 'getTerms') ? [] : [{ name: 'Legal information', url: settings.legalUrl, notes: '' }]),
  ]
  const optional = listed
    .filter((op) => !placed.has(op.operationId) && op.tags.some((tag) => NOT_API.has(tag)) && !op.tags.includes('MCP'))
    .map((op) => described(op, context))

  const summary = `${document.info.summary ?? document.info.title} A REST API over JSON and a Model Context Protocol (MCP) endpoint for AI systems, behind API keys with monthly quotas.`
  const prose = [
    `Every URL below is on ${base}. Send the API key as \`X-API-Key: pv_...\` (or \`Authorization: Bearer pv_...\`).`,
    'Errors are RFC 9457 problem documents with a stable `code`.',
    `Every verse carries its \`attribution\` (source, URL, licence); cite it when you quote. ${settings.attributionLicense}`,
  ].join(' ')

  return [
    `# ${serviceName}\n`,
    `> ${summary}\n`,
    `${prose}\n`,
    section('Docs', docs),
    section('API', api),
    section('MCP', mcp),
    section('Terms', terms),
    section('Optional', optional),
  ].join('\n')
}
