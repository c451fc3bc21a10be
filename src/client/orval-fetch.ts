/**
 * The fetch function for clients generated with orval (`client: 'fetch'`), named in orval's
 * configuration as `output.override.mutator`. orval's own fetch code parses every body as
 * JSON, and the contract also has text, HTML, YAML, XML and SVG answers (`openapi.yaml`,
 * `llms.txt`, the pages, the metrics): this one reads each body by its `Content-Type`.
 *
 * @example
 * // orval.config.cjs
 * module.exports = { plainverse: { input: './openapi.json', output: {
 *   target: './plainverse.ts', client: 'fetch',
 *   override: { mutator: { path: './src/client/orval-fetch.ts', name: 'orvalFetch', extension: '.js' } },
 * } } }
 * // then
 * setOrvalBaseUrl('https://api.example.org')
 * const { status, data } = await getLlmsTxt() // data: the text
 */

let baseUrl = ''

/** Where the generated client's relative paths (`/api/v1/...`) are sent; empty: as they are. */
export function setOrvalBaseUrl(url: string): void {
  baseUrl = url.replace(/\/+$/, '')
}

/** JSON and every `+json` type (problem details, linksets, the MCP server card). */
function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json')
}

/**
 * Sends the request and answers in the shape orval's generated types expect: `data` (the JSON
 * value, the text for any other media type, `undefined` when there is no body), `status` and
 * `headers`.
 * @example orvalFetch<getLlmsTxtResponse>('/llms.txt', { method: 'GET' })
 */
export async function orvalFetch<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(url.startsWith('/') ? `${baseUrl}${url}` : url, init)
  const text = await response.text()
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const data: unknown = text === '' ? undefined : isJson(mediaType) ? JSON.parse(text) : text
  return { data, status: response.status, headers: response.headers } as T
}
