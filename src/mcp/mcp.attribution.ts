/**
 * Who made an MCP request: the AI client's name and version, as attribution records it.
 *
 * MCP clients name themselves (`clientInfo`) only in `initialize`, which is never counted;
 * with a stateless server, the later `tools/call` arrives on its own HTTP request and the
 * SDK's client sends nothing but the protocol version with it. So a counted call is
 * attributed, in this order, to:
 *
 * 1. the `io.modelcontextprotocol/clientInfo` member of its `params._meta`, where the
 *    stateless revision of MCP that follows 2025-11-25 (SEP-2575) has clients name
 *    themselves on every request;
 * 2. the `clientInfo` of the last `initialize` this instance saw from the same API key and
 *    User-Agent (what a client session looks like without session ids; remembered in
 *    memory only, so with several instances behind a balancer it is a best effort);
 * 3. the `User-Agent` header;
 * 4. `unknown`.
 */

/** The `_meta` key under which a client names itself on a single request (SEP-2575). */
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo'

/** Longer names are cut: attribution is a report, not a place to store arbitrary text. */
const MAX_CLIENT_LENGTH = 200

/**
 * The client label of a request: `name/version`, the User-Agent or `unknown`.
 * @param method the JSON-RPC request's method.
 * @param params the JSON-RPC request's `params`, as received (anything).
 * @example clientOf({ _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'claude-ai', version: '0.1.0' } } }, 'node') // 'claude-ai/0.1.0'
 */
export function clientOf(method: string, params: unknown, userAgent: string | undefined, remembered?: string): string {
  return namedClient(method, params) ?? remembered ?? cut(clean(userAgent) ?? 'unknown')
}

/** `name/version` when the request names its client (see the order above), else undefined. */
export function namedClient(method: string, params: unknown): string | undefined {
  const info = method === 'initialize' ? member(params, 'clientInfo') : member(member(params, '_meta'), CLIENT_INFO_META_KEY)
  const name = clean(member(info, 'name'))
  if (name === undefined) return undefined
  const version = clean(member(info, 'version'))
  return cut(version === undefined ? name : `${name}/${version}`)
}

/** How many (key, User-Agent) pairs are remembered; the least recently initialized go first. */
const REMEMBERED_CLIENTS = 10_000

/** The client names `initialize` requests gave, by API key and User-Agent (bounded, in memory). */
export class ClientMemory {
  private readonly names = new Map<string, string>()

  constructor(private readonly capacity = REMEMBERED_CLIENTS) {}

  /** Remembers the client an `initialize` request names, if it names one. */
  remember(keyId: string, userAgent: string | undefined, method: string, params: unknown): void {
    const name = method === 'initialize' ? namedClient(method, params) : undefined
    if (name === undefined) return
    const id = `${keyId}\n${userAgent ?? ''}`
    this.names.delete(id)
    this.names.set(id, name)
    if (this.names.size > this.capacity) this.names.delete(this.names.keys().next().value ?? id)
  }

  /** The client the last `initialize` with this key and User-Agent named. */
  recall(keyId: string, userAgent: string | undefined): string | undefined {
    return this.names.get(`${keyId}\n${userAgent ?? ''}`)
  }
}

function member(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, name)
    ? (value as Record<string, unknown>)[name]
    : undefined
}

/** A non-blank string with control characters and runs of white space made single spaces. */
function clean(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const text = value.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim()
  return text === '' ? undefined : text
}

function cut(text: string): string {
  // By code point, so that a cut never splits a surrogate pair.
  return text.length <= MAX_CLIENT_LENGTH ? text : [...text].slice(0, MAX_CLIENT_LENGTH).join('')
}
