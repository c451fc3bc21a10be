/**
 * Part of `make build`: the server as a few bundled ES modules in dist/server/ (server.js and its
 * chunks), which `make run`, `npm start` and the container start. Built by esbuild from the
 * TypeScript sources, as the tests run them (tsx); the type check is tsc's, in `make build` and
 * `make test`.
 *
 * Why: a start that loads some 180 of the app's modules and several hundred of its dependencies'
 * (Kysely, Fastify, Ajv, zod, the MCP SDK) one file at a time spends about a sixth of its time
 * to ready in the module loader; a few chunks load in a fraction of that. The chunks keep the
 * modules the server imports only when configured (PostgreSQL's driver, Redis, metrics, the
 * OIDC client) out of a start that does not use them.
 *
 * Options: --out <folder> (default dist/server).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { projectPath } from '../src/infra/paths.js'
import { option } from './build-stamp.js'

/**
 * Packages left out of the bundle, loaded from node_modules as usual: each finds files next to its
 * own module at run time (PGlite its WebAssembly and data files, pino the worker of its
 * transports, fs-native-extensions its native addon, bible-passage-reference-parser the language
 * data the app imports by the package's own path).
 */
const EXTERNAL = ['@electric-sql/pglite', 'pino', 'fs-native-extensions', 'bible-passage-reference-parser']

/**
 * Bundles src/server.ts into `outDir` (emptied first): `server.js`, chunks, and source maps that
 * lead back to the TypeScript sources.
 * @example await bundleServer(projectPath('dist', 'server'))
 */
export async function bundleServer(outDir: string): Promise<void> {
  rmSync(outDir, { recursive: true, force: true })
  await build({
    entryPoints: [projectPath('src', 'server.ts')],
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    external: EXTERNAL,
    logLevel: 'error',
    // CommonJS dependencies inside an ES module bundle still call require() (for Node's own
    // modules): it is given one, made for the bundle's location.
    banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
  })
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = option('out') ?? projectPath('dist', 'server')
  await bundleServer(out)
  console.log(`server bundle: ${join(out, 'server.js')}`)
}
