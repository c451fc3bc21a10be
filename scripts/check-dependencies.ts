/**
 * The dependency check of the lint gate: every package in package.json is used, every package
 * the code imports is declared, and what the server needs at run time is a dependency, not a
 * devDependency (nor the other way round).
 *
 * "Used" means imported by a source file, run as a binary (`$(BIN)/x` in the Makefile, or
 * node_modules/.bin/x in a test or script), the type package of a used package, or a peer
 * dependency of a used package (zod is the MCP SDK's: nothing imports it, the SDK needs it).
 *
 * Usage: `npx tsx scripts/check-dependencies.ts [--root DIR]` (exit 1 and one line per problem;
 * `--root` checks another project, which the lint test uses to show each problem is caught).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { projectPath } from '../src/infra/paths.js'

interface Manifest {
  readonly dependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>
  readonly bin?: string | Record<string, string>
}

const root = process.argv[2] === '--root' && process.argv[3] !== undefined ? resolve(process.argv[3]) : projectPath()
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest
const runtimeDeclared = new Set(Object.keys(manifest.dependencies ?? {}))
const devDeclared = new Set(Object.keys(manifest.devDependencies ?? {}))

/** Every file under `dir` (relative to the root) whose name ends with one of `exts`. */
function filesUnder(dir: string, exts: readonly string[]): string[] {
  const full = join(root, dir)
  let names: string[]
  try {
    names = readdirSync(full)
  } catch {
    return []
  }
  return names.flatMap((name) => {
    const path = join(full, name)
    if (statSync(path).isDirectory()) return filesUnder(relative(root, path), exts)
    return exts.some((ext) => name.endsWith(ext)) ? [relative(root, path)] : []
  })
}

/** The package a bare import specifier names (`@scope/name/sub` -> `@scope/name`), or undefined for relative and node: imports. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** The packages a source text imports (static, dynamic and `import type`) or resolves (`import.meta.resolve`, for a file it reads). */
function importsOf(text: string): string[] {
  const found: string[] = []
  // Import and export statements (one line, or the closing line of a multi-line one) and dynamic imports.
  const statements =
    /^\s*(?:(?:import|export)\b[^'"\n]*?\bfrom\s*|\}\s*from\s*|import\s+)['"]([^'"\n]+)['"]|\bimport\(\s*['"]([^'"\n]+)['"]\s*\)|\bimport\.meta\.resolve\(\s*['"]([^'"\n]+)['"]\s*\)/gmu
  for (const match of text.matchAll(statements)) {
    const name = packageOf(match[1] ?? match[2] ?? match[3] ?? '')
    if (name !== undefined) found.push(name)
  }
  return found
}

function manifestOf(name: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as Manifest
  } catch {
    return undefined
  }
}

/** The binaries each declared package provides. */
function binariesOf(name: string): string[] {
  const bin = manifestOf(name)?.bin
  if (bin === undefined) return []
  return typeof bin === 'string' ? [name.split('/').pop() ?? name] : Object.keys(bin)
}

// Run-time code: the server, the CLI and the migrations it runs. Everything else is tooling.
const runtimeFiles = [...filesUnder('src', ['.ts']), ...filesUnder('db', ['.ts']), ...filesUnder('bin', ['.js'])]
const toolFiles = [...filesUnder('scripts', ['.ts']), ...filesUnder('test', ['.ts']), ...readdirSync(root).filter((n) => /\.(js|mjs|ts)$/u.test(n))]

const runtimeUsed = new Set(runtimeFiles.flatMap((file) => importsOf(readFileSync(join(root, file), 'utf8'))))
const toolUsed = new Set(toolFiles.flatMap((file) => importsOf(readFileSync(join(root, file), 'utf8'))))

// Binaries: `$(BIN)/x` in the Makefile; `bin('x')` or `'.bin', 'x'` in tests and scripts.
const makefile = ((): string => {
  try {
    return readFileSync(join(root, 'Makefile'), 'utf8')
  } catch {
    return ''
  }
})()
const binaryText = [makefile, ...toolFiles.map((file) => readFileSync(join(root, file), 'utf8'))].join('\n')
const binariesRun = new Set(
  [...binaryText.matchAll(/\$\(BIN\)\/([\w.-]+)|\bbin\('([\w.-]+)'\)|'\.bin',\s*'([\w.-]+)'/gu)].map((m) => m[1] ?? m[2] ?? m[3] ?? ''),
)
for (const name of [...runtimeDeclared, ...devDeclared]) {
  if (binariesOf(name).some((bin) => binariesRun.has(bin))) toolUsed.add(name)
}

// Rulesets that linters' configuration files extend by package name (`- '@scope/ruleset'`).
for (const config of ['.spectral.yaml', 'redocly.yaml']) {
  const text = ((): string => {
    try {
      return readFileSync(join(root, config), 'utf8')
    } catch {
      return ''
    }
  })()
  for (const match of text.matchAll(/^\s*-\s*['"]?(@?[\w.-]+(?:\/[\w.-]+)?)['"]?\s*$/gmu)) {
    const name = match[1] ?? ''
    if (devDeclared.has(name) || runtimeDeclared.has(name)) toolUsed.add(name)
  }
}

// Peer dependencies of used packages, and type packages of used packages, count as used where their owner is.
function addPeersAndTypes(used: Set<string>): void {
  for (const name of [...used]) {
    const m = manifestOf(name)
    for (const peer of Object.keys(m?.peerDependencies ?? {})) {
      if (m?.peerDependenciesMeta?.[peer]?.optional !== true) used.add(peer)
    }
  }
}
addPeersAndTypes(runtimeUsed)
addPeersAndTypes(toolUsed)
const typesUsed = (name: string): boolean => {
  const target = name.slice('@types/'.length)
  return target === 'node' || runtimeUsed.has(target) || toolUsed.has(target) || runtimeUsed.has(`@${target.replace('__', '/')}`)
}

const problems: string[] = []
for (const name of runtimeUsed) {
  if (!runtimeDeclared.has(name))
    problems.push(`${name}: imported by run-time code (src, db, bin) but ${devDeclared.has(name) ? 'only a devDependency' : 'not in package.json'}`)
}
for (const name of toolUsed) {
  if (!runtimeDeclared.has(name) && !devDeclared.has(name)) problems.push(`${name}: used by scripts or tests but not in package.json`)
}
for (const name of runtimeDeclared) {
  if (!runtimeUsed.has(name))
    problems.push(`${name}: a dependency that run-time code does not use${toolUsed.has(name) ? ' (only tooling does: make it a devDependency)' : ''}`)
}
for (const name of devDeclared) {
  const used = name.startsWith('@types/') ? typesUsed(name) : toolUsed.has(name) || runtimeUsed.has(name)
  if (!used) problems.push(`${name}: a devDependency nothing uses`)
}

for (const problem of problems.sort()) process.stdout.write(`${problem}\n`)
process.exit(problems.length === 0 ? 0 : 1)
