/**
 * The contract check itself (test/helpers/contract.ts): it must fail a response whose headers
 * depart from openapi.yaml, or the suite's "every response is checked" means less than it says.
 */
import t from 'tap'
import { contractViolations, type ObservedResponse } from '../helpers/contract.js'

const verse: ObservedResponse = {
  method: 'GET',
  url: '/api/v1/verse/john-3-16',
  status: 429,
  headers: {
    'content-type': 'application/problem+json',
    'retry-after': '1598400',
    'ratelimit-policy': '"monthly";q=500;w=2419200',
    ratelimit: '"monthly";r=0;t=1598400',
    'x-ratelimit-limit': '500',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': '1803772800',
  },
  body: JSON.stringify({
    type: 'http://localhost:8080/problems/quota-exceeded',
    title: 'Quota exceeded',
    status: 429,
    detail: 'used up',
    code: 'quota_exceeded',
    request_id: 'r1',
    policy: 'monthly',
    limit: 500,
    reset_at: '2027-03-01T00:00:00.000Z',
  }),
}
const without = (response: ObservedResponse, name: string): ObservedResponse => ({
  ...response,
  headers: Object.fromEntries(Object.entries(response.headers).filter(([key]) => key !== name)),
})
const withHeader = (response: ObservedResponse, name: string, value: string): ObservedResponse => ({
  ...response,
  headers: { ...response.headers, [name]: value },
})

t.test('a conforming response passes', async (t) => {
  t.same(contractViolations(verse), [])
  const burst = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].reduce(without, verse)
  t.same(contractViolations(burst), [], 'a per-second 429 has no X-RateLimit-* headers')
})

t.test('a header that is always sent is required', async (t) => {
  for (const name of ['retry-after', 'ratelimit', 'ratelimit-policy']) {
    t.match(contractViolations(without(verse, name)), [new RegExp(`required header ${name} is missing`, 'i')], name)
  }
  const tagged: ObservedResponse = { method: 'GET', url: '/api/v1/books', status: 304, headers: {}, body: '' }
  t.match(contractViolations(tagged), [/required header ETag is missing/], 'a 304 names its ETag')
  const metrics: ObservedResponse = { method: 'GET', url: '/metrics', status: 401, headers: { 'content-type': 'application/problem+json' }, body: verse.body }
  t.match(contractViolations(metrics), [/required header WWW-Authenticate is missing/])
})

t.test('header values are checked against their schemas', async (t) => {
  for (const [name, value] of [
    ['retry-after', 'soon'],
    ['retry-after', '-1'],
    ['ratelimit', 'monthly;r=0'],
    ['ratelimit-policy', '"monthly";q=500'],
    ['x-ratelimit-remaining', '0.5x'],
    ['x-ratelimit-limit', '-3'],
  ] as const) {
    t.match(contractViolations(withHeader(verse, name, value)), [new RegExp(`header ${name} \\S+ must`, 'i')], `${name}: ${value}`)
  }
  const books: ObservedResponse = { method: 'GET', url: '/api/v1/books', status: 304, headers: { etag: 'abc' }, body: '' }
  t.match(contractViolations(books), [/header ETag "abc" must match pattern/], 'an unquoted entity tag')
})
