/**
 * What every discovery file is generated from: the contract, the MCP tool definitions and
 * configuration. Nothing else, so the files cannot say anything the server does not do.
 */
import type { Tier } from '../config.js'
import { listOperations, type OpenApiDocument, type OperationView } from './openapi-view.js'

/**
 * An MCP tool as the discovery files describe it; structurally the same as the tool
 * definitions the MCP endpoint serves, so those are passed in as they are.
 */
export interface DiscoveryTool {
  readonly name: string
  readonly title?: string
  readonly description: string
  readonly inputSchema: Readonly<Record<string, unknown>>
  readonly outputSchema?: Readonly<Record<string, unknown>>
  readonly annotations?: Readonly<Record<string, unknown>>
}

/** The configuration the files are built from. */
export interface DiscoverySettings {
  /** PUBLIC_BASE_URL without a trailing slash; every URL in every file starts with it. */
  readonly publicBaseUrl: string
  readonly attributionSource: string
  readonly attributionLicense: string
  readonly quotas: Readonly<Record<Tier, number>>
  readonly contactEmail: string
  readonly legalUrl: string
}

/** The sources, gathered once. */
export interface DiscoveryContext {
  readonly settings: DiscoverySettings
  readonly document: OpenApiDocument
  readonly operations: readonly OperationView[]
  readonly tools: readonly DiscoveryTool[]
  /** The server's own version (package.json). */
  readonly version: string
  /** The newest MCP protocol revision the server speaks. */
  readonly protocolVersion: string
  /** "Plainverse", from the contract's title ("Plainverse API"). */
  readonly serviceName: string
}

/** The version prefix of the REST API; the API catalog's anchor for it. */
export const API_PREFIX = '/api/v1'

/**
 * Gathers the sources.
 * @example createDiscoveryContext({ settings, document, tools: MCP_TOOLS, version: '1.0.0', protocolVersion: '2025-11-25' })
 */
export function createDiscoveryContext(sources: {
  readonly settings: DiscoverySettings
  readonly document: OpenApiDocument
  readonly tools: readonly DiscoveryTool[]
  readonly version: string
  readonly protocolVersion: string
}): DiscoveryContext {
  return {
    ...sources,
    operations: listOperations(sources.document),
    serviceName: sources.document.info.title.replace(/\s+API$/, ''),
  }
}

/** An absolute URL on this server. */
export function absolute(context: DiscoveryContext, path: string): string {
  return `${context.settings.publicBaseUrl}${path}`
}

/** The operation with this id; the generators name operations the contract must have. */
export function operation(context: DiscoveryContext, operationId: string): OperationView {
  const found = context.operations.find((op) => op.operationId === operationId)
  if (found === undefined) throw new Error(`the contract has no operation ${operationId}`)
  return found
}

/**
 * The absolute URL of an operation without path parameters, from the contract, so that a
 * path moved in the contract moves in every file.
 * @example urlOf(context, 'getLlmsTxt') // 'https://api.example.org/llms.txt'
 */
export function urlOf(context: DiscoveryContext, operationId: string): string {
  return absolute(context, operation(context, operationId).path)
}

/** Cuts a text to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).trimEnd()}…`
}

/** "free 500, developer 50,000 and scale 3,000,000 queries a month". */
export function quotaSentence(settings: DiscoverySettings): string {
  const parts = Object.entries(settings.quotas).map(([tier, allowance]) => `${tier} ${allowance.toLocaleString('en-US')}`)
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''} queries a month`
}
