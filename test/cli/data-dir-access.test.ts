/**
 * How long a command waits for DATA_DIR's holder: a starting server (a first start loads the
 * whole KJV, minutes on a busy machine) for as long as it holds the lock; another command or
 * a stopping server up to the policy's bound, then it says who holds it.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { DataDirUnavailable, reachDataDir } from '../../src/cli/data-dir-access.js'
import { acquireDataDirLock } from '../../src/infra/data-dir-lock.js'

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pv-access-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('a starting server is waited for past the bound, until it lets go', async (t) => {
  const dir = tempDir(t)
  const server = acquireDataDirLock(dir, 'server')
  const notes: string[] = []
  let settled = false
  const reaching = reachDataDir(dir, { timeoutMs: 50, pollMs: 10, note: (line) => notes.push(line) }).finally(() => (settled = true))
  // Well past the 50 ms bound, measured in polls rather than time: still waiting.
  while (notes.length === 0) await sleep(10)
  await sleep(500)
  t.notOk(settled, 'still waiting for the starting server')
  t.match(notes[0], /^Waiting: DATA_DIR is held by a Plainverse server \(pid \d+ .*starting since/)
  server.release()
  const access = await reaching
  t.equal(access.kind, 'local', 'the lock, once the server has gone')
  if (access.kind === 'local') access.lock.release()
})

for (const [what, take] of [
  ['another command', (dir: string) => acquireDataDirLock(dir, 'cli')],
  [
    'a stopping server',
    (dir: string) => {
      const lock = acquireDataDirLock(dir, 'server')
      lock.setState('stopping')
      return lock
    },
  ],
] as const) {
  t.test(`${what} is waited for up to the bound`, async (t) => {
    const dir = tempDir(t)
    const holder = take(dir)
    t.teardown(() => holder.release())
    const error = await reachDataDir(dir, { timeoutMs: 50, pollMs: 10, note: () => undefined }).catch((e: unknown) => e)
    t.type(error, DataDirUnavailable)
    t.match((error as Error).message, /gave up waiting after 0 s/)
  })
}
