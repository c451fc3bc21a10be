/**
 * GET /api/v1/search through the contract: ranking, phrases, stems and archaic forms,
 * accents, the book filter, styles, pagination, limits, counting, and bad input.
 */
import t from 'tap'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Problem } from '../../src/errors.js'
import { monthPeriod } from '../../src/usage/period.js'
import type { SearchResults } from '../../src/search/search.service.js'
import type { VerseResource } from '../../src/verses/verses.service.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { availableKinds } from '../helpers/database.js'
import { call } from '../helpers/http.js'
import { connectClient, listening } from '../helpers/mcp.js'
import { FUZZ_SEED, rng } from '../helpers/random.js'

/** The words inside <mark>…</mark> of every snippet of every hit. */
function markedWords(results: SearchResults): string[] {
  return results.data.flatMap((hit) => hit.snippets.flatMap((s) => [...s.text.matchAll(/<mark>(.*?)<\/mark>/g)].map((m) => (m[1] ?? '').toLowerCase())))
}

for (const { kind, skip } of availableKinds()) {
  t.test(`search (${kind})`, { skip }, async (t) => {
    const testApp = await buildTestApp(t, { kind, env: { QUOTA_FREE: '100000' } })
    const { app } = testApp
    const { key } = await createTestKey(testApp)
    const headers = { 'x-api-key': key }
    const get = (query: Record<string, string>) => call(t, app, { url: `/api/v1/search?${new URLSearchParams(query).toString()}`, headers })
    const search = async (query: Record<string, string>): Promise<SearchResults> => {
      const res = await get(query)
      t.equal(res.statusCode, 200, `200 for ${JSON.stringify(query)}`)
      return res.json<SearchResults>()
    }
    /** Every hit of a search, page after page. */
    const walk = async (query: Record<string, string>): Promise<{ pages: SearchResults[]; slugs: string[] }> => {
      const pages: SearchResults[] = []
      let cursor: string | null = null
      do {
        const page: SearchResults = await search({ ...query, ...(cursor === null ? {} : { cursor }) })
        pages.push(page)
        cursor = page.next_cursor
      } while (cursor !== null && pages.length < 200)
      return { pages, slugs: pages.flatMap((p) => p.data.map((h) => h.slug)) }
    }

    t.test('a quoted phrase ranks its verse first, shaped like the verse resource', async (t) => {
      const results = await search({ q: '"God so loved the world"' })
      t.equal(results.query, '"God so loved the world"')
      const [first] = results.data
      t.equal(first?.slug, 'john-3-16')
      t.equal(first?.reference, 'John 3:16')
      t.match(first?.kjv_text, /^For God so loved the world/)
      t.same(
        first?.snippets.map((s) => s.field),
        ['kjv', 'faithful'],
        'kjv first, then the style searched',
      )
      t.equal(first?.snippets[0]?.text.startsWith('For <mark>God so loved the world</mark>,'), true, 'the phrase is one mark')
      t.type(first?.score, 'number')
      const verse = (await call(t, app, { url: '/api/v1/verse/john-3-16', headers })).json<VerseResource>()
      t.same(first?.attribution, verse.attribution, 'the same attribution as the verse endpoint')
    })

    t.test('words may be anywhere; a phrase must be word for word', async (t) => {
      const words = await search({ q: 'the lord is my shepherd', limit: '50' })
      t.ok(words.total > 1, `the words appear together in several verses (${words.total})`)
      t.equal(words.data[0]?.slug, 'psalms-23-1', 'the verse with the phrase ranks first')
      const phrase = await search({ q: '"the LORD is my shepherd"' })
      t.same(
        phrase.data.map((h) => h.slug),
        ['psalms-23-1'],
      )
      t.equal(phrase.total, 1)
      t.equal((await search({ q: '"shepherd my is lord the"' })).total, 0, 'order matters')
      t.equal((await search({ q: '"the lord is my shepherds"' })).total, 0, 'a phrase is matched as written, not by stem')
      const mixed = await search({ q: 'want "my shepherd"', book: 'psalms' })
      t.same(
        mixed.data.map((h) => h.slug),
        ['psalms-23-1'],
        'words and phrases together',
      )
    })

    t.test('every word must appear, in any of the searched texts', async (t) => {
      const both = await search({ q: 'jesus wept' })
      t.equal(both.data[0]?.slug, 'john-11-35', 'the shortest verse with both words ranks first')
      t.ok(
        both.data.every((h) => /jesus/i.test(h.snippets.map((s) => s.text).join()) && /wept/i.test(h.snippets.map((s) => s.text).join())),
        'each hit has both words',
      )
      t.equal((await search({ q: 'jesus wept zebra' })).total, 0, 'one missing word is enough to exclude a verse')
      for (const hit of (await search({ q: 'faith hope charity', limit: '50' })).data) {
        const texts = hit.snippets.map((s) => s.text.toLowerCase()).join(' ')
        for (const word of ['faith', 'hope', 'charity']) t.match(texts, new RegExp(`<mark>${word}`), `${hit.slug} has ${word}`)
      }
    })

    t.test('stems and archaic endings', async (t) => {
      const believe = await walk({ q: 'believe', book: 'john', limit: '50' })
      const marked = new Set(believe.pages.flatMap(markedWords))
      for (const form of ['believe', 'believeth', 'believed', 'believest', 'believing', 'believes']) t.ok(marked.has(form), `believe finds "${form}"`)
      t.ok(believe.slugs.includes('john-3-16'))
      const love = await walk({ q: 'love', book: '1-john', limit: '50' })
      t.ok(new Set(love.pages.flatMap(markedWords)).has('loveth'), 'love finds "loveth"')
      t.equal((await search({ q: 'believeth' })).total, (await search({ q: 'believe' })).total, 'an archaic form searches its whole family')
      // Worked out from the texts: the verses whose KJV or faithful text holds any form of the word.
      const holding = (form: RegExp): number =>
        [...testApp.stores.verses.all()].filter((v) => form.test(v.text) || form.test(testApp.stores.content.get(v.id, 'faithful')?.simplifiedText ?? ''))
          .length
      // Porter stems the interjection "ha" (Job 39:25) like "has", and the deer "doe" like "does".
      const has = holding(/\b(?:hath|has|ha)\b/i)
      t.ok(has > 1000, `has and hath are in ${has} verses`)
      t.equal((await search({ q: 'hath' })).total, has, 'hath finds has and hath')
      t.equal((await search({ q: 'has' })).total, has, 'has finds hath and has')
      const does = holding(/\b(?:doth|doeth|does|doe)\b/i)
      t.ok(does > 100, `does, doth and doeth are in ${does} verses`)
      t.equal((await search({ q: 'doth' })).total, does, 'doth finds does, doth and doeth')
      t.equal((await search({ q: 'does' })).total, does, 'does finds doth, doeth and does')
      const saith = await search({ q: 'saith', book: 'revelation', limit: '50' })
      t.ok(saith.total > 0)
      t.ok(markedWords(saith).includes('says'), 'saith finds "says" in the simplified text')
    })

    t.test('case and accents are ignored', async (t) => {
      const caesar = await search({ q: 'CAESAR', limit: '50' })
      t.ok(caesar.data.some((h) => h.slug === 'matthew-22-21'))
      t.ok(markedWords(caesar).includes('cæsar'), 'the KJV spells it Cæsar')
      t.equal((await search({ q: 'Cæsar' })).total, caesar.total)
      t.equal((await search({ q: 'jésus wépt' })).data[0]?.slug, 'john-11-35')
    })

    t.test('total is exact, even for a word in most verses', async (t) => {
      const expected = [...testApp.stores.verses.all()].filter(
        (v) => /\bthe\b/i.test(v.text) || /\bthe\b/i.test(testApp.stores.content.get(v.id, 'faithful')?.simplifiedText ?? ''),
      ).length
      const the = await search({ q: 'the' })
      t.equal(the.total, expected)
      t.equal(the.data.length, 10, 'the default page size')
    })

    t.test('book filter by slug or alias; an unknown book is 400', async (t) => {
      const john = await walk({ q: 'light', book: 'john', limit: '50' })
      t.ok(john.slugs.length > 10)
      t.ok(
        john.slugs.every((s) => /^john-\d+-\d+$/.test(s)),
        'only John',
      )
      const alias = await walk({ q: 'light', book: 'Jn', limit: '50' })
      t.same(alias.slugs, john.slugs, 'an alias gives the same results')
      const first = await search({ q: 'love', book: '1jn' })
      t.ok(first.data.every((h) => h.slug.startsWith('1-john-')))
      t.ok(first.total < (await search({ q: 'love' })).total)
      for (const book of ['narnia', '', 'x'.repeat(64)]) {
        const res = await get({ q: 'love', book })
        t.equal(res.statusCode, 400, `book=${book.slice(0, 10)}`)
        const problem = res.json<Problem>()
        t.equal(problem.code, 'invalid_parameter')
        t.same(
          problem.errors?.map((e) => e.location),
          ['querystring/book'],
        )
      }
    })

    t.test('style chooses the simplified texts searched besides the KJV', async (t) => {
      // The phrase is in the casual text of Genesis 1:1, in neither its KJV nor its faithful text.
      const phrase = '"sky above and the earth below"'
      const casual = await search({ q: phrase, style: 'casual', book: 'genesis' })
      t.same(
        casual.data.map((h) => h.slug),
        ['genesis-1-1'],
      )
      t.same(
        casual.data[0]?.snippets.map((s) => s.field),
        ['casual'],
      )
      t.match(casual.data[0]?.snippets[0]?.text, /the <mark>sky above and the earth below<\/mark>/)
      t.same(
        (await search({ q: phrase, style: 'all', book: 'genesis' })).data.map((h) => h.slug),
        ['genesis-1-1'],
      )
      t.equal((await search({ q: phrase, book: 'genesis' })).total, 0, 'faithful (the default) does not search the casual text')
      const all = await search({ q: '"God so loved the world"', style: 'all' })
      t.same(
        all.data[0]?.snippets.map((s) => s.field),
        ['kjv', 'faithful'],
        'only the texts that matched have a snippet',
      )
      const lord = await search({ q: 'lord', style: 'all', book: 'genesis', limit: '50' })
      t.ok(
        lord.data.some((h) => h.snippets.map((s) => s.field).join() === 'kjv,faithful,casual'),
        'kjv, faithful, casual in that order',
      )
      t.equal((await get({ q: 'love', style: 'both' })).statusCode, 400)
    })

    t.test('pages walk every match once, best first, and add up to total', async (t) => {
      const query = { q: 'lord', book: 'ruth', limit: '7' }
      const { pages, slugs } = await walk(query)
      const total = pages[0]?.total ?? 0
      t.ok(total > 14, `several pages (${total} matches)`)
      t.equal(slugs.length, total)
      t.equal(new Set(slugs).size, total, 'no duplicates')
      t.ok(pages.every((p) => p.total === total))
      t.equal(pages.at(-1)?.next_cursor, null)
      t.ok(pages.slice(0, -1).every((p) => p.data.length === 7 && p.next_cursor !== null))
      const scores = pages.flatMap((p) => p.data.map((h) => h.score))
      t.ok(
        scores.every((s, i) => i === 0 || s <= (scores[i - 1] ?? Infinity)),
        'scores never increase',
      )
      const big = await search({ ...query, limit: '50' })
      t.same(
        big.data.map((h) => h.slug),
        slugs.slice(0, 50),
        'the same order whatever the page size',
      )
      const none = await search({ q: 'xylophone' })
      t.same(none, { query: 'xylophone', total: 0, data: [], next_cursor: null })
    })

    t.test('limit is 1 to 50', async (t) => {
      t.equal((await search({ q: 'lord', limit: '1' })).data.length, 1)
      t.equal((await search({ q: 'lord', limit: '50' })).data.length, 50)
      for (const limit of ['0', '51', '-1', 'abc', '1.5', '', '010']) {
        const res = await get({ q: 'lord', limit })
        t.equal(res.statusCode, 400, `limit=${limit}`)
        t.equal(res.json<Problem>().code, 'invalid_parameter')
      }
    })

    t.test('cursors belong to their search', async (t) => {
      const first = await search({ q: 'lord', book: 'ruth' })
      const cursor = first.next_cursor ?? ''
      t.ok(cursor !== '')
      for (const [label, query] of [
        ['another q', { q: 'god', book: 'ruth', cursor }],
        ['another book', { q: 'lord', book: 'john', cursor }],
        ['no book', { q: 'lord', cursor }],
        ['another style', { q: 'lord', book: 'ruth', style: 'all', cursor }],
        ['garbled', { q: 'lord', book: 'ruth', cursor: `${cursor.slice(0, -2)}zz` }],
        ['foreign', { q: 'lord', book: 'ruth', cursor: 'bm9wZQ' }],
        ['too long', { q: 'lord', book: 'ruth', cursor: 'A'.repeat(201) }],
      ] as const) {
        const res = await get(query)
        t.equal(res.statusCode, 400, label)
        const problem = res.json<Problem>()
        t.equal(problem.code, 'invalid_parameter', label)
        t.same(
          problem.errors?.map((e) => e.location),
          ['querystring/cursor'],
          label,
        )
      }
      const second = await search({ q: 'lord', book: 'ruth', cursor })
      t.same(
        (await search({ q: 'lord', book: 'ru', cursor })).data.map((h) => h.slug),
        second.data.map((h) => h.slug),
        'a book alias keeps the cursor valid',
      )
      t.notSame(
        second.data.map((h) => h.slug),
        first.data.map((h) => h.slug),
      )
    })

    t.test('a query with nothing to search for is 400 naming q', async (t) => {
      for (const q of ['!!!', '""', '   ', '" "', '?', '…']) {
        const res = await get({ q })
        t.equal(res.statusCode, 400, JSON.stringify(q))
        t.same(
          res.json<Problem>().errors?.map((e) => e.location),
          ['querystring/q'],
          JSON.stringify(q),
        )
      }
      t.equal((await call(t, app, { url: '/api/v1/search', headers })).statusCode, 400, 'q is required')
      t.equal((await get({ q: 'x'.repeat(201) })).statusCode, 400, 'q is at most 200 characters')
    })

    t.test('each search counts one query, even with no match; errors count none', async (t) => {
      // A key of its own, so that the ledger holds exactly what this test sends.
      const { key, id } = await createTestKey(testApp)
      const headers = { 'x-api-key': key }
      const get = (query: Record<string, string>) => call(t, app, { url: `/api/v1/search?${new URLSearchParams(query).toString()}`, headers })
      const remaining = async (): Promise<number> => (await call(t, app, { url: '/api/v1/usage', headers })).json<{ remaining: number }>().remaining
      const before = await remaining()
      const res = await get({ q: 'lord', style: 'all' })
      t.type(res.headers.ratelimit, 'string')
      t.type(res.headers['x-ratelimit-remaining'], 'string')
      await get({ q: 'xylophone' })
      t.equal(await remaining(), before - 2, 'two searches, two queries')
      await get({ q: '!!!' })
      await get({ q: 'lord', book: 'narnia' })
      await get({ q: 'lord', limit: '0' })
      const bad = await get({ q: 'lord', cursor: 'nope' })
      t.type(bad.headers.ratelimit, 'string', 'a 400 still describes the quota')
      t.equal(await remaining(), before - 2, 'no query for a 400')
      await testApp.services.usage.flush()
      const usage = await testApp.services.usage.breakdown([id], monthPeriod(new Date()).id)
      t.same(usage.byEndpoint, { search: 2 }, 'the ledger counts the two under the search endpoint, and nothing else')
    })

    t.test('the MCP tool answers the same way as the REST route', async (t) => {
      const client = await connectClient(t, await listening(app), headers)
      const viaMcp = async (args: Record<string, unknown>): Promise<CallToolResult> =>
        (await client.callTool({ name: 'search_scripture', arguments: args })) as CallToolResult
      for (const [args, query] of [
        [{ query: 'jesus wept' }, { q: 'jesus wept' }],
        [
          { query: 'light', book: 'john', limit: 5, style: 'all' },
          { q: 'light', book: 'john', limit: '5', style: 'all' },
        ],
      ] as const) {
        const rest = await search(query)
        const tool = await viaMcp(args)
        t.equal(tool.isError, undefined, `${JSON.stringify(args)} succeeds`)
        const { citation, ...results } = tool.structuredContent as SearchResults & { citation: unknown }
        t.same(results, rest, `${JSON.stringify(args)}: the same results as GET /api/v1/search`)
        t.type(citation, 'object', 'plus a citation')
        if (rest.next_cursor !== null) {
          const next = await viaMcp({ ...args, cursor: rest.next_cursor })
          const { citation: _, ...page } = next.structuredContent as SearchResults & { citation: unknown }
          t.same(page, await search({ ...query, cursor: rest.next_cursor }), 'and the same next page')
        }
      }
      for (const [args, query] of [
        [{ query: 'x'.repeat(201) }, { q: 'x'.repeat(201) }],
        [
          { query: 'love', cursor: 'nope' },
          { q: 'love', cursor: 'nope' },
        ],
      ] as const) {
        t.equal((await get(query)).statusCode, 400, `REST refuses ${JSON.stringify(query).slice(0, 40)}`)
        t.equal((await viaMcp(args)).isError, true, 'and the tool answers with a tool error')
      }
    })

    t.test(`fuzzed q, book and cursor never give a 500 (FUZZ_SEED=${FUZZ_SEED})`, async (t) => {
      const random = rng(FUZZ_SEED)
      const pieces = [
        '"',
        '“',
        "'",
        '’',
        '-',
        'ǽ',
        'é',
        '😀',
        '\u0000',
        '\u200b',
        '<mark>',
        '&amp;',
        '%',
        '\\',
        ' ',
        'lord',
        'the',
        'ETH',
        'eth',
        'est',
        '0',
        '٣',
        'Ω',
        'ﬁ',
      ]
      const randomText = (n: number): string => Array.from({ length: n }, () => pieces[Math.floor(random() * pieces.length)] ?? '').join('')
      for (let i = 0; i < 150; i++) {
        const query: Record<string, string> = { q: randomText(1 + (i % 30)) }
        if (i % 3 === 0) query.book = randomText(1 + (i % 5))
        if (i % 4 === 0) query.cursor = randomText(1 + (i % 9))
        if (i % 5 === 0) query.style = ['all', 'casual', 'x'][i % 3] ?? 'all'
        const res = await get(query)
        t.ok(res.statusCode === 200 || res.statusCode === 400, `${res.statusCode} for ${JSON.stringify(query)}`)
        if (res.statusCode === 200) {
          const body = res.json<SearchResults>()
          t.ok(
            body.data.every((h) => h.snippets.length > 0 && h.snippets.every((s) => !/<(?!\/?mark>)/.test(s.text))),
            'snippets hold only <mark> markup',
          )
        }
      }
      for (const raw of ['q=%FF', 'q=%', 'q=%E0%A4%A', 'q=lord&book=%E0%A4%A', 'q=lord&cursor=%FF%FE']) {
        const res = await call(t, app, { url: `/api/v1/search?${raw}`, headers })
        t.ok(res.statusCode === 200 || res.statusCode === 400, `${res.statusCode} for ${raw}`)
      }
      for (const raw of ['q=lord&q=god', 'q=lord&limit=5&limit=6', 'q=lord&book=john&book=mark']) {
        t.equal((await call(t, app, { url: `/api/v1/search?${raw}`, headers })).statusCode, 400, `a repeated parameter: ${raw}`)
      }
    })
  })
}

const REDIS_URL = process.env.REDIS_URL
const redisEnv: Record<string, string> = REDIS_URL === undefined || REDIS_URL === '' ? {} : { REDIS_URL }

t.test('search keys: 401, 403, 429 and preflight', async (t) => {
  // Quota counters in Redis when REDIS_URL is set, in-process otherwise.
  const testApp = await buildTestApp(t, { env: { QUOTA_FREE: '2', ...redisEnv } })
  const { app } = testApp
  const { key } = await createTestKey(testApp)
  const url = '/api/v1/search?q=lord'

  const anonymous = await call(t, app, { url })
  t.equal(anonymous.statusCode, 401)
  t.equal(anonymous.json<Problem>().code, 'missing_credentials')
  t.equal((await call(t, app, { url: '/api/v1/search?q=!!!' })).statusCode, 401, 'authentication comes before validation')
  const forged = await call(t, app, { url, headers: { 'x-api-key': `pv_${'a'.repeat(36)}` } })
  t.equal(forged.statusCode, 403)
  t.equal(forged.json<Problem>().code, 'invalid_api_key')

  const headers = { authorization: `Bearer ${key}` }
  t.equal((await call(t, app, { url, headers })).statusCode, 200)
  t.equal((await call(t, app, { url: '/api/v1/search?q=zzzzqqq', headers })).statusCode, 200)
  const exhausted = await call(t, app, { url, headers })
  t.equal(exhausted.statusCode, 429)
  t.equal(exhausted.json<Problem>().code, 'quota_exceeded')
  t.type(exhausted.headers['retry-after'], 'string')
  t.equal((await call(t, app, { url: '/api/v1/search?q=!!!', headers })).statusCode, 400, 'validation comes before the quota')

  const preflight = await call(t, app, {
    method: 'OPTIONS',
    url: '/api/v1/search',
    headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
  })
  t.equal(preflight.statusCode, 204)
  t.equal(preflight.headers['access-control-allow-origin'], '*')
  t.match(String(preflight.headers['access-control-allow-methods']), /GET/)
})
