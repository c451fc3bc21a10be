/**
 * The lint gate: the whole project passes typescript-eslint with the layering rules, the formatter's check and the
 * dependency check (scripts/check-dependencies.ts), and each rule does fire on a file that breaks it (checked on
 * text linted as if it were at a path in src/, so no bad file is ever written).
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { ESLint } from 'eslint'
import t from 'tap'
import { projectPath } from '../../src/infra/paths.js'

const eslint = new ESLint({ cwd: projectPath() })

/** The messages ESLint gives for `code` placed at `path` (relative to the project root). */
async function lint(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: projectPath(path) })
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`)
}

t.test('the whole project passes the linter', async (t) => {
  const results = await eslint.lintFiles(['.'])
  const problems = results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(projectPath().length + 1)}:${m.line} ${m.ruleId ?? 'parse'}: ${m.message}`))
  t.same(problems, [], 'eslint reports nothing')
  t.ok(results.length > 100, `${results.length} files linted`)
})

/** Runs scripts/check-dependencies.ts, on this project or on `root`. */
async function checkDependencies(root?: string): Promise<{ code: number; output: string }> {
  const args = ['--import', 'tsx', projectPath('scripts', 'check-dependencies.ts'), ...(root === undefined ? [] : ['--root', root])]
  return promisify(execFile)(process.execPath, args, { cwd: projectPath() })
    .then(({ stdout }) => ({ code: 0, output: stdout }))
    .catch((error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, output: error.stdout ?? '' }))
}

t.test('every source file is in the house format (prettier --check)', async (t) => {
  const result = await promisify(execFile)(projectPath('node_modules', '.bin', 'prettier'), ['--check', '.'], {
    cwd: projectPath(),
    maxBuffer: 16 * 1024 * 1024,
  })
    .then(() => ({ code: 0, output: '' }))
    .catch((error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }))
  t.equal(result.code, 0, `prettier --check reports nothing; run make format${result.output === '' ? '' : `:\n${result.output.slice(0, 4000)}`}`)
})

t.test('every dependency is used, none is missing, none is misplaced', async (t) => {
  const result = await checkDependencies()
  t.equal(result.code, 0, `the dependency check reports nothing${result.output === '' ? '' : `:\n${result.output.slice(0, 4000)}`}`)
})

t.test('the dependency check catches an unused, a missing and a misplaced package', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'pv-deps-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  writeFileSync(join(root, 'package.json'), JSON.stringify({ dependencies: { 'left-pad': '1.0.0' }, devDependencies: { yaml: '2.0.0' } }))
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'src', 'a.ts'), "import { parse } from 'yaml'\nimport { x } from 'undeclared-thing/sub'\nexport const y = [parse, x]\n")
  const result = await checkDependencies(root)
  t.equal(result.code, 1)
  t.same(result.output.trim().split('\n'), [
    'left-pad: a dependency that run-time code does not use',
    'undeclared-thing: imported by run-time code (src, db, bin) but not in package.json',
    'yaml: imported by run-time code (src, db, bin) but only a devDependency',
  ])
})

t.test('a route file imported anywhere but app.ts is an error', async (t) => {
  const code = "import { registerVerseRoutes } from '../verses/verses.routes.js'\nexport const routes = registerVerseRoutes\n"
  t.match(await lint('src/search/search.service.ts', code), [/^no-restricted-imports: .*app\.ts/])
  t.match(await lint('src/seed/seed.service.ts', code), [/^no-restricted-imports: .*app\.ts/])
  t.same(await lint('src/app.ts', code), [], 'app.ts wires routes')
})

t.test('the serving path never imports the content pipeline', async (t) => {
  const code = "import { modernize } from '../content/pipeline/modernizer.js'\nexport const m = modernize\n"
  t.match(await lint('src/verses/verses.service.ts', code), [/^no-restricted-imports: .*pipeline/])
  t.match(await lint('src/verses/verses.routes.ts', code), [/^no-restricted-imports: .*pipeline/])
  t.match(await lint('src/app.ts', "import { modernize } from './content/pipeline/modernizer.js'\nexport const m = modernize\n"), [
    /^no-restricted-imports: .*pipeline/,
  ])
  t.same(await lint('src/seed/seed.service.ts', code), [], 'seeding may run it')
})

t.test('repositories are used as values only by services, composition roots, start-up and seeding', async (t) => {
  const value = "import { VersesRepository } from './verses.repository.js'\nexport const r = VersesRepository\n"
  t.match(await lint('src/verses/verses.routes.ts', value), [/^@typescript-eslint\/no-restricted-imports: .*Repositories hold the SQL/])
  t.match(await lint('src/verses/verse.store.ts', value), [/^@typescript-eslint\/no-restricted-imports: .*Repositories hold the SQL/])
  t.same(await lint('src/verses/verses.service.ts', value), [], 'a service may')
  t.same(
    await lint('src/verses/verse.store.ts', "import type { VersesRepository } from './verses.repository.js'\nexport type R = VersesRepository\n"),
    [],
    'a row type may be imported anywhere',
  )
})

t.test('house rules: no any, no default export', async (t) => {
  t.match(await lint('src/verses/x.ts', 'export function f(a: any): number {\n  return a\n}\n'), [/^@typescript-eslint\/no-explicit-any/])
  t.match(await lint('src/verses/x.ts', 'const x = 1\nexport default x\n'), [/^no-restricted-syntax: Use named exports/])
})
