/**
 * keepTickEntryShape: the entry it holds is a real `process.nextTick` queue entry, and later
 * entries, of every kind Node makes, still have its hidden class after collections that reclaim
 * everything they can (what V8's memory reducer does at idle). Checked in a child process with
 * V8's natives syntax on (`%HaveSameMap`), since the hold lasts for the life of a process.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { pathToFileURL } from 'node:url'
import { projectPath } from '../../src/infra/paths.js'

const CHILD = `
import { createHook } from 'node:async_hooks'
const { keepTickEntryShape } = await import(${JSON.stringify(pathToFileURL(projectPath('src', 'infra', 'tick-shape.ts')).href)})
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)')
/** The queue entry process.nextTick makes for this call. */
function entryOf(...args) {
  let entry
  const hook = createHook({ init(_id, type, _trigger, resource) { if (type === 'TickObject' && entry === undefined) entry = resource } })
  hook.enable()
  process.nextTick(...args)
  hook.disable()
  return entry
}
const kept = keepTickEntryShape()
const report = { kept: kept !== undefined, sameOnSecondCall: keepTickEntryShape() === kept, ownKeys: kept === undefined ? [] : Reflect.ownKeys(kept).map(String) }
// Entries with no argument, one, several; callbacks of several kinds: the ones Node's streams make.
for (let i = 0; i < 20000; i++) {
  await new Promise((resolve) => process.nextTick(resolve))
  await new Promise((resolve) => process.nextTick(resolve, i))
  await new Promise((resolve) => process.nextTick((a, b, c) => resolve(a + b + c.length), i, 0.5, 'abc'))
  await new Promise((resolve) => process.nextTick(async () => resolve()))
}
for (let round = 0; round < 3; round++) {
  await new Promise((resolve) => setTimeout(resolve, 5))
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' })
}
report.sameAfterCollections = [entryOf(() => {}), entryOf(() => {}, 1), entryOf(function () {}.bind(null), 1, 2, 3, 4)].map((entry) => kept !== undefined && sameMap(kept, entry))
process.stdout.write(JSON.stringify(report))
`

t.test('the held entry is a nextTick queue entry whose hidden class later entries keep, after full collections', async (t) => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '--eval', CHILD],
    {
      cwd: projectPath(),
      encoding: 'utf8',
    },
  )
  const report = JSON.parse(stdout) as { kept: boolean; sameOnSecondCall: boolean; ownKeys: string[]; sameAfterCollections: boolean[] }
  t.equal(report.kept, true, 'an entry is held')
  t.equal(report.sameOnSecondCall, true, 'one entry per process')
  t.same(
    report.ownKeys,
    ['callback', 'args', 'Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)'],
    "a queue entry's keys (strings first, as Reflect.ownKeys lists them)",
  )
  t.same(report.sameAfterCollections, [true, true, true], 'entries made after the collections have the held entry’s map')
})
