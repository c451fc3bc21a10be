/**
 * A Redis server of the test's own, on a free port, that the test may stop, restart and
 * flush without touching the shared server other tests use (Debian's redis-server). When the
 * binary is missing, the caller skips.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { freePort } from './postgres-instance.js'

const BINARY = '/usr/bin/redis-server'

/** A private Redis server. */
export interface RedisInstance {
  readonly url: string
  readonly port: number
  /** Starts it (again) on the same port, empty: it keeps nothing on disk. */
  start(): Promise<void>
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>
  /** Runs one command on it (FLUSHALL, SCRIPT FLUSH, DEBUG SLEEP...). */
  command(name: string, ...args: Array<string | number>): Promise<unknown>
}

/** Why a private server cannot be made here, or undefined when it can. */
export function privateRedisUnavailable(): string | undefined {
  return existsSync(BINARY) ? undefined : `${BINARY} is not installed: apt-get install redis-server`
}

/** Starts a private server; stopped when the test ends. */
export async function startPrivateRedis(t: { teardown(fn: () => unknown): void }): Promise<RedisInstance> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const ping = async (): Promise<boolean> => {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
    try {
      await client.connect()
      return (await client.ping()) === 'PONG'
    } catch {
      return false
    } finally {
      client.disconnect()
    }
  }
  const instance: RedisInstance = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: 'ignore' })
      for (let i = 0; !(await ping()); i++) {
        if (i > 300) throw new Error('the private Redis did not start')
        await sleep(50)
      }
    },
    async stop() {
      const running = child
      if (running === undefined || running.exitCode !== null) return
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()))
      running.kill('SIGTERM')
      await exited
    },
    async command(name, ...args) {
      const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 })
      try {
        return await client.call(name, ...args)
      } finally {
        client.disconnect()
      }
    },
  }
  t.teardown(() => instance.stop())
  await instance.start()
  return instance
}
