#!/usr/bin/env node
// Entry point of `npx plainverse`: runs the compiled CLI (`make build` compiles it).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url))
if (!existsSync(cli)) {
  process.stderr.write('plainverse: the CLI is not built yet; run `make build` (or `make run`) first.\n')
  process.exit(1)
}
await import(cli)
