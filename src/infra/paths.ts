/** Where the project's own files are, whether running from sources (tsx) or the build (dist/). */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

function findRoot(start: string): string {
  let dir = start
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'openapi.yaml'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`project root not found above ${start}`)
    dir = parent
  }
  return dir
}

/** The project's root folder (the one holding package.json and openapi.yaml). */
export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)))

/** A path inside the project. */
export function projectPath(...parts: string[]): string {
  return join(PROJECT_ROOT, ...parts)
}
