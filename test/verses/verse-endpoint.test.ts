import t from 'tap'
import { availableKinds, openTestDatabase, removeWrittenContent } from '../helpers/database.js'
import { verseId } from '../../src/verses/verse.store.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import type { VerseResource } from '../../src/verses/verses.service.js'
import type { Problem } from '../../src/errors.js'
import type { components } from '../../generated/api-types.js'
import { readFileSync } from 'node:fs'
import { projectPath } from '../../src/infra/paths.js'

type BookDetail = components['schemas']['BookDetail']
type Passage = components['schemas']['Passage']

// The committed outline and the BSB headings it must not repeat, to check what is served against.
const outline = JSON.parse(readFileSync(projectPath('db/sections/sections.json'), 'utf8')) as Array<{ slug: string; title: string; book: string; seq: number }>
const narrativeTable = JSON.parse(readFileSync(projectPath('db/narratives/narratives.json'), 'utf8')) as Array<{ slug: string; title: string; gospel: string }>

for (const { kind, skip } of availableKinds()) {
  t.test(`verse endpoint on ${kind}`, { skip }, async (t) => {
    // Every book ships written content: Obadiah 1:4's is removed here (as an operator might) to
    // test a verse served from the modernizer alone.
    const database = await openTestDatabase(kind, { seeded: true })
    t.teardown(() => database.close()) // after the app's own teardown: teardowns run last first
    t.ok((await removeWrittenContent(database.db, [verseId(31, 1, 4)])) >= 2, 'Obadiah 1:4 had written content in both styles, now removed')
    const testApp = await buildTestApp(t, { kind, database, env: { PUBLIC_BASE_URL: 'https://api.example.org/', QUOTA_FREE: '100000' } })
    const { app } = testApp
    const { key } = await createTestKey(testApp)

    t.test('John 3:16 in the default (faithful) style', async (t) => {
      const res = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key } })
      t.equal(res.statusCode, 200)
      t.match(res.headers['content-type'], /^application\/json/)
      const body = res.json<VerseResource>()
      t.equal(body.reference, 'John 3:16')
      t.equal(body.slug, 'john-3-16')
      t.equal(
        body.kjv_text,
        'For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life.',
      )
      t.match(body.faithful?.simplified_text, /God so loved the world/)
      t.type(body.faithful?.bottom_line, 'string')
      t.type(body.faithful?.historical_context, 'string')
      t.type(body.faithful?.practical_reflection, 'string')
      t.same(body.faithful?.provenance, { method: 'curated', model: null, prompt_version: 'curated-2' })
      t.notOk('casual' in body, 'casual is absent for style=faithful')
      t.same(body.available_styles, { faithful: true, casual: true })
      t.equal(body.attribution.url, 'https://api.example.org/john/3/16')
      t.equal(body.attribution.source, 'Plainverse')
      t.match(body.attribution.license, /active API subscription/)
    })

    t.test('styles: casual and all', async (t) => {
      const casual = (await call(t, app, { url: '/api/v1/verse/john-3-16?style=casual', headers: { 'x-api-key': key } })).json<VerseResource>()
      t.notOk('faithful' in casual)
      t.equal(casual.casual?.available, true)
      t.same(casual.casual?.provenance, { method: 'curated', model: null, prompt_version: 'curated-2' })
      const all = (await call(t, app, { url: '/api/v1/verse/john-3-16?style=all', headers: { 'x-api-key': key } })).json<VerseResource>()
      t.ok(all.faithful)
      t.ok(all.casual)
    })

    t.test('a verse without written content has the modernized faithful text only', async (t) => {
      const body = (await call(t, app, { url: '/api/v1/verse/obadiah-1-4?style=all', headers: { 'x-api-key': key } })).json<VerseResource>()
      t.type(body.faithful?.simplified_text, 'string')
      t.match(body.kjv_text, /\bthou\b/, 'the KJV text it modernizes is archaic')
      t.notMatch(body.faithful?.simplified_text ?? '', /\b(ye|thee|thou|unto)\b/i, 'modern English')
      t.same(body.faithful?.provenance, { method: 'modernized', model: null, prompt_version: 'modernizer-4' })
      t.equal(body.faithful?.bottom_line, null, 'nothing is invented for fields no source provides')
      t.equal(body.faithful?.historical_context, null)
      t.same(body.casual, { simplified_text: null, bottom_line: null, available: false, provenance: null })
      t.same(body.available_styles, { faithful: true, casual: false })
    })

    t.test('aliases resolve to the canonical verse', async (t) => {
      const cases: Array<[string, string, string]> = [
        ['jn-3-16', 'john-3-16', 'John 3:16'],
        ['JOHN-3-16', 'john-3-16', 'John 3:16'],
        ['psalm-23-1', 'psalms-23-1', 'Psalms 23:1'],
        ['1cor-13-4', '1-corinthians-13-4', '1 Corinthians 13:4'],
        ['1-corinthians-13-4', '1-corinthians-13-4', '1 Corinthians 13:4'],
        ['song-of-songs-2-1', 'song-of-solomon-2-1', 'Song of Solomon 2:1'],
        ['Song-Of-Solomon-2-1', 'song-of-solomon-2-1', 'Song of Solomon 2:1'],
        ['3-john-1-14', '3-john-1-14', '3 John 1:14'],
      ]
      for (const [slug, canonical, reference] of cases) {
        const res = await call(t, app, { url: `/api/v1/verse/${slug}`, headers: { 'x-api-key': key } })
        t.equal(res.statusCode, 200, slug)
        t.equal(res.json<VerseResource>().slug, canonical, slug)
        t.equal(res.json<VerseResource>().reference, reference, slug)
      }
    })

    t.test('slugs that name no verse are 404 verse_not_found', async (t) => {
      const bad = [
        'john-0-1',
        'john-3-0',
        'john-3-37',
        'john-22-1',
        '3-john-1-15',
        'psalms-117-3',
        'nobook-1-1',
        'garbage',
        'john',
        'john-3',
        'john-3-16-17',
        '-1-1',
        'john--3-16',
        encodeURIComponent('jöhn-3-16'),
        encodeURIComponent('john 3 16 ; drop table verses'),
        'x'.repeat(200),
      ]
      for (const slug of bad) {
        const res = await call(t, app, { url: `/api/v1/verse/${slug}`, headers: { 'x-api-key': key } })
        t.equal(res.statusCode, 404, slug.slice(0, 40))
        const problem = res.json<Problem>()
        t.equal(problem.code, 'verse_not_found')
        t.match(res.headers['content-type'], /^application\/problem\+json/)
      }
      // Past the contract's maxLength (200) a slug is an invalid parameter.
      const long = await call(t, app, { url: `/api/v1/verse/${'x'.repeat(5120)}`, headers: { 'x-api-key': key } })
      t.equal(long.statusCode, 400)
      t.equal(long.json<Problem>().code, 'invalid_parameter')
    })

    t.test('an invalid style is 400 invalid_parameter', async (t) => {
      for (const style of ['formal', 'FAITHFUL', '', 'all,casual']) {
        const res = await call(t, app, { url: `/api/v1/verse/john-3-16?style=${encodeURIComponent(style)}`, headers: { 'x-api-key': key } })
        t.equal(res.statusCode, 400, style)
        const problem = res.json<Problem>()
        t.equal(problem.code, 'invalid_parameter')
        t.equal(problem.status, 400)
        t.match(problem.detail, /style/)
      }
      const repeated = await call(t, app, { url: '/api/v1/verse/john-3-16?style=casual&style=all', headers: { 'x-api-key': key } })
      t.equal(repeated.statusCode, 400, 'a repeated style is rejected, not guessed')
    })

    t.test('ETag and If-None-Match', async (t) => {
      const first = await call(t, app, { url: '/api/v1/verse/john-3-16?style=all', headers: { 'x-api-key': key } })
      const etag = first.headers.etag
      t.type(etag, 'string')
      const again = await call(t, app, { url: '/api/v1/verse/jn-3-16?style=all', headers: { 'x-api-key': key, 'if-none-match': String(etag) } })
      t.equal(again.statusCode, 304)
      t.equal(again.body, '')
      t.equal(again.headers.etag, etag)
      const weak = await call(t, app, {
        url: '/api/v1/verse/john-3-16?style=all',
        headers: { 'x-api-key': key, 'if-none-match': `"other", W/${String(etag)}` },
      })
      t.equal(weak.statusCode, 304, 'weak comparison, lists')
      const other = await call(t, app, { url: '/api/v1/verse/john-3-16?style=faithful', headers: { 'x-api-key': key, 'if-none-match': String(etag) } })
      t.equal(other.statusCode, 200, 'another representation has another tag')
      t.not(other.headers.etag, etag)
      const star = await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key, 'if-none-match': '*' } })
      t.equal(star.statusCode, 304)
    })

    t.test('books', async (t) => {
      const res = await call(t, app, { url: '/api/v1/books' })
      t.equal(res.statusCode, 200)
      const books = res.json<{
        data: Array<{ name: string; slug: string; testament: string; position: number; chapter_count: number; verse_count: number; verse_counts: number[] }>
      }>().data
      t.equal(books.length, 66)
      t.equal(books[0]?.name, 'Genesis')
      t.equal(books[65]?.slug, 'revelation')
      t.equal(
        books.reduce((n, b) => n + b.chapter_count, 0),
        1189,
      )
      t.equal(
        books.reduce((n, b) => n + b.verse_count, 0),
        31102,
      )
      const psalms = books.find((b) => b.slug === 'psalms')
      t.equal(psalms?.verse_counts[116], 2, 'Psalm 117 has two verses')
      t.equal(books.find((b) => b.slug === '3-john')?.verse_counts[0], 14)
      t.equal(books.filter((b) => b.testament === 'new').length, 27)
      const cached = await call(t, app, { url: '/api/v1/books', headers: { 'if-none-match': String(res.headers.etag) } })
      t.equal(cached.statusCode, 304)
    })

    t.test('one book with its introduction', async (t) => {
      const res = await call(t, app, { url: '/api/v1/books/1cor' })
      t.equal(res.statusCode, 200)
      const book = res.json<{ slug: string; name: string; chapter_count: number; introduction: { author: string; text: string } }>()
      t.equal(book.slug, '1-corinthians')
      t.equal(book.name, '1 Corinthians')
      t.equal(book.chapter_count, 16)
      t.match(book.introduction.author, /Paul/)
      const words = book.introduction.text.split(/\s+/).length
      t.ok(words >= 80 && words <= 200, `introduction of ${words} words`)
      for (const token of ['genesis', 'Psalm', 'song-of-songs', 'REVELATION', 'jn'])
        t.equal((await call(t, app, { url: `/api/v1/books/${token}` })).statusCode, 200, token)
      t.equal((await call(t, app, { url: `/api/v1/books/${'x'.repeat(300)}` })).statusCode, 400, 'longer than the maxLength of 200')
      for (const token of ['nobook', 'x'.repeat(200), encodeURIComponent('../etc'), '0']) {
        const missing = await call(t, app, { url: `/api/v1/books/${token}` })
        t.equal(missing.statusCode, 404, token.slice(0, 20))
        t.equal(missing.json<Problem>().code, 'book_not_found')
      }
      const cached = await call(t, app, {
        url: '/api/v1/books/john',
        headers: { 'if-none-match': String((await call(t, app, { url: '/api/v1/books/john' })).headers.etag) },
      })
      t.equal(cached.statusCode, 304)
    })

    t.test('every verse carries its section; in the Gospels it is the narrative', async (t) => {
      const john = (await call(t, app, { url: '/api/v1/verse/john-3-16', headers: { 'x-api-key': key } })).json<VerseResource>()
      t.same(john.section, { slug: 'john-nicodemus-comes-by-night', title: john.narrative?.title })
      t.same(john.section, john.narrative, 'the section is the narrative')
      const genesis = (await call(t, app, { url: '/api/v1/verse/genesis-1-1', headers: { 'x-api-key': key } })).json<VerseResource>()
      t.notOk('narrative' in genesis, 'no narrative outside the Gospels')
      const first = outline[0]
      t.same(genesis.section, { slug: 'genesis-god-creates-the-world-in-six-days', title: 'God creates the world in six days' }, 'our title for Genesis 1')
      t.same(genesis.section, { slug: first?.slug, title: first?.title }, 'the first section of the outline')
      t.notMatch(genesis.section.title, /^the creation$/i, 'our own title, not the BSB heading')
      t.match(genesis.section.slug, /^genesis-[a-z]/)
      const [psalm1, psalm6, next] = await Promise.all(
        ['psalms-23-1', 'psalms-23-6', 'psalms-24-1'].map(async (slug) =>
          (await call(t, app, { url: `/api/v1/verse/${slug}?style=casual`, headers: { 'x-api-key': key } })).json<VerseResource>(),
        ),
      )
      t.same(psalm1?.section, psalm6?.section, 'one psalm is one section')
      t.not(psalm1?.section.slug, next?.section.slug, 'the next psalm is another')
      const last = (await call(t, app, { url: '/api/v1/verse/revelation-22-21', headers: { 'x-api-key': key } })).json<VerseResource>()
      t.same(last.section, { slug: outline.at(-1)?.slug, title: outline.at(-1)?.title }, 'the last verse is in the last section')
    })

    t.test('a book lists its sections, which cover it in order', async (t) => {
      let total = 0
      for (const { slug } of (await call(t, app, { url: '/api/v1/books' })).json<{ data: Array<{ slug: string }> }>().data) {
        const book = (await call(t, app, { url: `/api/v1/books/${slug}` })).json<BookDetail>()
        const expected = outline.filter((s) => s.book === book.slug)
        t.same(
          book.sections.map((s) => [s.slug, s.title]),
          expected.map((s) => [s.slug, s.title]),
          `${slug}: the outline's sections`,
        )
        const problems: string[] = []
        let next = { chapter: 1, verse: 1 }
        for (const section of book.sections) {
          if (section.start.chapter !== next.chapter || section.start.verse !== next.verse)
            problems.push(`${section.slug} starts at ${section.start.chapter}:${section.start.verse}`)
          const inChapter = book.verse_counts[section.end.chapter - 1] ?? 0
          next = section.end.verse < inChapter ? { chapter: section.end.chapter, verse: section.end.verse + 1 } : { chapter: section.end.chapter + 1, verse: 1 }
        }
        if (next.chapter !== book.chapter_count + 1 || next.verse !== 1) problems.push(`the last section ends before ${book.name} does`)
        if (book.sections.reduce((n, s) => n + s.verse_count, 0) !== book.verse_count) problems.push('verse counts do not add up')
        t.same(problems, [], `${book.name} is covered once, in order`)
        total += book.sections.length
      }
      t.equal(total, outline.length, 'every section is on its book')
      const john = (await call(t, app, { url: '/api/v1/books/jn' })).json<BookDetail>()
      t.same(
        john.sections.map((s) => s.slug),
        narrativeTable.filter((n) => n.gospel === 'john').map((n) => n.slug),
        "John's sections are its narratives",
      )
      const ruth = (await call(t, app, { url: '/api/v1/books/ruth' })).json<BookDetail>()
      t.match(ruth.sections[0], {
        reference: 'Ruth 1:1-5',
        passage: 'ruth-1-1-5',
        start: { chapter: 1, verse: 1 },
        end: { chapter: 1, verse: 5 },
        verse_count: 5,
      })
      const psalms = (await call(t, app, { url: '/api/v1/books/psalms' })).json<BookDetail>()
      t.match(psalms.sections[22], { reference: 'Psalms 23', passage: 'psalms-23', verse_count: 6 })
    })

    t.test("a section's passage slug gives exactly its verses, each naming the section", async (t) => {
      const genesis = (await call(t, app, { url: '/api/v1/books/genesis' })).json<BookDetail>()
      for (const section of [genesis.sections[0], genesis.sections[2]]) {
        if (section === undefined) throw new Error('Genesis has fewer than 3 sections')
        const passage = (await call(t, app, { url: `/api/v1/passage/${section.passage}?style=faithful`, headers: { 'x-api-key': key } })).json<Passage>()
        t.equal(passage.slug, section.passage)
        t.equal(passage.reference, section.reference)
        t.equal(passage.verses.length, section.verse_count)
        t.ok(
          passage.verses.every((v) => v.section.slug === section.slug && v.section.title === section.title),
          `${section.reference}: every verse names ${section.slug}`,
        )
      }
    })

    t.test('every book has an introduction', async (t) => {
      const books = (await call(t, app, { url: '/api/v1/books' })).json<{ data: Array<{ slug: string }> }>().data
      const introduced: string[] = []
      for (const book of books) {
        // Checked against the contract, which requires the introduction.
        const res = await call(t, app, { url: `/api/v1/books/${book.slug}` })
        if (res.statusCode === 200 && typeof res.json<{ introduction?: unknown }>().introduction === 'object') introduced.push(book.slug)
        else t.fail(`${book.slug}: ${res.statusCode}`)
      }
      t.same(
        introduced,
        books.map((b) => b.slug),
        'all 66 books have an introduction',
      )
    })

    t.test('unknown paths and methods are problems too', async (t) => {
      const missing = await call(t, app, { url: '/api/v1/nothing-here' })
      t.equal(missing.statusCode, 404)
      t.equal(missing.json<Problem>().code, 'not_found')
      t.equal(missing.json<Problem>().type, 'https://api.example.org/problems/not-found')
      const page = await call(t, app, { url: '/problems/quota-exceeded' })
      t.equal(page.statusCode, 200, 'problem types resolve to a page')
      t.match(page.body, /Quota exceeded/)
      t.equal((await call(t, app, { url: '/problems/no-such-thing' })).statusCode, 404)
      const post = await call(t, app, { method: 'POST', url: '/api/v1/verse/john-3-16' })
      t.equal(post.statusCode, 405)
      t.equal(post.json<Problem>().code, 'method_not_allowed')
      t.equal(post.headers.allow, 'GET, OPTIONS')
    })
  })
}
