/** The README's error table is the error catalogue (scripts/readme-errors.ts): they cannot drift. */
import { readFileSync } from 'node:fs'
import t from 'tap'
import { ERROR_CATALOGUE } from '../../src/errors.js'
import { projectPath } from '../../src/infra/paths.js'
import { errorTable, TABLE_END, TABLE_START, withErrorTable } from '../../scripts/readme-errors.js'

const readme = readFileSync(projectPath('README.md'), 'utf8')

t.test('the README holds the table generated from src/errors.ts', async (t) => {
  t.equal(withErrorTable(readme), readme, 'up to date: run `tsx scripts/readme-errors.ts` after changing the catalogue')
})

t.test('every code of the catalogue has its row, with its status, and no other code does', async (t) => {
  const section = readme.slice(readme.indexOf(TABLE_START), readme.indexOf(TABLE_END))
  const rows = [...section.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((m) => [m[2], Number(m[1])])
  t.same(Object.fromEntries(rows), Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([code, entry]) => [code, entry.status])))
  for (const code of ['book_not_found', 'narrative_not_found', 'passage_not_found', 'passage_too_long']) t.match(section, `\`${code}\``, `${code} is listed`)
})

t.test('a catalogue change shows as drift', async (t) => {
  const stale = readme.replace(errorTable(), errorTable().replace(/\n[^\n]*`passage_too_long`[^\n]*/, ''))
  t.not(withErrorTable(stale), stale, 'a table missing a code is rewritten')
})
