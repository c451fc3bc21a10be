/**
 * The operator's admin socket: a Unix socket in DATA_DIR (mode 0600) through which the CLI
 * reaches the running server's services. A random token, also in DATA_DIR and readable only
 * by its owner, must accompany every request, so that only a local operator can use it. It
 * is not part of the public API and never listens on a network port.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { AppError, installErrorHandling } from '../errors.js'
import type { AdminOperations, AdminRequest } from './admin.operations.js'

/** Where the socket and its token live. */
export function adminPaths(dataDir: string): { readonly socket: string; readonly token: string } {
  return { socket: join(dataDir, 'admin.sock'), token: join(dataDir, 'admin.token') }
}

const OPERATIONS: ReadonlySet<string> = new Set(['createKey', 'listKeys', 'revokeKey', 'setTier', 'usage'])

/** Starts the admin socket; close the returned app to stop it (the socket file is removed). */
export async function startAdminServer(dataDir: string, operations: AdminOperations): Promise<FastifyInstance> {
  const paths = adminPaths(dataDir)
  const token = randomBytes(32).toString('hex')
  writeFileSync(paths.token, `${token}\n`, { mode: 0o600 })
  chmodSync(paths.token, 0o600)
  // A socket file left by a crashed server would make listen fail.
  if (existsSync(paths.socket)) rmSync(paths.socket)
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 })
  installErrorHandling(app, 'http://localhost', [{ method: 'POST', url: '/admin' }])
  app.post<{ Body: AdminRequest }>('/admin', async (request) => {
    const presented = Buffer.from(/^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '')
    const expected = Buffer.from(token)
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      throw new AppError('invalid_token', 'The admin token does not match the one in DATA_DIR.')
    }
    const { op, args } = request.body ?? {}
    if (typeof op !== 'string' || !OPERATIONS.has(op) || !Array.isArray(args)) throw new AppError('invalid_parameter', 'Unknown admin operation.')
    const method = operations[op] as (...values: unknown[]) => Promise<unknown>
    return { result: await method(...args) }
  })
  app.addHook('onClose', async () => {
    rmSync(paths.socket, { force: true })
    rmSync(paths.token, { force: true })
  })
  await app.listen({ path: paths.socket })
  chmodSync(paths.socket, 0o600)
  return app
}

/** The token a CLI needs to talk to the socket, if a server has written one. */
export function readAdminToken(dataDir: string): string | undefined {
  const { token } = adminPaths(dataDir)
  return existsSync(token) ? readFileSync(token, 'utf8').trim() : undefined
}
