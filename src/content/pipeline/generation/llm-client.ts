/**
 * A client for any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama,
 * llama.cpp's server, LM Studio): `POST ${LLM_BASE_URL}/chat/completions` with a JSON Schema
 * response format, returning the model's answer parsed as JSON plus the token usage.
 *
 * It is built to survive a real provider over a run of tens of thousands of requests:
 * - 429, 408 and 5xx answers, timeouts and network errors are retried with exponential
 *   backoff and jitter, honouring `Retry-After` (seconds or an HTTP-date) when present;
 * - every request has its own timeout, and the caller's AbortSignal aborts it at once;
 * - answers that can never succeed (bad key, unknown model, a schema the server rejects)
 *   are marked `fatal`, so that a run stops instead of failing every verse the same way.
 *
 * A model answer that is not valid JSON is not a transport problem: it is returned as
 * `{ ok: false }` content, and the caller decides whether to ask again.
 */
import { setTimeout as delay } from 'node:timers/promises'

/** The endpoint settings, read from the environment by {@link loadLlmConfig}. */
export interface LlmConfig {
  /** The API root without a trailing slash, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string
  /** Sent as a Bearer token; local servers usually need none. */
  readonly apiKey: string | undefined
  readonly model: string
  /** Per-request timeout. */
  readonly timeoutMs: number
}

/** Thrown for a missing or invalid LLM_* variable; the message names it. */
export class LlmConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`)
    this.name = 'LlmConfigError'
  }
}

/** Per-request timeout when LLM_TIMEOUT_SECONDS is not set. */
export const DEFAULT_TIMEOUT_MS = 60_000

type Env = Readonly<Record<string, string | undefined>>

/**
 * Reads LLM_BASE_URL (required), LLM_MODEL (required), LLM_API_KEY (optional) and
 * LLM_TIMEOUT_SECONDS (optional, default 60) from the environment.
 * @throws LlmConfigError naming the first missing or invalid variable.
 * @example loadLlmConfig({ LLM_BASE_URL: 'http://localhost:11434/v1', LLM_MODEL: 'llama3.1' }).baseUrl
 */
export function loadLlmConfig(env: Env = process.env): LlmConfig {
  const rawUrl = env.LLM_BASE_URL?.trim() ?? ''
  if (rawUrl === '') {
    throw new LlmConfigError(
      'LLM_BASE_URL',
      'is not set: give the API root of an OpenAI-compatible server, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 (Ollama)',
    )
  }
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    throw new LlmConfigError('LLM_BASE_URL', `must be an absolute URL (got ${JSON.stringify(rawUrl)})`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new LlmConfigError('LLM_BASE_URL', `must use http: or https: (got ${JSON.stringify(url.protocol)})`)
  if (url.search !== '' || url.hash !== '') throw new LlmConfigError('LLM_BASE_URL', 'must not have a query or a fragment')
  const baseUrl = rawUrl.replace(/\/+$/, '')
  // A common slip: pasting the endpoint instead of the root would post to .../chat/completions/chat/completions.
  if (/\/chat\/completions$/.test(baseUrl))
    throw new LlmConfigError('LLM_BASE_URL', `must be the API root (e.g. ${baseUrl.replace(/\/chat\/completions$/, '')}), not the /chat/completions endpoint`)
  const model = env.LLM_MODEL?.trim() ?? ''
  if (model === '') throw new LlmConfigError('LLM_MODEL', 'is not set: name the model, e.g. gpt-4o-mini (OpenAI) or llama3.1:8b (Ollama)')
  if (model.length > 200) throw new LlmConfigError('LLM_MODEL', 'must be at most 200 characters')
  const apiKey = env.LLM_API_KEY?.trim() ?? ''
  if (/\s/.test(apiKey)) throw new LlmConfigError('LLM_API_KEY', 'must not contain spaces or line breaks')
  const rawTimeout = env.LLM_TIMEOUT_SECONDS?.trim() ?? ''
  let timeoutMs = DEFAULT_TIMEOUT_MS
  if (rawTimeout !== '') {
    const seconds = Number(rawTimeout)
    if (!/^\d+(\.\d+)?$/.test(rawTimeout) || seconds <= 0 || seconds > 3600) {
      throw new LlmConfigError('LLM_TIMEOUT_SECONDS', `must be a number of seconds from 0.001 to 3600 (got ${JSON.stringify(rawTimeout)})`)
    }
    timeoutMs = Math.ceil(seconds * 1000)
  }
  return Object.freeze({ baseUrl, apiKey: apiKey === '' ? undefined : apiKey, model, timeoutMs })
}

/** One message of a chat. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant'
  readonly content: string
}

/** The JSON Schema the answer must follow, sent as `response_format.json_schema`. */
export interface ResponseSchema {
  /** Letters, digits, `_` and `-` (OpenAI's rule for the name). */
  readonly name: string
  readonly schema: Readonly<Record<string, unknown>>
}

/** Tokens counted by the provider (`usage`); zero when it does not report them. */
export interface TokenUsage {
  readonly promptTokens: number
  readonly completionTokens: number
}

/** The model's answer: parsed JSON, or why it could not be parsed. */
export type ParsedContent = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string }

/** A completed request. */
export interface ChatCompletion {
  readonly content: ParsedContent
  /** The answer as the model wrote it (for feedback on a retry). */
  readonly raw: string
  readonly usage: TokenUsage
  /** The model that answered, as the provider names it (falls back to the configured one). */
  readonly model: string
  /** HTTP requests made, retries included. */
  readonly requests: number
}

/** How a request failed. */
export type LlmErrorKind = 'aborted' | 'timeout' | 'network' | 'http' | 'bad_response'

/** A request that failed for good (after any retries), or was aborted by the caller. */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status: number | undefined,
    /** True when no later request can succeed either (bad key, unknown model...): stop the run. */
    readonly fatal: boolean,
    /** HTTP requests made, retries included. */
    readonly requests: number,
  ) {
    super(message)
    this.name = 'LlmError'
  }
}

/** A retry about to happen, for progress reporting. */
export interface RetryInfo {
  /** The request that failed, 1-based. */
  readonly attempt: number
  readonly delayMs: number
  /** What failed: "HTTP 429", "timeout after 60 s", "network error: ECONNRESET". */
  readonly reason: string
}

/** Something that answers chat requests; {@link LlmClient} is the real one. */
export interface ChatClient {
  complete(messages: readonly ChatMessage[], format: ResponseSchema, options?: CompleteOptions): Promise<ChatCompletion>
}

/** Per-call options. */
export interface CompleteOptions {
  /** Aborts the request and any wait between retries. */
  readonly signal?: AbortSignal
  readonly onRetry?: (info: RetryInfo) => void
}

/** Client settings; everything but the endpoint has a default suited to a real provider. */
export interface LlmClientOptions {
  readonly baseUrl: string
  readonly apiKey: string | undefined
  readonly model: string
  /** Per-request timeout, default 60 s. */
  readonly timeoutMs?: number
  /** HTTP requests per call, the first included (default 6). */
  readonly maxRequests?: number
  /** First backoff delay, doubled at each retry (default 1 s). */
  readonly baseDelayMs?: number
  /** Longest backoff delay (default 60 s). */
  readonly maxDelayMs?: number
  /** Longest Retry-After honoured; longer ones are cut to this (default 5 min). */
  readonly maxRetryAfterMs?: number
  /** Waits between retries; rejects when the signal aborts. Injected by tests. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>
  /** Source of jitter in [0, 1). Injected by tests. */
  readonly random?: () => number
  /** Current time in ms, for HTTP-date Retry-After values. */
  readonly now?: () => number
}

/**
 * Parses a Retry-After header: delay-seconds or an HTTP-date.
 * @returns the delay in milliseconds (never negative), or undefined when absent or unreadable.
 * @example parseRetryAfter('1', Date.now()) // 1000
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  // Date.parse reads bare numbers as years; only a text with letters can be an HTTP-date.
  if (!/[A-Za-z]/.test(text)) return undefined
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * The wait before retry number `retry` (1-based): exponential, capped, with "equal jitter"
 * (between half and all of the exponential delay), so that parallel workers that failed
 * together do not retry together, yet never hammer the server with near-zero waits.
 * @example backoffDelay(3, 1000, 60_000, () => 0) // 2000
 */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random: () => number): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** (retry - 1))
  return Math.round(exponential * (0.5 + random() / 2))
}

/** Statuses worth retrying: rate limits, request timeouts, conflicts and server errors. */
function retryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * Statuses no retry and no other verse can fix: a malformed request or schema (400, 422),
 * a bad or missing key (401, 403), an unknown model or a wrong base URL (404).
 */
function fatal(status: number): boolean {
  return status === 400 || status === 401 || status === 403 || status === 404 || status === 422
}

/** Models sometimes wrap JSON in a Markdown fence even when asked not to; unwrap it. */
function unfence(text: string): string {
  const match = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(text)
  return match?.[1] ?? text
}

/** The provider's error message, if its body has the usual `{ error: { message } }` shape. */
function providerMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown }
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message)
    if (typeof message === 'string' && message.trim() !== '') return message.trim().slice(0, 300)
  } catch {
    // Not JSON: an HTML error page from a proxy, say; show its start.
  }
  return body.replace(/\s+/g, ' ').trim().slice(0, 200)
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0
}

/** Why one HTTP attempt failed, and whether to try again. */
interface AttemptFailure {
  readonly kind: LlmErrorKind
  readonly reason: string
  readonly status: number | undefined
  readonly retry: boolean
  readonly fatal: boolean
  readonly retryAfterMs: number | undefined
}

/** The OpenAI-compatible chat-completions client. */
export class LlmClient implements ChatClient {
  private readonly endpoint: string
  private readonly timeoutMs: number
  private readonly maxRequests: number
  private readonly baseDelayMs: number
  private readonly maxDelayMs: number
  private readonly maxRetryAfterMs: number
  private readonly sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>
  private readonly random: () => number
  private readonly now: () => number

  constructor(private readonly options: LlmClientOptions) {
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.maxRequests = Math.max(1, options.maxRequests ?? 6)
    this.baseDelayMs = options.baseDelayMs ?? 1000
    this.maxDelayMs = options.maxDelayMs ?? 60_000
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 300_000
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, signal === undefined ? {} : { signal }))
    this.random = options.random ?? Math.random
    this.now = options.now ?? Date.now
  }

  /**
   * Sends one chat request, retrying transient failures.
   * @throws LlmError when the request fails for good or the signal aborts it.
   */
  async complete(messages: readonly ChatMessage[], format: ResponseSchema, options: CompleteOptions = {}): Promise<ChatCompletion> {
    const { signal, onRetry } = options
    const body = JSON.stringify({
      model: this.options.model,
      messages,
      response_format: { type: 'json_schema', json_schema: { name: format.name, strict: true, schema: format.schema } },
    })
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted === true) throw new LlmError('aborted', 'aborted', undefined, false, attempt - 1)
      const result = await this.attempt(body, signal)
      if (!('kind' in result)) return { ...result, requests: attempt }
      if (result.kind === 'aborted') throw new LlmError('aborted', 'aborted', undefined, false, attempt)
      if (!result.retry || attempt >= this.maxRequests) {
        const tries = attempt > 1 ? ` (after ${attempt} requests)` : ''
        throw new LlmError(result.kind, `${result.reason}${tries}`, result.status, result.fatal, attempt)
      }
      const backoff = backoffDelay(attempt, this.baseDelayMs, this.maxDelayMs, this.random)
      // Retry-After is the server's own word on when to come back: wait that long (plus a
      // little jitter so that parallel workers do not return at the same instant).
      const delayMs =
        result.retryAfterMs === undefined ? backoff : Math.min(result.retryAfterMs, this.maxRetryAfterMs) + Math.round(this.random() * this.baseDelayMs * 0.25)
      onRetry?.({ attempt, delayMs, reason: result.reason })
      try {
        await this.sleep(delayMs, signal)
      } catch {
        throw new LlmError('aborted', 'aborted', undefined, false, attempt)
      }
    }
  }

  /** One HTTP request: the completion, or why it failed. */
  private async attempt(body: string, signal: AbortSignal | undefined): Promise<Omit<ChatCompletion, 'requests'> | AttemptFailure> {
    // A controller per request rather than AbortSignal.any([signal, timeout]): tying tens of
    // thousands of signals to the run's long-lived one leaks in some Node versions
    // (nodejs/node#55351); here the listener is removed when the request ends.
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, this.timeoutMs)
    const onAbort = (): void => controller.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
    if (this.options.apiKey !== undefined) headers.authorization = `Bearer ${this.options.apiKey}`
    let status: number | undefined
    try {
      const response = await fetch(this.endpoint, { method: 'POST', headers, body, signal: controller.signal })
      status = response.status
      // The body is read under the same signal: a server that sends headers and then stalls
      // is caught by the timeout too.
      const text = await response.text()
      if (!response.ok) {
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.now())
        return {
          kind: 'http',
          reason: `HTTP ${response.status}: ${providerMessage(text) || response.statusText}`,
          status: response.status,
          retry: retryable(response.status),
          fatal: fatal(response.status),
          retryAfterMs,
        }
      }
      return this.read(text)
    } catch (error) {
      if (signal?.aborted === true) return { kind: 'aborted', reason: 'aborted', status, retry: false, fatal: false, retryAfterMs: undefined }
      if (timedOut) {
        return { kind: 'timeout', reason: `timeout after ${this.timeoutMs / 1000} s`, status: undefined, retry: true, fatal: false, retryAfterMs: undefined }
      }
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause
      const detail =
        typeof cause?.code === 'string'
          ? cause.code
          : typeof cause?.message === 'string'
            ? cause.message
            : error instanceof Error
              ? error.message
              : String(error)
      return { kind: 'network', reason: `network error: ${detail}`, status: undefined, retry: true, fatal: false, retryAfterMs: undefined }
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }

  /** Reads a 2xx body: the envelope must be a chat completion; the answer inside may be anything. */
  private read(text: string): Omit<ChatCompletion, 'requests'> | AttemptFailure {
    // A 2xx that is not a completion (a proxy's page, a truncated body) is the server's
    // fault, not the model's: retry it like a 5xx.
    const bad = (reason: string): AttemptFailure => ({ kind: 'bad_response', reason, status: undefined, retry: true, fatal: false, retryAfterMs: undefined })
    let envelope: unknown
    try {
      envelope = JSON.parse(text)
    } catch {
      return bad('the server answered with something that is not JSON')
    }
    type Envelope = {
      model?: unknown
      choices?: Array<{ message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }>
      usage?: { prompt_tokens?: unknown; completion_tokens?: unknown }
    }
    const { model, choices, usage } = (envelope ?? {}) as Envelope
    const choice = Array.isArray(choices) ? choices[0] : undefined
    if (choice === undefined || typeof choice !== 'object' || choice === null) return bad('the server answered without choices')
    const tokens: TokenUsage = { promptTokens: count(usage?.prompt_tokens), completionTokens: count(usage?.completion_tokens) }
    const answeredBy = typeof model === 'string' && model.trim() !== '' ? model.trim() : this.options.model
    const message = choice.message ?? {}
    if (typeof message.refusal === 'string' && message.refusal.trim() !== '') {
      return { content: { ok: false, error: `the model refused: ${message.refusal.trim().slice(0, 200)}` }, raw: '', usage: tokens, model: answeredBy }
    }
    if (typeof message.content !== 'string') return bad('the answer has no message content')
    const raw = message.content
    let content: ParsedContent
    try {
      content = { ok: true, value: JSON.parse(unfence(raw)) }
    } catch (error) {
      const cut = choice.finish_reason === 'length' ? ' (the answer was cut off at the token limit)' : ''
      content = { ok: false, error: `not valid JSON: ${error instanceof Error ? error.message : String(error)}${cut}` }
    }
    return { content, raw, usage: tokens, model: answeredBy }
  }
}
