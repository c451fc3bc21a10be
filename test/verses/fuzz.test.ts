/**
 * Fuzz: random and hostile slugs and query strings never produce a 500, and every response
 * conforms to the contract. Seeded, so a failure can be replayed.
 */
import t from 'tap'
import { buildTestApp, createTestKey } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { FUZZ_SEED, rng } from '../helpers/random.js'

const seed = FUZZ_SEED
const random = rng(seed)
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:~!$&\'()*+,;=@ %/?#[]{}"<>\\^`|\u00e9\u00f6\u4e2d\u{1f600}\u0000\u202e'
const PIECES = [
  'john',
  'jn',
  '1',
  '3',
  '16',
  '0',
  '-',
  '999',
  '1-corinthians',
  'psalms',
  'song-of-songs',
  '..',
  '%00',
  '%2F',
  '%ZZ',
  '\u00ff',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  ' ',
  '1e3',
  '-1',
  '0x10',
  'NaN',
]

function randomString(max: number): string {
  const length = Math.floor(random() * max)
  let out = ''
  for (let i = 0; i < length; i++) out += random() < 0.5 ? pick([...ALPHABET]) : pick(PIECES)
  return out
}

t.test(`fuzzing the verse endpoint (FUZZ_SEED=${seed})`, async (t) => {
  const testApp = await buildTestApp(t, { env: { QUOTA_FREE: '100000' } })
  const { app } = testApp
  const { key } = await createTestKey(testApp)
  const styles = ['faithful', 'casual', 'all', '', 'ALL', 'faithful ', 'null', '[]', '%00', 'x'.repeat(3000)]
  let served = 0
  for (let i = 0; i < 600; i++) {
    const slug = random() < 0.2 ? `${pick(PIECES)}-${Math.floor(random() * 200)}-${Math.floor(random() * 200)}` : randomString(random() < 0.05 ? 3000 : 40)
    const query =
      random() < 0.5
        ? ''
        : `?${random() < 0.5 ? 'style' : randomString(8)}=${random() < 0.6 ? pick(styles) : randomString(20)}${random() < 0.2 ? `&style=${pick(styles)}` : ''}`
    // Let the URL encoder deal with characters that cannot appear raw; some requests keep raw bytes.
    const path = random() < 0.7 ? encodeURIComponent(slug) : slug.replace(/[\s#?]/g, '')
    const url = `/api/v1/verse/${path}${query}`
    const conditional = random() < 0.2 ? { 'if-none-match': randomString(30).replace(/[^\x20-\x7e]/g, '') } : {}
    const res = await call(t, app, { url, headers: { 'x-api-key': key, ...conditional } })
    if (res.statusCode >= 500) t.fail(`500 for ${JSON.stringify(url.slice(0, 200))}`)
    if (![200, 304, 400, 404].includes(res.statusCode)) t.fail(`unexpected ${res.statusCode} for ${JSON.stringify(url.slice(0, 200))}`)
    if (res.statusCode === 200) served++
  }
  t.pass(`600 requests, ${served} served verses, no 5xx`)
})

t.test(`fuzzing the other inputs (FUZZ_SEED=${seed})`, async (t) => {
  const testApp = await buildTestApp(t, { env: { QUOTA_FREE: '100000', AUTH_JWT_SECRET: 'fuzz-secret-0123456789-abcdefghijklmnop' } })
  const { app } = testApp
  const { key } = await createTestKey(testApp)
  const templates: Array<() => { method: 'GET' | 'POST' | 'DELETE'; url: string; headers: Record<string, string>; payload?: string }> = [
    () => ({
      method: 'GET',
      url: `/api/v1/narratives/${encodeURIComponent(randomString(60))}?style=${encodeURIComponent(randomString(6))}`,
      headers: { 'x-api-key': key },
    }),
    () => ({
      method: 'GET',
      url: `/api/v1/narratives?${pick(['gospel', 'q', 'limit', 'cursor', randomString(5)])}=${encodeURIComponent(randomString(random() < 0.1 ? 400 : 20))}`,
      headers: { 'x-api-key': key },
    }),
    () => ({ method: 'GET', url: `/api/v1/books/${encodeURIComponent(randomString(random() < 0.1 ? 3000 : 30))}`, headers: {} }),
    () => ({
      method: 'DELETE',
      url: `/api/v1/keys/${encodeURIComponent(randomString(40))}`,
      headers: { authorization: `Bearer ${randomString(80).replace(/[^\x21-\x7e]/g, '')}` },
    }),
    () => ({
      method: 'GET',
      url: '/api/v1/usage',
      headers: { [pick(['x-api-key', 'authorization'])]: `${pick(['', 'Bearer ', 'pv_', 'Bearer pv_'])}${randomString(50).replace(/[^\x21-\x7e]/g, '')}` },
    }),
    () => ({
      method: 'POST',
      url: '/api/v1/keys',
      headers: { authorization: `Bearer ${randomString(30).replace(/[^\x21-\x7e]/g, '')}`, 'content-type': 'application/json' },
      payload: randomString(200),
    }),
  ]
  for (let i = 0; i < 400; i++) {
    const request = pick(templates)()
    const res = await call(t, app, request)
    if (res.statusCode >= 500) t.fail(`500 for ${request.method} ${request.url.slice(0, 120)}`)
  }
  t.pass('400 requests, no 5xx')
})
