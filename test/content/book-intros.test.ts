/**
 * scripts/check-book-intros.ts: the shipped book introductions pass, and each gate that
 * applies to them (plain text, word counts, quotes, first letter, final punctuation,
 * American spelling) refuses a bad field.
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { BOOK_SLUGS, checkBookIntros, checkEntry } from '../../scripts/check-book-intros.js'
import { projectPath } from '../../src/infra/paths.js'
import { BOOK_INTROS_FILE } from '../../src/seed/seed-files.js'

const INTRODUCTION = `Genesis tells of the beginning of the world and of one family. ${'It follows Abraham and his descendants through many years. '.repeat(9)}Its opening words are "In the beginning God created the heaven and the earth."`
const entry = (fields: Record<string, unknown>): Record<string, unknown> => ({
  book: 'genesis',
  author: 'Traditionally Moses.',
  date: 'Traditionally the fifteenth century BC.',
  audience: 'The people of Israel.',
  setting: 'From creation to Egypt.',
  purpose: 'To tell of the origins of the world.',
  introduction: INTRODUCTION,
  ...fields,
})

t.test('the shipped introductions pass', async (t) => {
  const problems = checkBookIntros(readFileSync(projectPath(BOOK_INTROS_FILE), 'utf8'))
  t.same(
    problems.map((p) => `${BOOK_SLUGS[p.line - 1] ?? 'file'}: ${p.message}`),
    [],
  )
})

t.test('each gate refuses a bad field and accepts a good one', async (t) => {
  t.same(checkEntry(entry({}), 'genesis'), [])
  t.match(checkEntry(entry({ purpose: 'To honour the covenant and its centre.' }), 'genesis'), [
    /^purpose american_spelling: .*"honour" \(write "honor"\), "centre" \(write "center"\)/,
  ])
  t.same(
    checkEntry(entry({ introduction: INTRODUCTION.replace('the earth."', 'the earth." Leviticus says "love thy neighbour."') }), 'genesis'),
    [],
    'a quotation of the KJV keeps its spelling',
  )
  t.match(checkEntry(entry({ setting: 'from creation to Egypt.' }), 'genesis'), [/^setting first_letter/])
  t.match(checkEntry(entry({ date: 'About 1400 BC' }), 'genesis'), [/^date final_punctuation/])
  t.match(checkEntry(entry({ audience: 'The people of "Israel.' }), 'genesis'), [/^audience quotes_balanced/])
  t.match(checkEntry(entry({ audience: 'The people of “Israel”.' }), 'genesis'), [/^audience quotes_balanced: uses the curly quotation mark/])
  t.match(checkEntry(entry({ author: 'Moses <b>himself</b>.' }), 'genesis'), [/^author markup/])
  t.match(checkEntry(entry({ introduction: 'Too short.' }), 'genesis'), [/^introduction: 2 words, expected 80-200/])
  t.match(checkEntry(entry({ book: 'exodus' }), 'genesis'), [/book "exodus": expected "genesis"/])
})
