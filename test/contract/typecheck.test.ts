import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import t from 'tap'
import { projectPath } from '../../src/infra/paths.js'

t.test('the whole project type-checks (strict)', async (t) => {
  const result = await promisify(execFile)(projectPath('node_modules', '.bin', 'tsc'), ['--noEmit', '-p', '.'], {
    cwd: projectPath(),
    maxBuffer: 16 * 1024 * 1024,
  })
    .then(() => ({ code: 0, output: '' }))
    .catch((error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, output: error.stdout ?? '' }))
  t.equal(result.code, 0, `tsc --noEmit reports no error${result.output === '' ? '' : `:\n${result.output.slice(0, 4000)}`}`)
})
