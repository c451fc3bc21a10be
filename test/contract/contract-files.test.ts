import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import t from 'tap'
import { projectPath } from '../../src/infra/paths.js'

const run = promisify(execFile)
const bin = (name: string): string => projectPath('node_modules', '.bin', name)

t.test('generated/ is up to date with openapi.yaml', async (t) => {
  const result = await run(bin('tsx'), ['scripts/generate.ts', '--check'], { cwd: projectPath() }).catch((error: { stderr?: string; code?: number }) => error)
  t.notOk('code' in result && result.code !== 0, `make generate leaves generated/ unchanged: ${'stderr' in result ? String(result.stderr) : ''}`)
})

t.test('redocly lint reports no error', async (t) => {
  const result = await run(bin('redocly'), ['lint', 'openapi.yaml', '--format=stylish'], {
    cwd: projectPath(),
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error)
  const output = `${'stdout' in result ? String(result.stdout) : ''}${'stderr' in result ? String(result.stderr) : ''}`
  t.notOk('code' in result && result.code !== 0, 'redocly lint exits 0', { output })
  t.notMatch(output, /\berror\b/, 'no error lines')
})
