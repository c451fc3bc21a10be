/** GET /api/v1/passage/{ref} and GET /api/v1/resolve, on every database kind. */
import t from 'tap'
import type { Problem } from '../../src/errors.js'
import type { Passage, ResolvedReference } from '../../src/passages/passages.service.js'
import type { VerseResource } from '../../src/verses/verses.service.js'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { availableKinds } from '../helpers/database.js'
import { call } from '../helpers/http.js'

interface Resolution {
  readonly query: string
  readonly references: ResolvedReference[]
}

for (const { kind, skip } of availableKinds()) {
  t.test(`passages (${kind})`, { skip }, async (t) => {
    const testApp = await buildTestApp(t, { kind, env: { QUOTA_FREE: '60' } })
    const { app } = testApp
    const { key } = await createTestKey(testApp)
    const headers = { 'x-api-key': key }
    const passage = async (ref: string, query = '') => call(t, app, { url: `/api/v1/passage/${encodeURIComponent(ref)}${query}`, headers })
    const resolve = async (q: string) => call(t, app, { url: `/api/v1/resolve?q=${encodeURIComponent(q)}`, headers })
    const remaining = async (): Promise<number> => (await call(t, app, { url: '/api/v1/usage', headers })).json<{ remaining: number }>().remaining

    t.test('resolve reads what people type, and is not counted', async (t) => {
      const before = await remaining()
      const expected: Array<[string, string, string, number]> = [
        ['Jn 3:16', 'john-3-16', 'John 3:16', 1],
        ['1 Cor 13:4-7', '1-corinthians-13-4-7', '1 Corinthians 13:4-7', 4],
        ['Psalm 23', 'psalms-23', 'Psalms 23', 6],
        ['Gen 1:1-2:3', 'genesis-1-1-2-3', 'Genesis 1:1-2:3', 34],
        ['Romans 8:28, 31-39', 'romans-8-28,romans-8-31-39', 'Romans 8:28, 31-39', 10],
      ]
      for (const [q, slug, reference, count] of expected) {
        const res = await resolve(q)
        t.equal(res.statusCode, 200, q)
        const body = res.json<Resolution>()
        t.equal(body.query, q)
        t.equal(body.references.length, 1, q)
        t.match(body.references[0], { text: q, slug, reference, verse_count: count, passage_url: `http://localhost:8080/api/v1/passage/${slug}` }, q)
      }
      const sentence = (await resolve('Read Jn 3:16 and Romans 8:28, 31-39 tonight')).json<Resolution>()
      t.same(
        sentence.references.map((r) => [r.text, r.slug]),
        [
          ['Jn 3:16', 'john-3-16'],
          ['Romans 8:28, 31-39', 'romans-8-28,romans-8-31-39'],
        ],
      )
      t.same(sentence.references[1]?.ranges, [
        { reference: 'Romans 8:28', slug: 'romans-8-28', start: 'romans-8-28', end: 'romans-8-28', verse_count: 1 },
        { reference: 'Romans 8:31-39', slug: 'romans-8-31-39', start: 'romans-8-31', end: 'romans-8-39', verse_count: 9 },
      ])
      t.same((await resolve('nothing to see here')).json<Resolution>().references, [], 'no reference: an empty list')
      t.same((await resolve('John 3:99')).json<Resolution>().references, [], 'a verse the KJV lacks is left out')
      t.equal((await resolve('Genesis')).json<Resolution>().references[0]?.verse_count, 1533, 'a whole book resolves; the 200-verse limit is for passages')
      t.equal(await remaining(), before, 'resolving is never counted')
      for (const url of ['/api/v1/resolve', '/api/v1/resolve?q=', `/api/v1/resolve?q=${'a'.repeat(501)}`]) {
        const res = await call(t, app, { url, headers })
        t.equal(res.statusCode, 400, url.slice(0, 40))
        t.equal(res.json<Problem>().code, 'invalid_parameter')
      }
      t.equal((await call(t, app, { url: '/api/v1/resolve?q=Jn%203:16' })).statusCode, 401, 'a key is required')
    })

    t.test('canonical slugs give the verses in order, each as the verse resource; one query each', async (t) => {
      const cases: Array<[string, string, number, string, string]> = [
        ['john-3-16-18', 'John 3:16-18', 3, 'john-3-16', 'john-3-18'],
        ['psalms-23', 'Psalms 23', 6, 'psalms-23-1', 'psalms-23-6'],
        ['genesis-1-1-2-3', 'Genesis 1:1-2:3', 34, 'genesis-1-1', 'genesis-2-3'],
        ['john-3-16', 'John 3:16', 1, 'john-3-16', 'john-3-16'],
        ['jude-1', 'Jude 1', 25, 'jude-1-1', 'jude-1-25'],
      ]
      for (const [slug, reference, count, first, last] of cases) {
        const before = await remaining()
        const res = await passage(slug)
        t.equal(res.statusCode, 200, slug)
        const body = res.json<Passage>()
        t.match(body, { slug, reference, verse_count: count }, slug)
        t.equal(body.verses.length, count)
        t.equal(body.verses[0]?.slug, first)
        t.equal(body.verses[body.verses.length - 1]?.slug, last)
        t.equal(await remaining(), before - 1, `${slug}: one passage is one query`)
        t.type(res.headers.ratelimit, 'string')
      }
      const psalm = (await passage('psalms-23', '?style=all')).json<Passage>()
      const verse = (await call(t, app, { url: '/api/v1/verse/psalms-23-1?style=all', headers })).json<VerseResource>()
      t.same(psalm.verses[0], verse, 'each verse is exactly the verse resource')
      t.ok(
        psalm.verses.every(
          (v) => v.faithful !== undefined && v.casual !== undefined && v.attribution.url.endsWith(v.slug.replace(/^psalms-(\d+)-(\d+)$/, 'psalms/$1/$2')),
        ),
      )
      const casual = (await passage('psalms-23', '?style=casual')).json<Passage>()
      t.ok(
        casual.verses.every((v) => v.faithful === undefined && v.casual !== undefined),
        'style=casual',
      )
    })

    t.test('aliases, free text and several ranges come back in canonical form', async (t) => {
      const cases: Array<[string, string, number]> = [
        ['Jn-3-16-18', 'john-3-16-18', 3],
        ['Psalm-23', 'psalms-23', 6],
        ['1 Cor 13:4-7', '1-corinthians-13-4-7', 4],
        ['Romans 8:28, 31-39', 'romans-8-28,romans-8-31-39', 10],
        ['romans-8-31-39,romans-8-28', 'romans-8-28,romans-8-31-39', 10],
        ['john-3-16-18,john-3-17-20', 'john-3-16-20', 5],
        ['john-3-36,john-4-1', 'john-3-36-4-1', 2],
        ['Jn 3:16; Rom 5:8', 'john-3-16,romans-5-8', 2],
        ['Malachi 4:6-Matthew 1:2', 'malachi-4-6,matthew-1-1-2', 3],
      ]
      for (const [ref, slug, count] of cases) {
        const res = await passage(ref)
        t.equal(res.statusCode, 200, ref)
        const body = res.json<Passage>()
        t.equal(body.slug, slug, ref)
        t.equal(body.verse_count, count, ref)
        const again = await passage(body.slug)
        t.equal(again.json<Passage>().slug, slug, `${ref}: the canonical slug reads back as itself`)
      }
      t.equal((await passage('Malachi 4:6-Matthew 1:2')).json<Passage>().reference, 'Malachi 4:6; Matthew 1:1-2', 'a range across books is split at the book')
    })

    t.test('200 verses at most: more is 400 passage_too_long, before the quota', async (t) => {
      const exactly = await passage('psalms-118-1-119-171')
      t.equal(exactly.statusCode, 200)
      t.equal(exactly.json<Passage>().verse_count, 200)
      const before = await remaining()
      for (const ref of ['psalms-118-1-119-172', 'Genesis', 'genesis-1-1-50-26', 'Matt 5-10']) {
        const res = await passage(ref)
        t.equal(res.statusCode, 400, ref)
        const problem = res.json<Problem>()
        t.equal(problem.code, 'passage_too_long', ref)
        t.match(problem.detail, /at most 200/)
      }
      t.equal(await remaining(), before, 'a refused passage is not counted')
    })

    t.test('a reference that names no verse is 404 passage_not_found, not counted', async (t) => {
      const before = await remaining()
      for (const ref of ['john-3-99', 'john-3-18-16', 'john-22', 'john-3-16-99', 'nobook-3-16', 'hello world', 'John 3:99', '3-16', 'psalms-0']) {
        const res = await passage(ref)
        t.equal(res.statusCode, 404, ref)
        t.equal(res.json<Problem>().code, 'passage_not_found', ref)
      }
      t.equal(await remaining(), before)
      const bad = await passage('john-3-16', '?style=formal')
      t.equal(bad.statusCode, 400)
      t.equal((await passage('x'.repeat(501))).statusCode, 400, 'ref longer than 500 characters')
      t.equal((await call(t, app, { url: '/api/v1/passage/john-3-16' })).statusCode, 401)
      t.equal((await call(t, app, { url: '/api/v1/passage/john-3-16', headers: { 'x-api-key': 'pv_nope' } })).statusCode, 403)
    })

    t.test('fuzzed references never give a 5xx', async (t) => {
      const alphabet = 'abcdejmnoprsu0123456789 -:,;.%\u00e9\u0000\uffff'
      let seed = 7
      const random = (n: number): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31
        return seed % n
      }
      const pieces = ['john', 'jn', 'psalm', 'gen', '1 cor', '3', '16', '-', ':', ',', ' ', '999', '0', 'rev', '22:21', 'and']
      for (let i = 0; i < 150; i++) {
        const ref =
          i % 2 === 0
            ? Array.from({ length: 1 + random(8) }, () => pieces[random(pieces.length)]).join('')
            : Array.from({ length: 1 + random(30) }, () => alphabet[random(alphabet.length)]).join('')
        const res = await passage(ref)
        t.ok([200, 400, 404].includes(res.statusCode), `${JSON.stringify(ref)} -> ${res.statusCode}`)
        const resolved = await resolve(ref)
        t.ok([200, 400].includes(resolved.statusCode), `resolve ${JSON.stringify(ref)} -> ${resolved.statusCode}`)
      }
    })

    t.test('an exhausted key: 429 before a lookup, 400 before the quota', async (t) => {
      while ((await remaining()) > 0) await passage('john-3-16')
      const counted = await passage('john-3-16')
      t.equal(counted.statusCode, 429)
      t.type(counted.headers['retry-after'], 'string')
      t.equal((await passage('john-3-99')).statusCode, 429, 'not found after the quota check')
      t.equal((await passage('Genesis')).statusCode, 400, 'too long is a bad request, whatever the quota')
      t.equal((await resolve('Jn 3:16')).statusCode, 200, 'resolve works on an exhausted key: it is not counted')
    })
  })
}
