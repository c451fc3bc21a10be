/**
 * The MCP tools through the SDK's own Client over Streamable HTTP against a listening app:
 * the list, every tool's structured content against its output schema, the text and its
 * citation, tool errors for bad arguments, and fuzzed arguments that never crash.
 */
import t from 'tap'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ErrorCode, LATEST_PROTOCOL_VERSION, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { DEFAULT_ATTRIBUTION_LICENSE } from '../../src/config.js'
import { MCP_TOOLS } from '../../src/mcp/mcp.tools.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { fetchChecked } from '../helpers/http.js'
import { connectClient, listening, rpcHeaders, toolCall } from '../helpers/mcp.js'

const ajv = new Ajv({ allErrors: true, strict: false })
;(addFormats as unknown as (a: Ajv) => void)(ajv)

/** The text of a result's first content block. */
function textOf(result: CallToolResult): string {
  const first = result.content[0]
  return first?.type === 'text' ? first.text : ''
}

t.test('MCP tools', async (t) => {
  const testApp = await buildTestApp(t)
  const { key } = await createTestKey(testApp, { tier: 'developer' })
  const baseUrl = await listening(testApp.app)
  const client: Client = await connectClient(t, baseUrl, { 'X-API-Key': key })
  const listed = (await client.listTools()).tools
  const validators = new Map<string, ValidateFunction>(listed.map((tool: Tool) => [tool.name, ajv.compile(tool.outputSchema ?? {})]))

  /** Calls a tool; for a success, checks the structured content against the listed output schema. */
  const callTool = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult
    if (result.isError !== true) {
      const validate = validators.get(name)
      t.ok(
        validate?.(result.structuredContent),
        `${name} ${JSON.stringify(args)}: structuredContent matches the output schema ${JSON.stringify(validate?.errors ?? [])}`,
      )
    }
    return result
  }
  const citationLine = (reference: string, path: string): string =>
    `Source: Plainverse — King James Version, ${reference} — http://localhost:8080${path} — ${DEFAULT_ATTRIBUTION_LICENSE}`

  t.test('initialize negotiates the newest revision and names the server', async (t) => {
    t.equal(client.getServerVersion()?.name, 'plainverse')
    t.ok(client.getServerCapabilities()?.tools, 'tools capability')
    t.match(client.getInstructions(), /citation/)
    const res = await fetchChecked(t, baseUrl, '/mcp', {
      method: 'POST',
      headers: rpcHeaders({ 'x-api-key': key }),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      }),
    })
    t.equal(res.status, 200)
    t.equal(LATEST_PROTOCOL_VERSION, '2025-11-25')
    t.equal(res.json<{ result: { protocolVersion: string } }>().result.protocolVersion, LATEST_PROTOCOL_VERSION)
    t.equal(res.headers.get('mcp-session-id'), null, 'stateless: no session')
  })

  t.test('tools/list gives every tool as defined, read-only, with schemas', async (t) => {
    t.same(
      listed.map((tool) => tool.name),
      ['get_verse', 'get_passage', 'search_scripture', 'resolve_reference', 'list_narratives', 'get_narrative'],
    )
    for (const tool of listed) {
      const definition = MCP_TOOLS.find((d) => d.name === tool.name)
      t.ok(definition, `${tool.name} is defined in MCP_TOOLS`)
      t.same(tool, JSON.parse(JSON.stringify(definition)), `${tool.name} is listed exactly as defined`)
      t.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is read-only`)
      t.equal(tool.annotations?.openWorldHint, false)
      t.ok((tool.description ?? '').length > 80, `${tool.name} has a description for models`)
      t.equal(tool.inputSchema.type, 'object')
      t.equal(tool.outputSchema?.type, 'object')
      t.doesNotThrow(() => ajv.compile(tool.inputSchema), `${tool.name} input schema compiles`)
      // Portable across clients: no `type: [..., "null"]` arrays (the MCP Inspector warns on them).
      t.notMatch(JSON.stringify([tool.inputSchema, tool.outputSchema]), /"type":\[/, `${tool.name} schemas have no type arrays`)
    }
    const scripture = listed.filter((tool) => ['get_verse', 'get_passage', 'search_scripture', 'get_narrative'].includes(tool.name))
    for (const tool of scripture) t.ok((tool.outputSchema?.required as string[]).includes('citation'), `${tool.name} output has a citation`)
  })

  t.test('a result with structured content also has it serialized as a text block (MCP 2025-06-18)', async (t) => {
    for (const [name, args] of [
      ['get_verse', { reference: 'john-3-16' }],
      ['resolve_reference', { text: 'see John 3:16' }],
      ['list_narratives', { gospel: 'mark' }],
    ] as const) {
      const result = await callTool(name, args)
      const blocks = result.content.filter((block) => block.type === 'text').map((block) => (block.type === 'text' ? block.text : ''))
      t.ok(blocks.length >= 2, `${name}: the readable text and the JSON`)
      t.same(JSON.parse(blocks.at(-1) ?? 'null'), result.structuredContent, `${name}: the last text block is the structured content`)
    }
  })

  t.test('get_verse by slug, alias and free text', async (t) => {
    for (const reference of ['john-3-16', 'jn-3-16', 'John 3:16', 'Jn 3:16']) {
      const result = await callTool('get_verse', { reference })
      t.not(result.isError, true, reference)
      const verse = result.structuredContent as {
        slug: string
        kjv_text: string
        faithful?: unknown
        casual?: unknown
        attribution: { url: string }
        citation: { text: string; references: unknown[] }
      }
      t.equal(verse.slug, 'john-3-16', reference)
      t.match(verse.kjv_text, /^For God so loved the world/)
      t.ok(verse.faithful, 'faithful by default')
      t.equal(verse.casual, undefined)
      t.equal(verse.attribution.url, 'http://localhost:8080/john/3/16')
      t.same(verse.citation.references, [{ reference: 'John 3:16', url: 'http://localhost:8080/john/3/16' }])
      t.equal(verse.citation.text, citationLine('John 3:16', '/john/3/16'))
      const text = textOf(result)
      t.match(text, /For God so loved the world/)
      t.ok(text.endsWith(citationLine('John 3:16', '/john/3/16')), 'the text ends with the citation line')
    }
    const casual = (await callTool('get_verse', { reference: 'psalm-23-1', style: 'casual' })).structuredContent as Record<string, unknown>
    t.equal(casual.slug, 'psalms-23-1')
    t.ok(casual.casual)
    t.equal(casual.faithful, undefined)
    const all = (await callTool('get_verse', { reference: 'Romans 8:28', style: 'all' })).structuredContent as Record<string, unknown>
    t.ok(all.faithful && all.casual)
  })

  t.test("get_verse names the verse's section (once, as the narrative, in the Gospels)", async (t) => {
    const romans = await callTool('get_verse', { reference: 'Romans 8:28' })
    const section = (romans.structuredContent as { section: { slug: string; title: string } }).section
    t.match(section.slug, /^romans-[a-z]/)
    t.match(textOf(romans), `Part of the section "${section.title}" (${section.slug}).`)
    const john = await callTool('get_verse', { reference: 'John 3:16' })
    t.same((john.structuredContent as { section: unknown }).section, { slug: 'john-nicodemus-comes-by-night', title: 'Nicodemus comes by night' })
    t.match(textOf(john), 'Part of the narrative "Nicodemus comes by night"')
    t.notMatch(textOf(john), 'Part of the section', 'the narrative is not named twice')
  })

  t.test('get_verse refuses more than one verse, and unknown verses, as tool errors', async (t) => {
    const range = await callTool('get_verse', { reference: 'John 3:16-18' })
    t.equal(range.isError, true)
    t.match(textOf(range), /3 verses.*get_passage/)
    t.equal(range.structuredContent, undefined)
    for (const reference of ['john-3-99', 'Hezekiah 1:1', 'nothing here']) {
      const missing = await callTool('get_verse', { reference })
      t.equal(missing.isError, true, reference)
      t.match(textOf(missing), /^No verse of the KJV matches/)
      t.notMatch(textOf(missing), /passage/i, 'get_verse speaks of verses')
    }
  })

  t.test('get_passage', async (t) => {
    const result = await callTool('get_passage', { reference: 'Romans 8:28, 31-32' })
    const passage = result.structuredContent as {
      reference: string
      verse_count: number
      verses: Array<{ slug: string }>
      citation: { references: unknown[]; text: string }
    }
    t.equal(passage.verse_count, 3)
    t.same(
      passage.verses.map((v) => v.slug),
      ['romans-8-28', 'romans-8-31', 'romans-8-32'],
    )
    t.same(passage.citation.references, [
      { reference: 'Romans 8:28', url: 'http://localhost:8080/romans/8/28' },
      { reference: 'Romans 8:31-32', url: 'http://localhost:8080/romans/8/31' },
    ])
    t.match(textOf(result), /\*\*8:31\*\* What shall we then say/)
    t.ok(textOf(result).endsWith(passage.citation.text))
    t.match(passage.citation.text, /^Source: Plainverse — King James Version, Romans 8:28 \(http:\/\/localhost:8080\/romans\/8\/28\); Romans 8:31-32/)
    const psalm = (await callTool('get_passage', { reference: 'psalms-23', style: 'all' })).structuredContent as { verse_count: number }
    t.equal(psalm.verse_count, 6)
    const long = await callTool('get_passage', { reference: 'Genesis 1-10' })
    t.equal(long.isError, true)
    t.match(textOf(long), /Genesis 1:1-10:32 holds 267 verses; a passage may hold at most 200/)
  })

  t.test('search_scripture', async (t) => {
    const result = await callTool('search_scripture', { query: 'good shepherd', book: 'john', limit: 3 })
    const results = result.structuredContent as {
      total: number
      data: Array<{ slug: string; reference: string }>
      citation: { references: Array<{ reference: string; url: string }> }
    }
    // Worked out from the texts: the verses of John whose KJV or faithful text has both words.
    const both = (text: string): boolean => /\bgood\b/i.test(text) && /\bshepherd(?:s|'s|s')?\b/i.test(text)
    const expected = [...testApp.stores.verses.all()]
      .filter((v) => v.book === 43 && (both(v.text) || both(testApp.stores.content.get(v.id, 'faithful')?.simplifiedText ?? '')))
      .map((v) => `john-${v.chapter}-${v.verse}`)
    t.ok(expected.includes('john-10-11') && expected.includes('john-10-14'), `the good shepherd verses: ${expected.join(', ')}`)
    t.equal(results.total, expected.length, 'total counts every matching verse of John')
    t.equal(results.data.length, Math.min(3, expected.length), 'limit 3')
    t.ok(
      results.data.every((hit) => expected.includes(hit.slug)),
      'every hit is one of them (the book filter applies)',
    )
    t.same(
      results.citation.references.map((r) => r.reference),
      results.data.map((hit) => hit.reference),
    )
    t.match(textOf(result), /good shepherd/i)
    t.match(textOf(result), /Source: Plainverse — King James Version, John 10:/)
    const none = await callTool('search_scripture', { query: 'xyzzyplugh' })
    t.equal((none.structuredContent as { total: number }).total, 0)
    t.match(textOf(none), /No verse matches/)
    const badCursor = await callTool('search_scripture', { query: 'love', cursor: 'not-a-cursor' })
    t.equal(badCursor.isError, true)
    t.match(textOf(badCursor), /cursor/)
  })

  t.test('resolve_reference', async (t) => {
    const result = await callTool('resolve_reference', { text: 'Read Jn 3:16 and Romans 8:28, 31-39 tonight' })
    const resolution = result.structuredContent as { references: Array<{ slug: string; reference: string }> }
    t.equal(resolution.references.length, 2)
    t.equal(resolution.references[0]?.slug, 'john-3-16')
    t.equal(resolution.references[1]?.reference, 'Romans 8:28, 31-39')
    t.match(textOf(result), /Romans 8:28, 31-39/)
    t.notMatch(textOf(result), /Source:/, 'no scripture, no citation')
  })

  t.test('list_narratives and get_narrative', async (t) => {
    const list = await callTool('list_narratives', { gospel: 'mark', query: 'five thousand', limit: 5 })
    const page = list.structuredContent as { total: number; data: Array<{ slug: string; gospel: string }> }
    t.same(
      page.data.map((n) => n.slug),
      ['mark-jesus-feeds-five-thousand'],
      'the one narrative of Mark titled with the words',
    )
    t.equal(page.total, 1)
    t.match(textOf(list), /five thousand/i)
    const all = (await callTool('list_narratives', {})).structuredContent as { total: number; data: unknown[]; next_cursor: string | null }
    t.equal(all.total, 548)
    t.equal(all.data.length, 50)
    const next = (await callTool('list_narratives', { cursor: all.next_cursor ?? '' })).structuredContent as { data: Array<{ order: number }> }
    t.equal(next.data.length, 50)

    const result = await callTool('get_narrative', { slug: 'john-jesus-feeds-five-thousand', style: 'all' })
    const narrative = result.structuredContent as { reference: string; verses: Array<{ slug: string }>; citation: { text: string } }
    t.equal(narrative.reference, 'John 6:1-15')
    t.equal(narrative.verses.length, 15)
    t.equal(narrative.citation.text, citationLine('John 6:1-15', '/john/6/1'))
    t.ok(textOf(result).endsWith(narrative.citation.text))
    const missing = await callTool('get_narrative', { slug: 'john-no-such-thing' })
    t.equal(missing.isError, true)
    t.match(textOf(missing), /No narrative has the slug/)
  })

  t.test('invalid arguments are tool errors naming the argument', async (t) => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['get_verse', {}, /missing required argument "reference"/],
      ['get_verse', { reference: 316 }, /argument "reference" must be string/],
      ['get_verse', { reference: '' }, /argument "reference"/],
      ['get_verse', { reference: 'john-3-16', style: 'fancy' }, /argument "style" must be one of faithful, casual, all/],
      ['get_verse', { reference: 'john-3-16', verse: 16 }, /unknown argument "verse"/],
      ['get_passage', { reference: 'x'.repeat(501) }, /argument "reference"/],
      ['search_scripture', { query: 'love', limit: '5' }, /argument "limit" must be integer/],
      ['search_scripture', { query: 'love', limit: 51 }, /argument "limit" must be <= 50/],
      ['search_scripture', { q: 'love' }, /missing required argument "query".*unknown argument "q"|unknown argument "q".*missing required argument "query"/],
      ['resolve_reference', { text: null }, /argument "text" must be string/],
      ['list_narratives', { gospel: 'thomas' }, /argument "gospel" must be one of matthew, mark, luke, john/],
      ['list_narratives', { limit: 0 }, /argument "limit" must be >= 1/],
      ['get_narrative', { slug: ['a'] }, /argument "slug" must be string/],
    ]
    for (const [name, args, message] of cases) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult
      t.equal(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 60)} is a tool error`)
      t.match(textOf(result), message)
      t.match(textOf(result), new RegExp(`^Invalid arguments for ${name}: `))
    }
  })

  t.test('arguments that are not an object are a tool error too', async (t) => {
    for (const sent of ['john-3-16', null, ['john-3-16'], 7]) {
      const res = await fetchChecked(t, baseUrl, '/mcp', { method: 'POST', headers: rpcHeaders({ 'x-api-key': key }), body: toolCall('get_verse', sent) })
      t.equal(res.status, 200)
      const result = res.json<{ result: CallToolResult }>().result
      t.equal(result.isError, true, JSON.stringify(sent))
      t.match(textOf(result), /^Invalid arguments for get_verse: arguments must be object/)
    }
  })

  t.test('an unknown tool is a JSON-RPC error', async (t) => {
    const error = await client.callTool({ name: 'delete_bible', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    )
    t.ok(error instanceof McpError, 'rejected with an McpError')
    t.equal((error as McpError).code, ErrorCode.InvalidParams)
    t.match((error as McpError).message, /Unknown tool: delete_bible/)
  })

  t.test('fuzzed arguments never crash the server', async (t) => {
    // A small deterministic generator, so a failure can be replayed.
    let seed = 42
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
    const values: readonly unknown[] = [
      '',
      ' ',
      'john-3-16',
      'Jn 3:16',
      'Genesis 1:1-2:3',
      'psalms',
      '1 Cor 13',
      '"quoted',
      'a'.repeat(600),
      '\u0000\u0001',
      '🙂',
      '%00',
      '../../etc/passwd',
      'john-3-16-18',
      'revelation-22-21',
      '0',
      '-1',
      0,
      -1,
      1,
      50,
      51,
      1e308,
      3.5,
      NaN,
      true,
      false,
      null,
      [],
      ['john-3-16'],
      {},
      { a: 1 },
      'faithful',
      'all',
      'mark',
    ]
    const names = [...MCP_TOOLS.map((tool) => tool.name), 'nope', '', '__proto__']
    const properties = ['reference', 'style', 'query', 'book', 'limit', 'cursor', 'text', 'gospel', 'slug', '__proto__', 'constructor', 'extra']
    for (let i = 0; i < 250; i++) {
      const name = pick(names)
      const args: Record<string, unknown> = {}
      for (let n = Math.floor(random() * 4); n > 0; n--) args[pick(properties)] = pick(values)
      // Some requests send arguments that are not even an object.
      const sent = i % 25 === 0 ? pick(values) : args
      const res = await fetchChecked(t, baseUrl, '/mcp', { method: 'POST', headers: rpcHeaders({ 'x-api-key': key }), body: toolCall(name, sent, i) })
      const body = res.json<{ result?: CallToolResult; error?: { code: number } }>()
      const ok = res.status === 200 && (body.result !== undefined || body.error?.code === ErrorCode.InvalidParams)
      if (!ok) t.fail(`${name} ${JSON.stringify(sent).slice(0, 200)} answered ${res.status} ${res.body.slice(0, 300)}`)
      if (body.result !== undefined && body.result.isError !== true) {
        const validate = validators.get(name)
        if (validate?.(body.result.structuredContent) !== true)
          t.fail(`${name} ${JSON.stringify(sent).slice(0, 200)}: output schema ${JSON.stringify(validate?.errors)}`)
      }
    }
    t.pass('250 fuzzed calls answered with results, tool errors or invalid-params errors')
  })
})
