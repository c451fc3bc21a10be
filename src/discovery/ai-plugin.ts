/**
 * `/.well-known/ai-plugin.json`: the AI plugin manifest (schema_version v1), for agent
 * runtimes that discover APIs through it and then read the OpenAPI document it names.
 */
import { clip, type DiscoveryContext, quotaSentence, urlOf } from './discovery.context.js'
import { isPreflight } from './openapi-view.js'

/** The manifest, as the contract's `AiPluginManifest` schema describes it. */
export interface AiPluginManifest {
  readonly schema_version: 'v1'
  readonly name_for_human: string
  readonly name_for_model: string
  readonly description_for_human: string
  readonly description_for_model: string
  /**
   * Each user brings their own key, sent as `Authorization: Bearer` (`user_http`): the format's
   * published auth types are `none`, `user_http`, `service_http` (one key of the plugin's
   * developer, with vendor-issued verification tokens) and `oauth`, and its authorization
   * types `bearer` and `basic`, so no custom header.
   */
  readonly auth: { readonly type: 'user_http'; readonly authorization_type: 'bearer'; readonly instructions: string }
  readonly api: { readonly type: 'openapi'; readonly url: string }
  readonly logo_url: string
  readonly contact_email: string
  readonly legal_info_url: string
}

/** Limits of the manifest format. */
const HUMAN_NAME_MAX = 20
const MODEL_NAME_MAX = 50
const HUMAN_DESCRIPTION_MAX = 100
const MODEL_DESCRIPTION_MAX = 8000

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
    `Send the API key as Authorization: Bearer <key> (the X-API-Key header also works). Each key has a monthly quota (${quotaSentence(settings)}); a 429 response means it is used up until the next month.`,
    'Errors are problem documents with a stable code field. Every verse carries an attribution object (source, url, license): cite it whenever you quote the text.',
  ].join(' ')
  return {
    schema_version: 'v1',
    name_for_human: clip(serviceName, HUMAN_NAME_MAX),
    // Letters and digits only, as the format asks.
    name_for_model: serviceName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '')
      .slice(0, MODEL_NAME_MAX),
    description_for_human: clip(summary, HUMAN_DESCRIPTION_MAX),
    description_for_model: clip(forModel, MODEL_DESCRIPTION_MAX),
    auth: {
      type: 'user_http',
      authorization_type: 'bearer',
      instructions: `Paste your ${serviceName} API key (pv_...); it is sent as Authorization: Bearer <key>.`,
    },
    api: { type: 'openapi', url: urlOf(context, 'getOpenApiJson') },
    logo_url: urlOf(context, 'getLogo'),
    contact_email: settings.contactEmail,
    legal_info_url: settings.legalUrl,
  }
}
