/**
 * A PostgreSQL connection killed while a transaction holds it (pg_terminate_backend, a
 * failover) must not end the process: `pg` emits that error on the checked-out client, where
 * the pool does not listen. The statement fails, the caller sees the error, and the pool's
 * next connection works. Only the test's own backend is terminated.
 */
import t from 'tap'
import pg from 'pg'
import { sql } from 'kysely'
import { setTimeout as sleep } from 'node:timers/promises'
import { openDatabase } from '../../src/infra/database.js'
import { postgresUrl } from '../helpers/database.js'

const url = postgresUrl()

t.test('a connection dropped inside a transaction', { skip: url === undefined ? 'PostgreSQL: DATABASE_URL is not set' : false }, async (t) => {
  if (url === undefined) return
  const reported: string[] = []
  const handle = await openDatabase({ kind: 'postgres', url, onConnectionError: (error) => reported.push(error.message) })
  t.teardown(() => handle.close())

  const outcome = await handle.db
    .transaction()
    .execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)
      const pid = rows[0]?.pid
      const killer = new pg.Client({ connectionString: url })
      await killer.connect()
      try {
        await killer.query('select pg_terminate_backend($1)', [pid])
      } finally {
        await killer.end()
      }
      // The client now sits checked out with no statement running; give the server's FATAL
      // message time to arrive, which is when an unhandled 'error' event would end the process.
      for (let i = 0; i < 100 && reported.length === 0; i++) await sleep(50)
      await sql`select 1`.execute(trx)
      return 'committed'
    })
    .catch((error: unknown) => (error instanceof Error ? error.message : String(error)))

  t.not(outcome, 'committed', 'the transaction on the dead connection fails')
  t.ok(reported.length > 0, `the dead connection is reported, not thrown: ${reported.join('; ')}`)
  t.match(reported.join('\n'), /terminat/i, 'with what happened')
  const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db)
  t.same(rows, [{ one: 1 }], 'the next query gets a working connection')
})
