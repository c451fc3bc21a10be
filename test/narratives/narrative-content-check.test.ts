/**
 * scripts/check-narrative-content.ts: the shipped narrative content passes the shared gate
 * and the whole-file checks, and the script reports what the seed's gate would refuse.
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { checkEntry, checkNarrativeContent, readNarratives } from '../../scripts/check-narrative-content.js'
import { projectPath } from '../../src/infra/paths.js'
import { NARRATIVES_FILE, NARRATIVE_CONTENT_FILE } from '../../src/seed/seed-files.js'

const narratives = readNarratives(projectPath(NARRATIVES_FILE))
const slugs = new Set(narratives.map((n) => n.slug))
const first = narratives[0]?.slug ?? ''
const line = (fields: Record<string, unknown>): Record<string, unknown> => ({
  narrative: first,
  style: 'faithful',
  summary: 'Jesus feeds a crowd. Everyone eats.',
  bottom_line: 'There is enough.',
  provenance: { method: 'curated', model: null, prompt_version: 'curated-1' },
  ...fields,
})

t.test('the shipped narrative content passes', async (t) => {
  const { problems, covered } = checkNarrativeContent(readFileSync(projectPath(NARRATIVE_CONTENT_FILE), 'utf8'), narratives)
  t.same(problems, [])
  t.equal(covered, narratives.length, `all ${narratives.length} narratives covered`)
})

t.test('one line: the shared gate and the file rules', async (t) => {
  t.same(checkEntry(line({}), slugs), [])
  t.match(checkEntry(line({ summary: 'Behold, Jesus feeds the brethren. Everyone eats.' }), slugs), [
    /^summary archaic_form: uses archaic forms "behold", "brethren"/,
  ])
  t.match(checkEntry(line({ style: 'casual', bottom_line: 'there is enough' }), slugs), [/^bottom_line first_letter/, /^bottom_line final_punctuation/])
  t.match(checkEntry(line({ summary: 'Jesus says, "Eat. Everyone eats.' }), slugs), [/^summary quotes_balanced/])
  t.match(checkEntry(line({ summary: 'Jesus feeds a crowd. Everyone eats in his honour.' }), slugs), [
    /^summary american_spelling: .*"honour" \(write "honor"\)/,
  ])
  t.match(checkEntry(line({ narrative: 'no-such-narrative' }), slugs), [/no such narrative/])
  t.match(checkEntry(line({ provenance: { method: 'generated', model: 'm', prompt_version: 'x' } }), slugs), [/shipped content only/])
  t.same(
    checkEntry(line({ provenance: { method: 'generated', model: 'anthropic/claude', prompt_version: 'editorial-1' } }), slugs),
    [],
    "the team's generated lines are shipped content",
  )
  t.match(
    checkEntry(line({ provenance: { method: 'generated', model: null, prompt_version: 'editorial-1' } }), slugs),
    [/provenance/],
    'a generated line names its model',
  )
  t.match(checkEntry(line({ provenance: { method: 'curated', model: null } }), slugs), [/prompt_version/])
  t.match(checkEntry(line({ extra: 1 }), slugs), [/unexpected field "extra"/])
})

t.test('the whole file: pairs, order, coverage', async (t) => {
  const second = narratives[1]?.slug ?? ''
  const text = [line({ narrative: second }), line({ narrative: second, style: 'casual' }), line({}), line({ style: 'casual' })]
    .map((l) => JSON.stringify(l))
    .join('\n')
  const { problems } = checkNarrativeContent(`${text}\n`, narratives)
  t.match(problems, [
    { line: 0, message: /2 narratives covered, expected at least 100/ },
    { line: 3, message: /comes after/ },
  ])
  const unpaired = checkNarrativeContent(`${JSON.stringify(line({ style: 'casual' }))}`, narratives).problems
  t.match(unpaired, [{ line: 0, message: /newline/ }, { line: 0 }, { line: 1, message: /0 faithful lines, expected exactly 1/ }])
})
