/**
 * The public pages through app.inject(): every page type answers with valid HTML (checked by
 * html-validate) and the contract's headers, canonical paths and redirects, the 404 page,
 * escaping of hostile text from the query string and from the database, caching, the
 * sitemap index covering every page, the strict security headers, the HTML 429, and a crawl
 * from / that finds no broken internal link.
 */
import t, { type Test } from 'tap'
import { HtmlValidate } from 'html-validate'
import type { LightMyRequestResponse } from 'fastify'
import { verseId } from '../../src/verses/verse.store.js'
import type { VerseResource } from '../../src/verses/verses.service.js'
import { buildTestApp, createTestKey, type TestApp } from '../helpers/app.js'
import type { DatabaseHandle } from '../../src/infra/database.js'
import { openTestDatabase, removeWrittenContent } from '../helpers/database.js'
import { call } from '../helpers/http.js'

const BASE = 'https://bible.example.org'
// The stylesheet is our own origin's: subresource integrity is for other origins.
const validator = new HtmlValidate({ extends: ['html-validate:standard', 'html-validate:document'], rules: { 'require-sri': 'off' } })

/**
 * A verse whose written content the tests remove (every book ships some, but an operator may
 * remove it): its page is the page of a verse with the modernized faithful text only.
 */
const UNWRITTEN = { slug: 'obadiah-1-1', path: '/obadiah/1/1', id: verseId(31, 1, 1) } as const

/** A seeded database in which {@link UNWRITTEN} has no written content, closed after the test's app (teardowns run last first). */
async function databaseWithUnwrittenVerse(t: Test): Promise<DatabaseHandle> {
  const database = await openTestDatabase('pglite', { seeded: true })
  t.teardown(() => database.close())
  t.ok((await removeWrittenContent(database.db, [UNWRITTEN.id])) >= 2, `${UNWRITTEN.slug}: its written content in both styles is removed`)
  return database
}

/** A sample of every page type, as a reader would open them (a verse with both styles, and one without written content). */
const PAGES = [
  '/',
  '/john/3/16',
  UNWRITTEN.path,
  '/genesis/1',
  '/psalms/23?style=faithful',
  '/john/3?style=casual',
  '/ruth',
  '/narratives',
  '/narratives?gospel=mark&q=feeds',
  '/narratives/john-jesus-feeds-five-thousand',
  '/search',
  '/search?q=love+one+another',
  '/problems/rate-limited',
] as const

async function page(t: Test, app: TestApp, url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return call(t, app.app, { url, headers: { accept: 'text/html', ...headers } })
}

/** Fails the test with html-validate's messages when the document is not valid HTML. */
async function assertValidHtml(t: Test, url: string, body: string): Promise<void> {
  const report = await validator.validateString(body)
  const messages = report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId} line ${m.line}: ${m.message}`))
  t.same(messages, [], `${url} is valid HTML`)
}

t.test('every page type: 200, valid HTML, its title, description, canonical link, social tags and JSON-LD', async (t) => {
  const database = await databaseWithUnwrittenVerse(t)
  const app = await buildTestApp(t, { database, env: { PUBLIC_BASE_URL: BASE } })
  for (const url of PAGES) {
    const response = await page(t, app, url)
    t.equal(response.statusCode, 200, url)
    t.equal(response.headers['content-type'], 'text/html; charset=utf-8')
    await assertValidHtml(t, url, response.body)
    t.match(response.body, /<html lang="en">/)
    t.match(response.body, /<title>[^<]+<\/title>/)
    t.match(response.body, /<meta name="description" content="[^"]+" \/>/)
    t.match(response.body, /<link rel="canonical" href="https:\/\/bible\.example\.org\/[^"]*" \/>/)
    for (const tag of ['og:title', 'og:description', 'og:url', 'og:type'])
      t.match(response.body, new RegExp(`<meta property="${tag}" content="[^"]+" />`), `${url} ${tag}`)
    t.match(response.body, /<meta name="twitter:card" content="summary" \/>/)
    t.match(response.body, /<form class="search" role="search" aria-label="Site search" action="\/search" method="get">/, `${url} has the search box`)
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(response.body)
    if (!url.startsWith('/problems') && !url.startsWith('/search')) {
      t.ok(ld !== null, `${url} has JSON-LD`)
      t.equal((JSON.parse(ld?.[1] ?? '{}') as { '@context'?: string })['@context'], 'https://schema.org')
    }
  }
})

t.test("the verse page: its canonical URL is the API's attribution.url, and it shows what the API returns", async (t) => {
  const database = await databaseWithUnwrittenVerse(t)
  const app = await buildTestApp(t, { database, env: { PUBLIC_BASE_URL: BASE, QUOTA_FREE: '1000' } })
  const { key } = await createTestKey(app)
  for (const slug of ['john-3-16', UNWRITTEN.slug, 'genesis-50-26']) {
    const api = (await call(t, app.app, { url: `/api/v1/verse/${slug}?style=all`, headers: { 'x-api-key': key } })).json<VerseResource>()
    const path = new URL(api.attribution.url).pathname
    const html = (await page(t, app, path)).body
    t.match(html, `<link rel="canonical" href="${api.attribution.url}" />`)
    const text = (s: string | null | undefined): string =>
      (s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
    t.ok(html.includes(text(api.kjv_text)), `${slug}: the KJV text`)
    if (api.faithful?.simplified_text != null) t.ok(html.includes(text(api.faithful.simplified_text)), `${slug}: the faithful text`)
    if (api.faithful?.bottom_line != null) t.ok(html.includes(text(api.faithful.bottom_line)), `${slug}: the bottom line`)
    if (api.casual?.simplified_text != null) t.ok(html.includes(text(api.casual.simplified_text)), `${slug}: the casual text`)
    else t.match(html, 'No casual retelling has been written for this verse yet.', `${slug}: a missing style is said plainly`)
    if (slug === UNWRITTEN.slug) {
      // The branches above for a missing style and missing notes are the ones this verse takes.
      t.equal(api.faithful?.provenance?.method, 'modernized', `${slug}: the modernized faithful text`)
      t.equal(api.faithful?.bottom_line, null, `${slug}: no bottom line`)
      t.same(api.casual, { simplified_text: null, bottom_line: null, available: false, provenance: null }, `${slug}: no casual style`)
      t.same(api.available_styles, { faithful: true, casual: false })
      t.match(
        html,
        'No bottom line, historical context or practical reflection has been written for this verse yet.',
        `${slug}: missing notes are said plainly`,
      )
      t.match(html, 'no notes have been written for this verse yet', `${slug}: how its text was made`)
    } else t.same(api.available_styles, { faithful: true, casual: true }, `${slug}: both styles`)
    t.match(html, `curl -H "X-API-Key: $PLAINVERSE_KEY" ${BASE}/api/v1/verse/${api.slug}`)
    t.match(html, text(api.attribution.license))
  }
  const usage = await call(t, app.app, { url: '/api/v1/usage', headers: { 'x-api-key': key } })
  t.equal(usage.json<{ total_queries: number }>().total_queries, 3, 'only the three API lookups counted: pages never do, even with a key sent')
  await page(t, app, '/john/3/16', { 'x-api-key': key })
  t.equal((await call(t, app.app, { url: '/api/v1/usage', headers: { 'x-api-key': key } })).json<{ total_queries: number }>().total_queries, 3)
})

t.test('other names and casings redirect to the canonical path; what names nothing is a 404 page', async (t) => {
  const app = await buildTestApp(t)
  const redirects: ReadonlyArray<readonly [string, string]> = [
    ['/John/3/16', '/john/3/16'],
    ['/jn/3/16', '/john/3/16'],
    ['/john/03/016', '/john/3/16'],
    ['/1cor/13', '/1-corinthians/13'],
    ['/PSALMS/23?style=casual', '/psalms/23?style=casual'],
    ['/Gen', '/genesis'],
  ]
  for (const [from, to] of redirects) {
    const response = await page(t, app, from)
    t.equal(response.statusCode, 301, from)
    t.equal(response.headers.location, to, from)
  }
  for (const url of ['/nosuchbook', '/john/22', '/john/3/37', '/john/0/1', '/narratives/no-such-narrative', '/a/b/c/d']) {
    const response = await page(t, app, url)
    t.equal(response.statusCode, 404, url)
    t.equal(response.headers['content-type'], 'text/html; charset=utf-8', url)
    t.match(response.body, /<h1>Page not found<\/h1>/, url)
    t.match(response.body, /id="not-found-search"/, `${url}: a search box`)
    await assertValidHtml(t, url, response.body)
  }
  // The API's paths keep their problem bodies.
  const api = await call(t, app.app, { url: '/api/v1/nope' })
  t.equal(api.headers['content-type'], 'application/problem+json; charset=utf-8')
  const mcp = await call(t, app.app, { url: '/mcp' })
  t.equal(mcp.statusCode, 405)
  t.equal(mcp.headers.allow, 'POST, OPTIONS')
  const json = await call(t, app.app, { url: '/nosuchbook', headers: { accept: 'application/json' } })
  t.equal(json.json<{ code: string }>().code, 'not_found', 'a client asking for JSON gets the problem')
})

t.test('hostile text is escaped: from the query string and from the database', async (t) => {
  const database = await openTestDatabase('pglite', { seeded: true })
  const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quoted" 'single'`
  await database.db
    .updateTable('verse_content')
    .set({ simplified_text: hostile, bottom_line: hostile })
    .where('verse_id', '=', verseId(43, 3, 16))
    .where('style', '=', 'faithful')
    .execute()
  const app = await buildTestApp(t, { database })
  t.teardown(() => database.close())
  const verse = await page(t, app, '/john/3/16')
  t.notMatch(verse.body, '<script>alert', 'no script from the database')
  t.notMatch(verse.body, '<img src=x', 'no element from the database')
  t.match(verse.body, '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot; &#39;single&#39;')
  await assertValidHtml(t, '/john/3/16', verse.body)
  const search = await page(t, app, `/search?q=${encodeURIComponent('"><script>alert(1)</script>')}`)
  t.equal(search.statusCode, 200)
  t.notMatch(search.body, '<script>alert(1)')
  t.match(search.body, 'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
  await assertValidHtml(t, '/search', search.body)
  const narratives = await page(t, app, `/narratives?q=${encodeURIComponent('</title><b>')}`)
  t.notMatch(narratives.body, '<b>')
})

t.test('the home page shows the tiers as configured: queries a month and requests a second', async (t) => {
  const app = await buildTestApp(t, {
    env: { QUOTA_FREE: '1234', QUOTA_SCALE: '7000000', RATE_LIMIT_FREE: '10', RATE_LIMIT_DEVELOPER: '2500', RATE_LIMIT_SCALE: '0' },
  })
  const home = await page(t, app, '/')
  const rows = [...home.body.matchAll(/<tr>\s*<td>(\w+)<\/td>\s*<td>([^<]*)<\/td>\s*<td>([^<]*)<\/td>\s*<\/tr>/g)].map((m) => m.slice(1))
  t.same(rows, [
    ['free', '1,234', '10'],
    ['developer', '50,000', '2,500'],
    ['scale', '7,000,000', 'unlimited'],
  ])
})

t.test('pages are cacheable: ETag, 304, Cache-Control; security headers with a strict policy', async (t) => {
  const app = await buildTestApp(t)
  for (const url of ['/john/3/16', '/john/3', '/john', '/narratives/john-jesus-feeds-five-thousand', '/', '/assets/site.css', '/sitemap.xml']) {
    const first = await page(t, app, url)
    const etag = first.headers.etag
    t.match(etag, /^"[A-Za-z0-9_-]+"$/, `${url} has an ETag`)
    t.match(first.headers['cache-control'], /^public, max-age=\d+$/)
    const again = await page(t, app, url, { 'if-none-match': String(etag) })
    t.equal(again.statusCode, 304, `${url}: 304 with If-None-Match`)
    t.equal(again.body, '')
  }
  const verse = await page(t, app, '/john/3/16')
  const csp = String(verse.headers['content-security-policy'])
  t.match(csp, "default-src 'none'")
  t.match(csp, "style-src 'self'")
  t.notMatch(csp, 'script-src', 'no script source at all: default-src none covers it')
  t.match(csp, "frame-ancestors 'none'")
  t.equal(verse.headers['x-content-type-options'], 'nosniff')
  t.ok(verse.headers['referrer-policy'] !== undefined)
  t.equal(verse.headers['x-frame-options'], 'SAMEORIGIN')
  t.equal(verse.headers['cross-origin-opener-policy'], 'same-origin')
  t.match(verse.headers['strict-transport-security'], /^max-age=\d+/)
  t.equal(verse.headers['x-powered-by'], undefined)
  // The headers are the pages': an API answer carries none of them.
  const books = await call(t, app.app, { url: '/api/v1/books' })
  t.equal(books.headers['content-security-policy'], undefined, 'no page policy on the API')
  t.equal(books.headers['x-frame-options'], undefined)
})

t.test('the sitemap index lists sitemaps covering every verse, chapter, book and narrative page, each with lastmod', async (t) => {
  const app = await buildTestApp(t, { env: { PUBLIC_BASE_URL: BASE } })
  const index = (await page(t, app, '/sitemap.xml')).body
  t.match(index, '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
  const parts = [...index.matchAll(/<loc>([^<]+)<\/loc><lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/g)].map((m) => m[1] ?? '')
  t.ok(parts.length >= 5)
  const urls: string[] = []
  for (const part of parts) {
    const response = await page(t, app, new URL(part).pathname)
    t.equal(response.statusCode, 200, part)
    const locs = [...response.body.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>\d{4}-\d{2}-\d{2}<\/lastmod><\/url>/g)].map((m) => m[1] ?? '')
    t.ok(locs.length <= 50_000, `${part}: at most 50,000 URLs`)
    t.equal(locs.length, (response.body.match(/<url>/g) ?? []).length, `${part}: every URL has a lastmod`)
    urls.push(...locs)
  }
  const paths = urls.map((u) => new URL(u).pathname)
  t.equal(paths.filter((p) => /^\/[a-z0-9-]+\/\d+\/\d+$/.test(p)).length, 31_102, 'every verse page')
  t.equal(paths.filter((p) => /^\/(?!narratives)[a-z0-9-]+\/\d+$/.test(p)).length, 1_189, 'every chapter page')
  t.equal(paths.filter((p) => /^\/narratives\/[a-z0-9-]+$/.test(p)).length, 548, 'every narrative page')
  t.equal(new Set(paths).size, paths.length, 'no page twice')
  for (const path of ['/john', '/revelation', '/', '/narratives', '/search']) t.ok(paths.includes(path), path)
  t.equal(paths.filter((p) => /^\/[a-z0-9-]+$/.test(p) && !['/narratives', '/search', '/docs', '/terms'].includes(p)).length, 66, 'every book page')
  const robots = (await page(t, app, '/robots.txt')).body
  t.match(robots, `Sitemap: ${BASE}/sitemap.xml`)
})

t.test('a page request over the per-address limit gets a 429 page with Retry-After', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_ADDRESS: '1' }, clock: { now: () => new Date(Date.UTC(2032, 5, 1, 12, 0, 0, 100)) } })
  t.equal((await page(t, app, '/john/3/16')).statusCode, 200)
  const limited = await page(t, app, '/john/3/16')
  t.equal(limited.statusCode, 429)
  t.equal(limited.headers['retry-after'], '1')
  t.equal(limited.headers['content-type'], 'text/html; charset=utf-8')
  t.match(limited.body, /<h1>Rate limited<\/h1>/)
  await assertValidHtml(t, '429', limited.body)
})

t.test('a crawl from / through a sample of every page type finds no broken internal link', async (t) => {
  const app = await buildTestApp(t)
  const seen = new Set<string>()
  const queue = ['/', '/john/3/16', '/john/3', '/narratives/matthew-a-sower-scatters-seed-on-four-soils', '/search?q=shepherd', '/narratives?gospel=luke']
  let crawled = 0
  // Breadth-first, a bounded sample: every link of the first pages, then a few of theirs.
  while (queue.length > 0 && crawled < 250) {
    const path = queue.shift() ?? '/'
    if (seen.has(path)) continue
    seen.add(path)
    const response = await call(t, app.app, { url: path, headers: { accept: 'text/html' } })
    crawled++
    t.ok(response.statusCode === 200 || response.statusCode === 301, `${path} answers (${response.statusCode})`)
    if (response.statusCode !== 200 || !String(response.headers['content-type']).startsWith('text/html')) continue
    for (const match of response.body.matchAll(/href="(\/[^"#]*)(?:#[^"]*)?"/g)) {
      const link = (match[1] ?? '/').replace(/&amp;/g, '&')
      if (!seen.has(link) && !link.startsWith('/docs')) queue.push(link)
    }
  }
  t.ok(crawled >= 100, `${crawled} pages crawled`)
})
