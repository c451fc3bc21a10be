/**
 * What the build's seed steps (scripts/seed-bundle.ts, scripts/seeded-template.ts) are made from,
 * as one hash: when it is the one recorded beside their output, `make build` skips them.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { projectPath } from '../src/infra/paths.js'

/**
 * The names and bytes of every file under the project folders, and `extra` (versions, other
 * outputs' stamps): any change to them makes another stamp.
 */
export function sourcesStamp(folders: readonly string[], extra: string): string {
  const hash = createHash('sha256').update(`${extra}\n`)
  for (const folder of folders) {
    const files = readdirSync(projectPath(folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(projectPath(), join(entry.parentPath, entry.name)))
      .sort()
    for (const file of files)
      hash
        .update(`${file}\n`)
        .update(readFileSync(projectPath(file)))
        .update('\n')
  }
  return hash.digest('hex')
}

/** This process's peak resident memory (VmHWM) in MiB: the seed steps print it, and the bench reads it. */
export function peakResidentMiB(): number {
  const status = readFileSync('/proc/self/status', 'utf8')
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

/** The value of `--name value` on the command line, if given. */
export function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`)
  return at < 0 ? undefined : process.argv[at + 1]
}
