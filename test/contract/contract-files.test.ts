import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { projectPath } from '../../src/infra/paths.js'

const run = promisify(execFile)
const bin = (name: string): string => projectPath('node_modules', '.bin', name)

t.test('generated/ is up to date with openapi.yaml', async (t) => {
  const result = await run(bin('tsx'), ['scripts/generate.ts', '--check'], { cwd: projectPath() }).catch((error: { stderr?: string; code?: number }) => error)
  t.notOk('code' in result && result.code !== 0, `make generate leaves generated/ unchanged: ${'stderr' in result ? String(result.stderr) : ''}`)
})

/** Runs a linter; its exit code (0 when it passes) and everything it printed. */
async function lintWith(command: string, args: string[]): Promise<{ code: number; output: string }> {
  const result = await run(command, args, {
    cwd: projectPath(),
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error)
  const output = `${'stdout' in result ? String(result.stdout) : ''}${'stderr' in result ? String(result.stderr) : ''}`
  return { code: 'code' in result && typeof result.code === 'number' ? result.code : 0, output }
}

const redocly = (file: string): Promise<{ code: number; output: string }> =>
  lintWith(bin('redocly'), ['lint', file, '--config', projectPath('redocly.yaml'), '--format=stylish'])
const spectral = (file: string): Promise<{ code: number; output: string }> =>
  lintWith(bin('spectral'), ['lint', file, '--ruleset', projectPath('.spectral.yaml'), '--format', 'text', '--fail-severity', 'error'])

t.test('redocly lint (recommended-strict, redocly.yaml) reports no error', async (t) => {
  const result = await redocly('openapi.yaml')
  t.equal(result.code, 0, 'redocly lint exits 0', { output: result.output })
  t.notMatch(result.output, /\berror\b/, 'no error lines')
})

t.test('spectral (spectral:oas and the OWASP API ruleset, .spectral.yaml) reports no error', async (t) => {
  const result = await spectral('openapi.yaml')
  t.equal(result.code, 0, 'spectral lint exits 0', { output: result.output })
  t.notMatch(result.output, / error /, 'no error lines')
})

t.test('both rulesets catch a contract that breaks them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pv-lint-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'broken.yaml')
  // No 4XX, an undeclared security scheme, a bearer JWT without RFC 8725, an integer query without bounds.
  writeFileSync(
    file,
    [
      'openapi: 3.1.0',
      'info: {title: Broken, version: 1.0.0, description: A broken contract., license: {name: MIT, identifier: MIT}, contact: {email: a@example.org}}',
      'servers: [{url: "https://api.example.org", x-internal: false}]',
      'security: [{Token: []}]',
      'tags: [{name: T, description: T.}]',
      'paths:',
      '  /things:',
      '    get: {operationId: listThings, tags: [T], summary: Things, description: Things., security: [{Missing: []}],',
      '      parameters: [{name: limit, in: query, schema: {type: integer}}],',
      '      responses: {"200": {description: OK, content: {application/json: {schema: {type: object}}}}}}',
      'components:',
      '  securitySchemes:',
      '    Token: {type: http, scheme: bearer, bearerFormat: JWT}',
      '',
    ].join('\n'),
  )
  const fromRedocly = await redocly(file)
  t.not(fromRedocly.code, 0, 'redocly fails it')
  t.match(fromRedocly.output, /operation-4xx-response/)
  const fromSpectral = await spectral(file)
  t.not(fromSpectral.code, 0, 'spectral fails it')
  t.match(fromSpectral.output, /owasp:api2:2023-jwt-best-practices/)
})
