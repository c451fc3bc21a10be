/** GET /api/v1/narratives and /api/v1/narratives/{slug}, and the verse's narrative field. */
import t from 'tap'
import type { Problem } from '../../src/errors.js'
import type { Narrative, NarrativeList } from '../../src/narratives/narratives.service.js'
import type { VerseResource } from '../../src/verses/verses.service.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { call } from '../helpers/http.js'

t.test('narratives', async (t) => {
  const testApp = await buildTestApp(t)
  const { app } = testApp
  const { key } = await createTestKey(testApp)
  const headers = { 'x-api-key': key }
  const list = async (query: string) => call(t, app, { url: `/api/v1/narratives${query}`, headers })
  const remaining = async (): Promise<number> => (await call(t, app, { url: '/api/v1/usage', headers })).json<{ remaining: number }>().remaining

  t.test('the whole table, page by page, in canonical order', async (t) => {
    const before = await remaining()
    const first = await list('')
    t.equal(first.statusCode, 200)
    const page = first.json<NarrativeList>()
    t.equal(page.total, 548)
    t.equal(page.data.length, 50)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res = await list(`?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`)
      const body = res.json<NarrativeList>()
      seen.push(...body.data.map((n) => n.slug))
      cursor = body.next_cursor
    } while (cursor !== null)
    t.equal(seen.length, 548)
    t.equal(new Set(seen).size, 548)
    t.match(seen[0], /^matthew-/)
    t.match(seen[547], /^john-/)
    t.equal(await remaining(), before, 'listing is not counted')
  })

  t.test('filters', async (t) => {
    const mark = (await list('?gospel=mark&limit=100')).json<NarrativeList>()
    t.equal(mark.total, 105)
    t.ok(mark.data.every((n) => n.gospel === 'mark'))
    const feeding = (await list('?q=FIVE%20thousand')).json<NarrativeList>()
    t.same(
      [...new Set(feeding.data.map((n) => n.gospel))].sort(),
      ['john', 'luke', 'mark', 'matthew'],
      'the feeding of the five thousand is in all four Gospels',
    )
    const none = (await list('?q=zzzz')).json<NarrativeList>()
    t.same(none, { total: 0, data: [], next_cursor: null })
  })

  t.test('bad parameters are 400', async (t) => {
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?gospel=thomas', '?cursor=bm9wZQ', `?q=${'x'.repeat(300)}`]) {
      const res = await list(query)
      t.equal(res.statusCode, 400, query.slice(0, 30))
      t.equal(res.json<Problem>().code, 'invalid_parameter')
    }
    t.equal((await call(t, app, { url: '/api/v1/narratives' })).statusCode, 401, 'a key is required')
  })

  t.test('one narrative: verses, content, parallels; counted once', async (t) => {
    const slug = (await list('?gospel=john&q=five%20thousand')).json<NarrativeList>().data[0]?.slug ?? ''
    const before = await remaining()
    const res = await call(t, app, { url: `/api/v1/narratives/${slug}?style=all`, headers })
    t.equal(res.statusCode, 200)
    const narrative = res.json<Narrative>()
    t.equal(narrative.gospel, 'john')
    t.equal(narrative.reference, 'John 6:1-15')
    t.equal(narrative.verses.length, narrative.verse_count)
    t.equal(narrative.verses[0]?.slug, 'john-6-1')
    t.ok(narrative.verses.every((v) => v.narrative?.slug === slug && v.faithful !== undefined && v.casual !== undefined))
    t.same(narrative.parallels.map((p) => p.slug.split('-')[0]).sort(), ['luke', 'mark', 'matthew'])
    t.ok(narrative.parallels.every((p) => /^(Matthew|Mark|Luke) \d+:\d+/.test(p.reference)))
    t.ok(narrative.content.faithful && narrative.content.casual, 'both styles present for style=all')
    t.type(narrative.content.faithful?.summary, 'string', 'curated summary')
    t.type(narrative.content.casual?.bottom_line, 'string')
    // The writers' review rounds move curated content to a later prompt version (curated-1, curated-2...).
    t.match(narrative.content.faithful?.provenance, { method: 'curated', model: null, prompt_version: /^curated-\d+$/ })
    t.equal(await remaining(), before - 1, 'one query for the whole narrative')
    t.type(res.headers.ratelimit, 'string')

    const faithful = (await call(t, app, { url: `/api/v1/narratives/${slug}`, headers })).json<Narrative>()
    t.notOk('casual' in faithful.content, 'style defaults to faithful')
    const missing = await call(t, app, { url: '/api/v1/narratives/john-no-such-story', headers })
    t.equal(missing.statusCode, 404)
    t.equal(missing.json<Problem>().code, 'narrative_not_found')
    const badStyle = await call(t, app, { url: `/api/v1/narratives/${slug}?style=both`, headers })
    t.equal(badStyle.statusCode, 400)
  })

  t.test('browsers can call every keyed endpoint: preflights answer without credentials', async (t) => {
    const cases: Array<[string, string]> = [
      ['/api/v1/narratives', 'GET'],
      ['/api/v1/narratives/mark-jesus-feeds-five-thousand', 'GET'],
      ['/api/v1/usage', 'GET'],
      ['/api/v1/keys', 'POST'],
      ['/api/v1/keys/00000000-0000-4000-8000-000000000000', 'DELETE'],
      ['/api/v1/verse/john-3-16', 'GET'],
    ]
    for (const [url, method] of cases) {
      const res = await call(t, app, { method: 'OPTIONS', url, headers: { origin: 'https://app.example', 'access-control-request-method': method } })
      t.equal(res.statusCode, 204, url)
      t.equal(res.headers['access-control-allow-origin'], '*', url)
      t.match(String(res.headers['access-control-allow-methods']), new RegExp(method), url)
      t.match(String(res.headers['access-control-allow-headers']), /X-API-Key/, url)
    }
  })

  t.test('Gospel verses name their narrative; others do not', async (t) => {
    const john = (await call(t, app, { url: '/api/v1/verse/john-3-16', headers })).json<VerseResource>()
    t.match(john.narrative?.slug, /^john-/)
    t.type(john.narrative?.title, 'string')
    const genesis = (await call(t, app, { url: '/api/v1/verse/genesis-1-1', headers })).json<VerseResource>()
    t.notOk('narrative' in genesis)
  })
})
