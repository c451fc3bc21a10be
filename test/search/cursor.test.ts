/** Search cursors: round trip, binding to the query, and refusal of anything else. */
import t from 'tap'
import { decodeCursor, encodeCursor } from '../../src/search/cursor.js'
import { FUZZ_SEED, rng } from '../helpers/random.js'

const scope = { q: 'love', style: 'faithful', book: undefined }

t.test('a cursor gives back the position it was made from', async (t) => {
  for (const key of [
    { score: 12.345678901234567, doc: 26_045 },
    { score: 0, doc: 0 },
    { score: 1e-9, doc: 31_101 },
  ]) {
    const cursor = encodeCursor(scope, key)
    t.match(cursor, /^[A-Za-z0-9_-]{1,200}$/, 'URL-safe and within the contract limit')
    t.same(decodeCursor(cursor, scope), key)
  }
})

t.test('a cursor is valid only for the same q, style and book', async (t) => {
  const cursor = encodeCursor(scope, { score: 3, doc: 5 })
  for (const other of [
    { ...scope, q: 'Love' },
    { ...scope, style: 'all' },
    { ...scope, book: 'john' },
  ]) {
    t.throws(() => decodeCursor(cursor, other), { name: 'CursorError' }, JSON.stringify(other))
  }
})

t.test(`garbage is refused, never misread (FUZZ_SEED=${FUZZ_SEED})`, async (t) => {
  const random = rng(FUZZ_SEED)
  const good = encodeCursor(scope, { score: 3, doc: 5 })
  const cases = [
    '',
    'abc',
    good.slice(1),
    `${good}A`,
    `${good}=`,
    good.replace(/^./, (c) => (c === 'c' ? 'd' : 'c')),
    'bm9wZQ',
    '////',
    'ä',
    Buffer.from('s1xxxxxxxxyyyyyyyyzzzz').toString('base64url'),
  ]
  const nan = Buffer.from(good, 'base64url')
  nan.writeDoubleBE(Number.NaN, 10)
  cases.push(nan.toString('base64url'))
  for (let i = 0; i < 200; i++) cases.push(Buffer.from(Array.from({ length: 1 + (i % 40) }, () => Math.floor(random() * 256))).toString('base64url'))
  for (const cursor of cases) t.throws(() => decodeCursor(cursor, scope), { name: 'CursorError' }, JSON.stringify(cursor))
})
