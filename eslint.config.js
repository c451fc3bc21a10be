// The lint gate (`make lint`, run by `make test`): typescript-eslint's recommended rules, the
// house rules of the developers' guide (no `any`, no default exports), and import rules that
// keep the layering: route files are wired only by app.ts; repositories are used (as values)
// only by services, the composition roots, start-up and seeding; nothing on the serving path
// imports the offline content pipeline.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

const ROUTES = { group: ['**/*.routes.js'], message: 'Route files are wired only by src/app.ts.' }
const PIPELINE = {
  group: ['**/content/pipeline/**'],
  message: 'The content pipeline (import, generation, modernizer) is offline code: only seeding and the CLI use it.',
}
const REPOSITORIES = {
  group: ['**/*.repository.js'],
  allowTypeImports: true,
  message: 'Repositories hold the SQL and are used by services, the composition roots, start-up and seeding; import their row types with `import type`.',
}

export default tseslint.config(
  { ignores: ['dist/**', 'generated/**', 'node_modules/**', 'var/**', '.tap/**', 'bin/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // Input checks match control characters on purpose, to reject them.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**/*.ts', 'db/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/app.ts', 'src/content/pipeline/**', 'src/seed/**', 'src/cli/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ROUTES, PIPELINE] }] },
  },
  { files: ['src/app.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [PIPELINE] }] } },
  {
    files: ['src/content/pipeline/**/*.ts', 'src/seed/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ROUTES] }] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.service.ts', 'src/**/*.repository.ts', 'src/services.ts', 'src/startup.ts', 'src/seed/**', 'src/cli/**', 'src/content/pipeline/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [REPOSITORIES] }] },
  },
)
