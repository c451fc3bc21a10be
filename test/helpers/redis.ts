/** Redis helpers for tests that run when REDIS_URL is set. */
import { Redis } from 'ioredis'

/** The Redis server to test against, when there is one. */
export const REDIS_URL: string | undefined = process.env.REDIS_URL === '' ? undefined : process.env.REDIS_URL

/** Removes the Redis counters of the keys a test created (they would otherwise live until their month ends). */
export async function forgetCounters(keyIds: readonly string[]): Promise<void> {
  if (REDIS_URL === undefined || keyIds.length === 0) return
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    for (const id of keyIds) {
      const keys = await redis.keys(`plainverse:quota:${id}:*`)
      if (keys.length > 0) await redis.unlink(...keys)
    }
  } finally {
    redis.disconnect()
  }
}
