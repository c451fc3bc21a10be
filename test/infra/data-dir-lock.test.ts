/** DATA_DIR's lock: exclusive, names its holder, and is released by the kernel when the holder dies. */
import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { acquireDataDirLock, DataDirBusyError, readLockHolder } from '../../src/infra/data-dir-lock.js'
import { projectPath } from '../../src/infra/paths.js'

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pv-lock-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('one holder at a time, and the second is told who', async (t) => {
  const dir = join(tempDir(t), 'created-on-demand')
  const lock = acquireDataDirLock(dir, 'server')
  t.match(readLockHolder(dir), { pid: process.pid, role: 'server', state: 'starting' })
  // Even within one process a second acquisition fails: the lock belongs to one descriptor.
  const error = t.throws(() => acquireDataDirLock(dir, 'cli')) as DataDirBusyError
  t.type(error, DataDirBusyError)
  t.match(error.message, new RegExp(`is in use by a Plainverse server \\(pid ${process.pid} on host .+, starting since \\d{4}-`))
  lock.setState('ready')
  t.equal(readLockHolder(dir)?.state, 'ready', 'the state is visible to others at once')
  lock.release()
  lock.release()
  const again = acquireDataDirLock(dir, 'cli')
  t.match(readLockHolder(dir), { pid: process.pid, role: 'cli' }, 'released: the next holder takes it and says so')
  again.release()
})

t.test('a holder killed with SIGKILL leaves nothing behind', async (t) => {
  const dir = tempDir(t)
  const script = `const m = await import(${JSON.stringify(projectPath('src', 'infra', 'data-dir-lock.ts'))}); m.acquireDataDirLock(${JSON.stringify(dir)}, 'server'); console.log('held'); setInterval(() => {}, 1000)`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => (chunk.toString().includes('held') ? resolve() : undefined))
    child.on('exit', () => reject(new Error('the holder exited before taking the lock')))
  })
  const busy = t.throws(() => acquireDataDirLock(dir, 'cli')) as DataDirBusyError
  t.equal(busy.holder?.pid, child.pid, 'the holder is named by its pid')
  child.kill('SIGKILL')
  await exited
  const lock = acquireDataDirLock(dir, 'server')
  t.equal(readLockHolder(dir)?.pid, process.pid, 'taken at once after the holder died, with no staleness wait')
  lock.release()
})
