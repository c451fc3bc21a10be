/**
 * `/.well-known/ai-plugin.json`: the AI plugin manifest (schema_version v1), for agent
 * runtimes that discover APIs through it and then read the OpenAPI document it names.
 */
import { type DiscoveryContext, quotaSentence, urlOf } from './discovery.context.js'
import { isPreflight } from './openapi-view.js'

/** The manifest, as the contract's `AiPluginManifest` schema describes it. */
export interface AiPluginManifest {
  readonly schema_version: 'v1'
  readonly name_for_human: string
  readonly name_for_model: string
  readonly description_for_human: string
  readonly description_for_model: string
  /**
   * A key the service issues, sent in a custom header. No `verification_tokens`: those were
   * issued by one vendor's plugin store for keys it held on users' behalf, which is not how
   * keys are obtained here.
   */
  readonly auth: { readonly type: 'service_http'; readonly authorization_type: 'custom'; readonly custom_auth_header: 'X-API-Key' }
  readonly api: { readonly type: 'openapi'; readonly url: string }
  readonly logo_url: string
  readonly contact_email: string
  readonly legal_info_url: string
}

/** Limits of the manifest format. */
const HUMAN_DESCRIPTION_MAX = 120
const MODEL_DESCRIPTION_MAX = 8000

/** Cuts a text to at most `max` characters at a word boundary, with an ellipsis when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).trimEnd()}…`
}

/** Tags whose operations are infrastructure rather than what a model calls. */
const NOT_FOR_MODELS = new Set(['Meta', 'Discovery', 'MCP', 'Keys'])

/**
 * Builds the manifest. `api.url` is the JSON form of the contract, which every consumer parses.
 * @example buildAiPluginManifest(context).name_for_model // 'plainverse'
 */
export function buildAiPluginManifest(context: DiscoveryContext): AiPluginManifest {
  const { document, settings, serviceName } = context
  const summary = document.info.summary ?? document.info.title
  const operations = context.operations
    .filter((op) => !isPreflight(op) && !op.tags.some((tag) => NOT_FOR_MODELS.has(tag)))
    .map((op) => `${op.method} ${op.path} (${op.summary})`)
  const forModel = [
    `${serviceName}: ${summary}`,
    `Operations: ${operations.join('; ')}.`,
    `Send the API key in the X-API-Key header (Authorization: Bearer also works). Each key has a monthly quota (${quotaSentence(settings)}); a 429 response means it is used up until the next month.`,
    'Errors are problem documents with a stable code field. Every verse carries an attribution object (source, url, license): cite it whenever you quote the text.',
  ].join(' ')
  return {
    schema_version: 'v1',
    name_for_human: serviceName,
    name_for_model: serviceName
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .slice(0, 64),
    description_for_human: clip(summary, HUMAN_DESCRIPTION_MAX),
    description_for_model: clip(forModel, MODEL_DESCRIPTION_MAX),
    auth: { type: 'service_http', authorization_type: 'custom', custom_auth_header: 'X-API-Key' },
    api: { type: 'openapi', url: urlOf(context, 'getOpenApiJson') },
    logo_url: urlOf(context, 'getLogo'),
    contact_email: settings.contactEmail,
    legal_info_url: settings.legalUrl,
  }
}
