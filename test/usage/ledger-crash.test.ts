/**
 * The durable ledger: a counted query is never lost and never counted twice, when the server
 * is killed with SIGKILL in the middle of a load, and across a graceful SIGTERM.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { parseJournal } from '../../src/usage/usage.journal.js'
import { runCli } from '../helpers/cli.js'
import { fetchChecked, type Asserter } from '../helpers/http.js'
import { removeDataDir, seededDataDir, startServer, type ServerProcess } from '../helpers/server.js'

interface Load {
  ok: number
  failed: number
  other: number
}

/** Sends requests on `connections` parallel loops until `stop()` resolves; counts the outcomes. */
function load(t: Asserter, server: ServerProcess, key: string, connections: number): { answered: () => number; stop: () => Promise<Load> } {
  let running = true
  const result: Load = { ok: 0, failed: 0, other: 0 }
  const loops = Array.from({ length: connections }, async (_, i) => {
    while (running) {
      try {
        const res = await fetchChecked(t, server.baseUrl, `/api/v1/verse/psalms-${(i % 150) + 1}-1`, { headers: { 'x-api-key': key } })
        if (res.status === 200) result.ok++
        else result.other++
      } catch {
        // The server died with this request in flight: it may or may not have been counted.
        result.failed++
        if (!running) break
        await new Promise((r) => setTimeout(r, 20))
      }
    }
  })
  return {
    answered: () => result.ok,
    stop: async () => {
      running = false
      await Promise.all(loops)
      return result
    },
  }
}

async function usageTotal(dataDir: string, extra: Record<string, string>): Promise<number> {
  const out = await runCli(['usage', '--account', 'crash', '--json'], { DATA_DIR: dataDir, ...extra })
  if (out.code !== 0) throw new Error(out.stderr)
  return (JSON.parse(out.stdout) as { total_queries: number }).total_queries
}

const variants: Array<{ name: string; env: Record<string, string>; skip: string | false }> = [
  { name: 'embedded counter', env: { REDIS_URL: '' }, skip: false },
  {
    name: 'Redis counter',
    env: process.env.REDIS_URL === undefined ? {} : { REDIS_URL: process.env.REDIS_URL },
    skip: process.env.REDIS_URL === undefined ? 'Redis suites skipped: REDIS_URL is not set' : false,
  },
]

for (const variant of variants) {
  t.test(`SIGKILL in the middle of a load (${variant.name})`, { skip: variant.skip }, async (t) => {
    const dataDir = seededDataDir()
    t.teardown(() => removeDataDir(dataDir))
    const env = { DATA_DIR: dataDir, QUOTA_FREE: '1000000', ...variant.env }
    const created = await runCli(['keys', 'create', '--name', 'crash test', '--account', 'crash', '--json'], env)
    const key = (JSON.parse(created.stdout) as { key: string }).key

    const first = await startServer(env)
    t.teardown(() => first.stop('SIGKILL'))
    const traffic = load(t, first, key, 16)
    // Kill once the load is well under way (a count, not a time window: the machine may be busy).
    while (traffic.answered() < 50) await new Promise((r) => setTimeout(r, 10))
    first.child.kill('SIGKILL')
    await first.exited
    const killed = await traffic.stop()
    t.ok(killed.ok >= 50, `served ${killed.ok} queries before the kill`)
    t.equal(killed.other, 0, 'every answer before the kill was a 200')

    // Every query counted before the kill is in the journal (written before its answer); the
    // flusher had applied only those up to its last run, a second or less before.
    const journalled = parseJournal(readFileSync(join(dataDir, 'usage.journal'), 'utf8')).length
    t.ok(journalled >= killed.ok, `the journal holds ${journalled} counted queries, every answered one`)

    // The restart replays the journal into the ledger.
    const second = await startServer(env)
    t.teardown(() => second.stop('SIGKILL'))
    const replay = second.logs.find((l) => l.msg === 'usage journal replayed into the ledger')
    const replayed = typeof replay?.replayed === 'number' ? replay.replayed : 0
    t.ok(replayed > 0 && replayed <= journalled, `the journal was replayed: ${replayed} of ${journalled} entries had not reached the ledger`)
    const afterCrash = await usageTotal(dataDir, env)
    t.equal(afterCrash, journalled, 'the ledger holds every journalled query, once')
    t.ok(afterCrash >= killed.ok, `no answered query is lost: ledger ${afterCrash} >= ${killed.ok} answered`)
    t.ok(afterCrash <= killed.ok + killed.failed, `nothing is counted twice: ledger ${afterCrash} <= ${killed.ok} answered + ${killed.failed} cut off`)

    // A graceful stop loses nothing either, and counts exactly what was answered.
    const more = load(t, second, key, 8)
    while (more.answered() < 20) await new Promise((r) => setTimeout(r, 10))
    const served = await more.stop()
    t.equal(await second.stop('SIGTERM'), 0)
    const third = await startServer(env)
    t.teardown(() => third.stop('SIGKILL'))
    t.equal(await usageTotal(dataDir, env), afterCrash + served.ok, 'after SIGTERM the ledger holds exactly the answered queries')
    const usage = await fetchChecked(t, third.baseUrl, '/api/v1/usage', { headers: { 'x-api-key': key } })
    const body = usage.json<{ total_queries: number; remaining: number }>()
    const ledger = afterCrash + served.ok
    if (variant.env.REDIS_URL === '') {
      t.equal(body.total_queries, ledger, 'the in-process counter is rebuilt from the ledger after the restarts')
    } else {
      // Redis outlives the process: requests cut off by the kill after Redis counted them (but
      // before they were journalled and answered) stay in the counter. The quota errs towards
      // the client never getting more than its allowance, by at most the requests in flight.
      t.ok(
        body.total_queries >= ledger && body.total_queries <= ledger + killed.failed,
        `the Redis counter (${body.total_queries}) is the ledger (${ledger}) plus at most the ${killed.failed} cut-off requests`,
      )
    }
    t.equal(body.remaining, 1000000 - body.total_queries)
    t.equal(await third.stop('SIGTERM'), 0)
  })
}
