/** Runs the operator CLI (src/cli/main.ts) as a separate process, as an operator would. */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { projectPath } from '../../src/infra/paths.js'

/** What one CLI run printed and how it exited. */
export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs `plainverse <args>` with DATA_DIR (and any other variables) set. */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', projectPath('src', 'cli', 'main.ts'), ...args], {
    cwd: projectPath(),
    maxBuffer: 256 * 1024 * 1024,
    // Embedded database and in-process counters unless the test asks for servers explicitly.
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'silent', ...env },
  })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }))
}
