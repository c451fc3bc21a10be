/**
 * The provenance of a line of written content, verse or narrative, as the exchange format
 * (import, export, the shipped files) carries it:
 * `{"method": "curated" | "generated", "model": string | null, "prompt_version": string}`.
 * One parser for every reader of those lines, so that a line cannot be accepted by one and
 * refused by another for where it came from.
 */

/** How a line was made (db/content/EDITORIAL.md section 12); `modernized` is never written by hand. */
export type WrittenMethod = 'curated' | 'generated'

/** A parsed provenance. */
export interface Provenance {
  readonly method: WrittenMethod
  /** The model that wrote a generated line; null for curated content. */
  readonly model: string | null
  readonly promptVersion: string
}

/** Longest prompt version accepted: a version name, not a text. */
export const MAX_PROMPT_VERSION_LENGTH = 100

const KEYS: readonly string[] = ['method', 'model', 'prompt_version']

/**
 * Reads the `provenance` value of a line: the provenance, or why it is refused, as a
 * message that says what to write instead.
 * @example parseProvenance({ method: 'curated', model: null, prompt_version: 'curated-2' }) // { method: 'curated', model: null, promptVersion: 'curated-2' }
 */
export function parseProvenance(value: unknown): Provenance | string {
  if (value === undefined || value === null)
    return 'provenance is missing; add {"method":"curated","model":null,"prompt_version":"curated-2"} or the generated equivalent'
  if (typeof value !== 'object' || Array.isArray(value)) return 'provenance must be an object with method, model and prompt_version'
  const record = value as Record<string, unknown>
  const extra = Object.keys(record).find((key) => !KEYS.includes(key))
  if (extra !== undefined) return `provenance has the unexpected key ${JSON.stringify(extra.slice(0, 40))}; only method, model and prompt_version are allowed`
  const { method, model, prompt_version: promptVersion } = record
  if (method === 'modernized') return 'modernized text is derived by the seed, not imported'
  if (method !== 'curated' && method !== 'generated') return 'provenance.method must be curated or generated'
  if (typeof promptVersion !== 'string' || promptVersion.trim() === '' || promptVersion.length > MAX_PROMPT_VERSION_LENGTH)
    return 'provenance.prompt_version must be a short non-empty string'
  if (method === 'generated' && (typeof model !== 'string' || model.trim() === '')) return 'provenance.model is required for generated content'
  if (model !== undefined && model !== null && typeof model !== 'string') return 'provenance.model must be a string or null'
  return { method, model: typeof model === 'string' ? model : null, promptVersion }
}
