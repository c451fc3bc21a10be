/** The server's version, read once from package.json: what MCP `initialize` and the server card report. */
import { readFileSync } from 'node:fs'
import { projectPath } from '../infra/paths.js'

/** The `version` of package.json. */
export const SERVER_VERSION: string = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version
