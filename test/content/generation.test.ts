/**
 * The AI generation pipeline against a local OpenAI-compatible server started by the test:
 * valid answers stored, resumable runs, answer and transport retries, failures reported,
 * the request's shape (json_schema, neighbours), bounded concurrency and a clean abort.
 * Waits between retries are injected, so Retry-After: 1 costs no real second.
 */
import t, { type Test } from 'tap'
import { sql } from 'kysely'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ContentRepository } from '../../src/content/content.repository.js'
import { ContentService } from '../../src/content/pipeline/content.service.js'
import type { StoredContent, Style, StyleContent } from '../../src/content/content.store.js'
import { SelectionError, generateContent, planGeneration, selectVerses, type GenerationDeps } from '../../src/content/pipeline/generation/generate.service.js'
import { LlmClient, LlmConfigError, backoffDelay, loadLlmConfig, parseRetryAfter, type ChatMessage } from '../../src/content/pipeline/generation/llm-client.js'
import { GenerationProgress, formatReport } from '../../src/content/pipeline/generation/progress.js'
import { PROMPT_VERSIONS, RESPONSE_SCHEMAS, loadPrompt } from '../../src/content/pipeline/generation/prompts.js'
import { validateContent } from '../../src/content/pipeline/validation.js'
import { loadTestStores } from '../helpers/app.js'
import { openTestDatabase } from '../helpers/database.js'
import { gateReadyRendering } from '../helpers/renderings.js'

// ---------------------------------------------------------------------------------------
// Answers

/** Realistic answers that pass validateContent, keyed by style and reference. */
const REALISTIC: Readonly<Record<string, Record<string, string>>> = {
  'faithful John 11:35': {
    simplified_text: 'Jesus wept.',
    bottom_line: 'Jesus cried openly as he grieved with Mary and Martha over the death of his friend Lazarus.',
    historical_context:
      "The Gospel of John, traditionally attributed to the apostle John and usually dated to around AD 90 to 100, places this moment at Bethany, near Jerusalem, shortly before Jesus raises Lazarus. Many scholars think the Gospel took its final form in a community shaped by John's teaching, while tradition holds that John wrote it himself.",
    practical_reflection:
      'Jesus wept even though he knew what he was about to do, so grief is not a failure of faith. It is good to take time to mourn with people who are hurting, without rushing them toward answers.',
  },
  'casual John 11:35': { simplified_text: 'Jesus broke down and cried.', bottom_line: "Jesus was moved to tears by his friends' grief." },
  'faithful Genesis 1:1': {
    simplified_text: 'In the beginning God created the heavens and the earth.',
    bottom_line: 'God is the creator of everything that exists.',
    historical_context:
      'Genesis is the first book of the Torah, which Jewish and Christian tradition attributes to Moses. Many modern scholars see it as drawing on several sources brought together over centuries, reaching its final form around the Babylonian exile or soon after, in the sixth or fifth century BC.',
    practical_reflection:
      'The Bible opens with a statement about where everything comes from rather than with an argument. Whatever you think about how the world began, it is worth treating the world and the people in it as a gift rather than something to take for granted.',
  },
  'faithful 3 John 1:14': {
    simplified_text:
      'But I hope to see you soon, and we will talk face to face. Peace be with you. The friends here send you their greetings. Greet the friends there by name.',
    bottom_line: 'John closes his letter hoping to visit Gaius soon and passing on greetings between their friends.',
    historical_context:
      'Third John is a short personal letter from a writer who calls himself the elder, traditionally identified with the apostle John, to a believer named Gaius, and is usually dated to the late first century. Many scholars think the elder was a church leader in the circle around John rather than the apostle himself.',
    practical_reflection:
      'The writer would rather talk in person than write more with pen and ink. Friendships grow when people take the trouble to meet, and to greet one another by name.',
  },
}

/** A valid answer for any verse: the realistic one if written, else a plain derived one. */
function validAnswer(style: Style, reference: string, kjv: string): Record<string, string> {
  const realistic = REALISTIC[`${style} ${reference}`]
  if (realistic !== undefined) return realistic
  const simplified = gateReadyRendering(kjv)
  if (style === 'casual') return { simplified_text: simplified, bottom_line: `This is what ${reference} says in plain words.` }
  return {
    simplified_text: simplified,
    bottom_line: `This is what ${reference} says in plain words.`,
    historical_context: 'Tradition and modern scholarship both discuss who wrote this book, for whom and when.',
    practical_reflection: 'Readers of any background can take a moment to consider what this verse says.',
  }
}

/** Breaks the faithful rules: archaic "thou" and a 40-word bottom line. */
const INVALID_FAITHFUL = {
  simplified_text:
    'And the earth was without form, and void; and darkness was upon the face of the deep, and thou saw the Spirit of God moving upon the face of the waters.',
  bottom_line:
    'Before God shaped anything the world was a dark and empty watery chaos, yet even there the Spirit of God was present and moving over the waters, ready to bring order, light and life out of the very formless deep.',
  historical_context: 'Genesis opens the Torah, which tradition attributes to Moses.',
  practical_reflection: 'Even in chaos, there can be hope.',
}

// ---------------------------------------------------------------------------------------
// The local OpenAI-compatible server

type Reply =
  | {
      readonly kind: 'answer'
      readonly content: unknown
      readonly delayMs?: number
      /** Hold the answer until this many requests have been in flight at once (no clock involved). */
      readonly holdUntilInFlight?: number
    }
  | { readonly kind: 'raw'; readonly content: string }
  | { readonly kind: 'status'; readonly status: number; readonly headers?: Record<string, string>; readonly body?: string }
  | { readonly kind: 'hang' }

interface ChatRequest {
  model: string
  messages: ChatMessage[]
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: { required: string[]; additionalProperties: boolean } } }
}

interface Received {
  readonly reference: string
  readonly body: ChatRequest
  readonly authorization: string | undefined
}

/** What the script sees of a request. */
interface Call {
  readonly reference: string
  readonly kjv: string
  /** This verse's request number, 1-based. */
  readonly nth: number
  /** The request number over the whole server, 1-based. */
  readonly overall: number
  readonly body: ChatRequest
}

interface FakeLlm {
  readonly url: string
  readonly received: Received[]
  /** Requests per reference. */
  readonly perVerse: Map<string, number>
  inFlight(): number
  maxInFlight(): number
  close(): Promise<void>
}

const USAGE = { prompt_tokens: 900, completion_tokens: 150, total_tokens: 1050 }

async function startFakeLlm(script: (call: Call) => Reply): Promise<FakeLlm> {
  const received: Received[] = []
  const perVerse = new Map<string, number>()
  let inFlight = 0
  let maxInFlight = 0
  const held: Array<{ readonly until: number; readonly send: () => void }> = []
  const releaseHeld = (): void => {
    for (const hold of held.filter((h) => maxInFlight >= h.until)) {
      held.splice(held.indexOf(hold), 1)
      hold.send()
    }
  }
  const server: Server = createServer((req, res) => {
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    releaseHeld()
    // 'close' fires when the answer is sent or the client gives up (abort, timeout).
    res.on('close', () => inFlight--)
    let data = ''
    req.setEncoding('utf8').on('data', (chunk: string) => (data += chunk))
    req.on('end', () => {
      const body = JSON.parse(data) as ChatRequest
      const user = body.messages.find((m) => m.role === 'user')?.content ?? ''
      const target = /Target verse, (.+?) \(KJV, \d+ words\):\n(.*)\n/.exec(user)
      const reference = target?.[1] ?? '?'
      const nth = (perVerse.get(reference) ?? 0) + 1
      perVerse.set(reference, nth)
      received.push({ reference, body, authorization: req.headers.authorization })
      const reply = script({ reference, kjv: target?.[2] ?? '', nth, overall: received.length, body })
      if (reply.kind === 'hang') return
      if (reply.kind === 'status') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
        res.end(reply.body ?? JSON.stringify({ error: { message: `status ${reply.status}`, type: 'server_error' } }))
        return
      }
      const content = reply.kind === 'raw' ? reply.content : JSON.stringify(reply.content)
      const envelope = {
        id: `chatcmpl-${received.length}`,
        object: 'chat.completion',
        model: 'test-model-2024-07-18',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: USAGE,
      }
      const send = (): void => {
        setTimeout(
          () => {
            res.writeHead(200, { 'content-type': 'application/json' })
            res.end(JSON.stringify(envelope))
          },
          reply.kind === 'answer' ? (reply.delayMs ?? 0) : 0,
        )
      }
      if (reply.kind === 'answer' && reply.holdUntilInFlight !== undefined) {
        held.push({ until: reply.holdUntilInFlight, send })
        releaseHeld()
      } else send()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    received,
    perVerse,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    close: async () => {
      // Hung requests would keep close() waiting for ever.
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

// ---------------------------------------------------------------------------------------
// Helpers

interface Setup {
  readonly deps: GenerationDeps
  readonly repository: ContentRepository
}

/**
 * A seeded database without the shipped content: generation fills what the repository does
 * not cover, so the verses these tests generate must not be covered already.
 */
async function setup(t: Test): Promise<Setup> {
  const handle = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => handle.close())
  await sql`delete from verse_content where method <> 'modernized'`.execute(handle.db)
  const stores = await loadTestStores(t, handle)
  const repository = new ContentRepository(handle.db)
  return { repository, deps: { verses: stores.verses, repository, content: new ContentService(repository, stores.verses) } }
}

async function fake(t: Test, script: (call: Call) => Reply): Promise<FakeLlm> {
  const server = await startFakeLlm(script)
  t.teardown(() => server.close())
  return server
}

/** Records the waits the client asks for and returns at once (unless aborted). */
function instantSleep(waits: number[]): (ms: number, signal: AbortSignal | undefined) => Promise<void> {
  return async (ms, signal) => {
    waits.push(ms)
    if (signal?.aborted === true) throw new Error('aborted')
  }
}

function client(server: FakeLlm, options: { timeoutMs?: number; maxRequests?: number; waits?: number[] } = {}): LlmClient {
  return new LlmClient({
    baseUrl: server.url,
    apiKey: 'sk-test',
    model: 'test-model',
    timeoutMs: options.timeoutMs ?? 5000,
    maxRequests: options.maxRequests ?? 6,
    sleep: instantSleep(options.waits ?? []),
    random: () => 0,
  })
}

async function generated(repository: ContentRepository, style: Style): Promise<StyleContent[]> {
  return repository.listByMethod(['generated'], style)
}

/** The fields of a stored row as validateContent sees them. */
function fieldsOf(row: StyleContent): Record<string, string> {
  const all: Record<string, string | null> = {
    simplified_text: row.simplifiedText,
    bottom_line: row.bottomLine,
    historical_context: row.historicalContext,
    practical_reflection: row.practicalReflection,
  }
  return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== null))
}

function userMessage(body: ChatRequest): string {
  return body.messages.find((m) => m.role === 'user')?.content ?? ''
}

const GENESIS_1_1 = 1_001_001
const JOHN_11_35 = 43_011_035
const THIRD_JOHN_1_14 = 64_001_014

// ---------------------------------------------------------------------------------------
// Tests

t.test('stores valid answers, sends the JSON schema and the neighbours, and resumes', async (t) => {
  const { deps, repository } = await setup(t)
  // The first answers wait until the client has filled every slot, so the bound is seen whatever the machine's load.
  const server = await fake(t, (call) => ({
    kind: 'answer',
    content: validAnswer('faithful', call.reference, call.kjv),
    delayMs: 20,
    ...(call.overall <= 3 ? { holdUntilInFlight: 3 } : {}),
  }))
  const llm = client(server)

  const first = await generateContent(deps, { style: 'faithful', book: '3 John', limit: 5, client: llm, model: 'test-model', concurrency: 3 })
  t.match(first, { selected: 14, skipped: 0, toGenerate: 5, done: 5, failed: 0, aborted: false, fatal: undefined })
  t.equal(server.received.length, 5)

  const second = await generateContent(deps, { style: 'faithful', book: '3 John', client: llm, model: 'test-model', concurrency: 3 })
  t.match(second, { selected: 14, skipped: 5, toGenerate: 9, done: 9, failed: 0 }, 'an interrupted run continues where it stopped')
  t.equal(server.received.length, 14, 'no verse was asked for twice')
  t.same(
    [...server.perVerse.values()].filter((n) => n !== 1),
    [],
  )
  t.equal(second.promptTokens, 9 * USAGE.prompt_tokens, 'tokens come from the usage field')
  t.equal(second.completionTokens, 9 * USAGE.completion_tokens)
  t.ok(server.maxInFlight() <= 3, `at most 3 requests in flight (saw ${server.maxInFlight()})`)
  t.equal(server.maxInFlight(), 3, 'and the bound is used')

  const third = await generateContent(deps, { style: 'faithful', book: '3 John', client: llm, model: 'test-model' })
  t.match(third, { selected: 14, skipped: 14, toGenerate: 0, done: 0 })
  t.equal(server.received.length, 14, 'a finished selection makes no request')

  const request = server.received.find((r) => r.reference === '3 John 1:14')
  if (request === undefined) throw new Error('no request for 3 John 1:14')
  t.equal(request.authorization, 'Bearer sk-test')
  t.equal(request.body.model, 'test-model')
  t.equal(request.body.response_format.type, 'json_schema')
  t.equal(request.body.response_format.json_schema.name, 'plainverse_faithful')
  t.equal(request.body.response_format.json_schema.strict, true)
  t.same(request.body.response_format.json_schema.schema, RESPONSE_SCHEMAS.faithful.schema)
  t.same(request.body.response_format.json_schema.schema.required, ['simplified_text', 'bottom_line', 'historical_context', 'practical_reflection'])
  t.equal(request.body.response_format.json_schema.schema.additionalProperties, false)
  t.equal(request.body.messages[0]?.role, 'system')
  t.match(request.body.messages[0]?.content, /thee, thou, thy, thine/)
  const user = userMessage(request.body)
  t.match(user, /Context only, not to be rewritten/)
  t.match(user, /3 John 1:12: Demetrius hath good report/, 'two verses before, as context')
  t.match(user, /3 John 1:13: I had many things to write/)
  t.notMatch(user, /3 John 1:11:/)
  t.match(user, /\(none: the target closes the book\)/)
  t.match(user, /Target verse, 3 John 1:14 \(KJV, 28 words\):\nBut I trust I shall shortly see thee/)
  t.match(user, /simplified_text must have 14 to 70 words/)
  const opening = userMessage(server.received.find((r) => r.reference === '3 John 1:1')?.body ?? request.body)
  t.match(opening, /\(none: the target opens the book\)/)
  t.match(opening, /3 John 1:2: Beloved, I wish/)
  t.match(opening, /3 John 1:3: For I rejoiced greatly/)

  const rows = await generated(repository, 'faithful')
  t.equal(rows.length, 14)
  for (const row of rows) {
    t.equal(row.promptVersion, PROMPT_VERSIONS.faithful)
    t.equal(row.model, 'test-model-2024-07-18', 'the model the provider says answered')
    const verse = deps.verses.byVerseId(row.verseId)
    t.same(validateContent('faithful', fieldsOf(row), verse?.text ?? ''), [], `stored ${row.verseId} is valid`)
  }
  t.same(fieldsOf(rows.find((r) => r.verseId === THIRD_JOHN_1_14) as StyleContent), REALISTIC['faithful 3 John 1:14'])
})

t.test('casual style: concurrency never exceeds the bound over a whole chapter', async (t) => {
  const { deps, repository } = await setup(t)
  // The first answers wait until the client has filled every slot, so the bound is seen whatever the machine's load.
  const server = await fake(t, (call) => ({
    kind: 'answer',
    content: validAnswer('casual', call.reference, call.kjv),
    delayMs: 5,
    ...(call.overall <= 4 ? { holdUntilInFlight: 4 } : {}),
  }))
  const report = await generateContent(deps, { style: 'casual', book: 'John', chapter: 11, client: client(server), model: 'test-model' })
  t.match(report, { selected: 57, done: 57, failed: 0, transportRetries: 0, answerRetries: 0 })
  t.ok(server.maxInFlight() <= 4, `default bound of 4 (saw ${server.maxInFlight()})`)
  t.equal(server.maxInFlight(), 4)
  t.equal(server.received[0]?.body.response_format.json_schema.name, 'plainverse_casual')
  const row = (await generated(repository, 'casual')).find((r) => r.verseId === JOHN_11_35)
  t.same(row === undefined ? undefined : fieldsOf(row), REALISTIC['casual John 11:35'])
  t.equal(row?.promptVersion, 'casual-v2')
  const john1135 = userMessage(server.received.find((r) => r.reference === 'John 11:35')?.body ?? ({ messages: [] } as unknown as ChatRequest))
  t.match(john1135, /John 11:33: When Jesus therefore saw her weeping[\s\S]*John 11:34:[\s\S]*John 11:36:[\s\S]*John 11:37:/, 'two verses on each side')
  t.match(john1135, /Proper names that simplified_text must keep: Jesus/)
})

t.test('retries, failures and the report', async (t) => {
  const { deps, repository } = await setup(t)
  const waits: number[] = []
  const server = await fake(t, (call): Reply => {
    switch (call.reference) {
      case 'Genesis 1:1': // malformed, then right
        return call.nth === 1
          ? { kind: 'raw', content: '{"simplified_text": "In the beginning God created' }
          : { kind: 'answer', content: REALISTIC['faithful Genesis 1:1'] }
      case 'Genesis 1:2': // always breaks the rules
        return { kind: 'answer', content: INVALID_FAITHFUL }
      case 'Genesis 1:3': // rate limited once
        return call.nth === 1
          ? { kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: '{"error":{"message":"Rate limit reached"}}' }
          : { kind: 'answer', content: validAnswer('faithful', call.reference, call.kjv) }
      case 'Genesis 1:4': // two server errors
        return call.nth <= 2 ? { kind: 'status', status: 500 } : { kind: 'answer', content: validAnswer('faithful', call.reference, call.kjv) }
      case 'Genesis 1:5': // never answers
        return { kind: 'hang' }
      default: // 1:6 always overloaded
        return { kind: 'status', status: 503 }
    }
  })
  const events: string[] = []
  const report = await generateContent(deps, {
    style: 'faithful',
    book: 'Genesis',
    chapter: 1,
    limit: 6,
    concurrency: 2,
    // Only the verse that never answers reaches the timeout, however slow the machine: every
    // other reply is immediate. The backoff waits go through the injected sleep (`waits`).
    client: client(server, { timeoutMs: 3000, maxRequests: 3, waits }),
    model: 'test-model',
    onEvent: (e) => events.push(e.type),
  })

  t.match(report, { selected: 31, toGenerate: 6, done: 3, failed: 3, interrupted: 0, notStarted: 0, aborted: false, fatal: undefined })
  t.equal(report.answerRetries, 3, 'Genesis 1:1 once (malformed), Genesis 1:2 twice (invalid)')
  t.equal(report.transportRetries, 7, '429 once, 500 twice, timeout twice, 503 twice')
  t.same(
    Object.fromEntries(server.perVerse),
    { 'Genesis 1:1': 2, 'Genesis 1:2': 3, 'Genesis 1:3': 2, 'Genesis 1:4': 3, 'Genesis 1:5': 3, 'Genesis 1:6': 3 },
    'requests per verse',
  )
  t.ok(waits.includes(1000), `Retry-After: 1 is honoured (waits ${waits.join(', ')})`)
  t.equal(waits.filter((w) => w === 500).length, 3, 'first backoff: half of 1 s with no jitter (500, timeout, 503)')
  t.equal(report.promptTokens, 7 * USAGE.prompt_tokens, 'every answer counts, invalid ones too')

  const reasons = Object.fromEntries(report.failures.map((f) => [f.reason, f.count]))
  t.same(Object.keys(reasons).sort(), ['HTTP 503', 'invalid content: bottom_line bottom_line_words, simplified_text archaic_form', 'timeout'])
  const invalid = report.failures.find((f) => f.reason.startsWith('invalid content'))
  t.match(invalid?.examples[0], { slug: 'genesis-1-2', detail: /uses archaic form "thou"[\s\S]*has 40 words; at most 30/ })
  t.match(report.failures.find((f) => f.reason === 'timeout')?.examples[0], { slug: 'genesis-1-5', detail: /timeout after 3 s \(after 3 requests\)/ })
  t.match(report.failures.find((f) => f.reason === 'HTTP 503')?.examples[0], { slug: 'genesis-1-6', detail: /HTTP 503: status 503/ })
  t.ok(events.includes('retry') && events.includes('failed') && events.includes('done'))

  // The retry tells the model what was wrong, with its own rejected answer.
  const retry = server.received.filter((r) => r.reference === 'Genesis 1:2')[1]?.body.messages ?? []
  t.same(
    retry.map((m) => m.role),
    ['system', 'user', 'assistant', 'user'],
  )
  t.same(JSON.parse(retry[2]?.content ?? '{}'), INVALID_FAITHFUL)
  t.match(retry[3]?.content, /rejected[\s\S]*simplified_text \(archaic_form\)[\s\S]*bottom_line \(bottom_line_words\)/)
  const malformed = server.received.filter((r) => r.reference === 'Genesis 1:1')[1]?.body.messages ?? []
  t.match(malformed[3]?.content, /not valid JSON/)

  const rows = await generated(repository, 'faithful')
  t.same(rows.map((r) => r.verseId).sort(), [1_001_001, 1_001_003, 1_001_004], 'only valid answers are stored')
  t.same(fieldsOf(rows.find((r) => r.verseId === GENESIS_1_1) as StyleContent), REALISTIC['faithful Genesis 1:1'])

  const text = formatReport(report).join('\n')
  t.match(text, /generated: +3 of 6/)
  t.match(text, /failed: +3/)
  t.match(text, /retries: +7 requests .*3 answers/)
  t.match(text, /1 +invalid content: bottom_line bottom_line_words, simplified_text archaic_form\n +genesis-1-2: /)
  t.match(text, /tokens: +6,300 in, 1,050 out/)

  // The failed verses are not stored, so the next run tries exactly them again.
  const plan = await planGeneration(deps, { style: 'faithful', book: 'Genesis', chapter: 1, limit: 6 })
  t.equal(plan.first?.slug, 'genesis-1-2')
  t.equal(plan.skipped, 3)
})

t.test('verses with shipped content are left alone', async (t) => {
  const { deps, repository } = await setup(t)
  const shipped = (verseId: number, method: 'curated' | 'generated', promptVersion: string): StoredContent => ({
    verseId,
    style: 'faithful',
    method,
    model: method === 'curated' ? null : 'anthropic/claude',
    promptVersion,
    simplifiedText: 'x',
    bottomLine: 'x',
    historicalContext: 'x',
    practicalReflection: 'x',
    contentHash: 'x',
  })
  // Genesis 1:1 curated, 1:2 written by the team, 1:3 generated by an operator's earlier prompt.
  await repository.upsertMany([
    shipped(GENESIS_1_1, 'curated', 'curated-2'),
    shipped(GENESIS_1_1 + 1, 'generated', 'editorial-1'),
    shipped(GENESIS_1_1 + 2, 'generated', 'faithful-v0'),
  ])
  const plan = await planGeneration(deps, { style: 'faithful', book: 'Genesis', chapter: 1 })
  t.equal(plan.skipped, 2, 'the curated and the team-written verse are skipped')
  t.equal(plan.first?.slug, 'genesis-1-3', 'a verse generated with another prompt version is generated again')
  const casual = await planGeneration(deps, { style: 'casual', book: 'Genesis', chapter: 1 })
  t.equal(casual.skipped, 0, 'per style: faithful content does not cover casual')
})

t.test('aborting mid-run: no new requests, in-flight ones aborted, nothing half-written', async (t) => {
  const { deps, repository } = await setup(t)
  const server = await fake(t, (call) =>
    call.overall <= 6 ? { kind: 'answer', content: validAnswer('faithful', call.reference, call.kjv), delayMs: 10 } : { kind: 'hang' },
  )
  const controller = new AbortController()
  const run = generateContent(deps, {
    style: 'faithful',
    book: 'John',
    chapter: 11,
    // A request timeout longer than any test run: only the abort can end the hung requests.
    client: client(server, { timeoutMs: 3_600_000 }),
    model: 'test-model',
    signal: controller.signal,
  })
  // Polls for a state, not a time: tap's own timeout ends a run that never gets there.
  while (!(server.received.length === 10 && server.inFlight() === 4)) await new Promise((r) => setTimeout(r, 10))
  controller.abort()
  const report = await run
  t.match(report, { aborted: true, fatal: undefined, toGenerate: 57, done: 6, failed: 0, interrupted: 4, notStarted: 47 })
  t.same(report.failures, [], 'the hung requests were aborted, not timed out')
  while (server.inFlight() > 0) await new Promise((r) => setTimeout(r, 10))
  t.equal(server.received.length, 10, 'no request after the abort, and the server saw the hung requests closed')

  const rows = await generated(repository, 'faithful')
  t.equal(rows.length, 6, 'exactly the verses reported done')
  for (const row of rows)
    t.same(validateContent('faithful', fieldsOf(row), deps.verses.byVerseId(row.verseId)?.text ?? ''), [], 'each stored verse is complete and valid')
  t.match(formatReport(report).join('\n'), /not finished: 51 \(4 in flight when stopped, 47 not started/)

  const again = await generateContent(deps, {
    style: 'faithful',
    book: 'John',
    chapter: 11,
    limit: 1,
    client: client(server),
    model: 'test-model',
    signal: AbortSignal.abort(),
  })
  t.match(again, { aborted: true, done: 0, notStarted: 1 }, 'an already aborted signal starts nothing')
  t.equal(server.received.length, 10)
})

t.test('an error no retry can fix stops the run', async (t) => {
  const { deps, repository } = await setup(t)
  const server = await fake(t, () => ({ kind: 'status', status: 401, body: '{"error":{"message":"Incorrect API key provided: sk-test."}}' }))
  const report = await generateContent(deps, { style: 'casual', book: 'Jude', client: client(server), model: 'test-model', concurrency: 2 })
  t.match(report.fatal, /HTTP 401: Incorrect API key provided.*LLM_API_KEY/)
  t.match(report, { done: 0, failed: 0, toGenerate: 25 })
  t.ok(server.received.length <= 2, `one request per worker at most (${server.received.length})`)
  t.equal(report.notStarted + report.interrupted, 25)
  t.equal((await generated(repository, 'casual')).length, 0)
})

t.test('dry-run plan: the first prompt and a token estimate, with no request', async (t) => {
  const { deps } = await setup(t)
  const plan = await planGeneration(deps, { style: 'faithful', book: 'Genesis', chapter: 1 })
  t.match(plan, { style: 'faithful', promptVersion: 'faithful-v2', selected: 31, skipped: 0, toGenerate: 31 })
  t.equal(plan.first?.slug, 'genesis-1-1')
  t.match(
    plan.first?.messages[1]?.content,
    /\(none: the target opens the book\)[\s\S]*Genesis 1:2: And the earth[\s\S]*Target verse, Genesis 1:1 \(KJV, 10 words\)/,
  )
  const prompt = loadPrompt('faithful')
  const perVersePrompt = plan.estimate.promptTokens / 31
  t.ok(perVersePrompt > (prompt.system.length + prompt.user.length) / 4, `prompt estimate covers the prompt (${perVersePrompt} per verse)`)
  t.ok(perVersePrompt < 3000)
  t.ok(plan.estimate.completionTokens / 31 > 100 && plan.estimate.completionTokens / 31 < 500)
  const casual = await planGeneration(deps, { style: 'casual' })
  t.equal(casual.toGenerate, 31_102)
  t.ok(casual.estimate.completionTokens < (plan.estimate.completionTokens / 31) * 31_102, 'casual answers are shorter')
})

t.test('selection', async (t) => {
  const { deps } = await setup(t)
  t.equal(selectVerses(deps.verses, { book: '3jn' }).length, 14, 'any book alias')
  t.equal(selectVerses(deps.verses, {}).length, 31_102)
  t.throws(() => selectVerses(deps.verses, { book: 'Hezekiah' }), SelectionError)
  t.throws(() => selectVerses(deps.verses, { book: 'John', chapter: 22 }), /John has chapters 1 to 21/)
  t.throws(() => selectVerses(deps.verses, { chapter: 3 }), /--chapter needs --book/)
  const server = await fake(t, () => ({ kind: 'hang' }))
  await t.rejects(generateContent(deps, { style: 'casual', book: 'Hezekiah', client: client(server), model: 'm' }), SelectionError)
  t.equal(server.received.length, 0)
})

t.test('client pieces: Retry-After, backoff, configuration', async (t) => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')
  t.equal(parseRetryAfter('1', now), 1000)
  t.equal(parseRetryAfter(' 2.5 ', now), 2500)
  t.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', now), 30_000, 'HTTP-date')
  t.equal(parseRetryAfter('Wed, 21 Oct 2015 07:00:00 GMT', now), 0, 'a date in the past means now')
  t.equal(parseRetryAfter('soon', now), undefined)
  t.equal(parseRetryAfter(null, now), undefined)
  t.same(
    [1, 2, 3, 8, 20].map((n) => backoffDelay(n, 1000, 60_000, () => 0)),
    [500, 1000, 2000, 60_000 / 2, 30_000],
    'exponential, capped, at least half',
  )
  t.equal(
    backoffDelay(3, 1000, 60_000, () => 0.999999),
    4000,
  )

  const ok = loadLlmConfig({ LLM_BASE_URL: 'http://localhost:11434/v1/', LLM_MODEL: 'llama3.1:8b', LLM_API_KEY: '' })
  t.same(ok, { baseUrl: 'http://localhost:11434/v1', apiKey: undefined, model: 'llama3.1:8b', timeoutMs: 60_000 })
  t.equal(
    loadLlmConfig({ LLM_BASE_URL: 'https://api.openai.com/v1', LLM_MODEL: 'gpt-4o-mini', LLM_API_KEY: 'sk-x', LLM_TIMEOUT_SECONDS: '120' }).timeoutMs,
    120_000,
  )
  const fails = (env: Record<string, string>, variable: string): void => {
    let error: unknown
    try {
      loadLlmConfig(env)
    } catch (e) {
      error = e
    }
    t.ok(
      error instanceof LlmConfigError && error.variable === variable && error.message.includes(variable),
      `${variable}: ${JSON.stringify(env)} (${String(error)})`,
    )
  }
  fails({ LLM_MODEL: 'm' }, 'LLM_BASE_URL')
  fails({ LLM_BASE_URL: 'localhost:8080', LLM_MODEL: 'm' }, 'LLM_BASE_URL')
  fails({ LLM_BASE_URL: 'ftp://example.org/v1', LLM_MODEL: 'm' }, 'LLM_BASE_URL')
  fails({ LLM_BASE_URL: 'https://api.openai.com/v1/chat/completions', LLM_MODEL: 'm' }, 'LLM_BASE_URL')
  fails({ LLM_BASE_URL: 'https://api.openai.com/v1' }, 'LLM_MODEL')
  fails({ LLM_BASE_URL: 'https://api.openai.com/v1', LLM_MODEL: 'm', LLM_TIMEOUT_SECONDS: 'soon' }, 'LLM_TIMEOUT_SECONDS')
  fails({ LLM_BASE_URL: 'https://api.openai.com/v1', LLM_MODEL: 'm', LLM_API_KEY: 'sk x' }, 'LLM_API_KEY')
})

t.test('progress: a bar on a terminal, plain lines elsewhere', async (t) => {
  let clock = 0
  const sink = (): { stream: NodeJS.WritableStream; text: () => string } => {
    let text = ''
    const stream = { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WritableStream
    return { stream, text: () => text }
  }
  const feed = (progress: GenerationProgress): void => {
    progress.handle({ type: 'start', selected: 10, skipped: 2, toGenerate: 8 })
    clock = 2000
    progress.handle({ type: 'usage', promptTokens: 1500, completionTokens: 300 })
    progress.handle({ type: 'done', slug: 'jude-1-1', answers: 1 })
    clock = 4000
    progress.handle({ type: 'failed', slug: 'jude-1-2', reason: 'timeout', detail: 'timeout after 60 s' })
    progress.finish()
  }
  const tty = sink()
  feed(new GenerationProgress(tty.stream, { tty: true, redrawMs: 0, now: () => clock }))
  t.match(tty.text(), /\r\[######------------------\] +25% +2\/8 +done 1 +failed 1 +retries 0 +0\.50 verses\/s +ETA 12s +tokens 1\.5k in \/ 300 out\x1b\[K\n$/)
  clock = 0
  const plain = sink()
  feed(new GenerationProgress(plain.stream, { tty: false, lineIntervalMs: 3000, now: () => clock }))
  t.notMatch(plain.text(), /\r/, 'no carriage returns in logs')
  t.equal(
    plain
      .text()
      .split('\n')
      .filter((l) => l.startsWith('[')).length,
    3,
    'start, one periodic line, the final one',
  )
})
