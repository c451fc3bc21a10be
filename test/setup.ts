/**
 * Runs once before the suite (tap's `before`): prepares the seeded database templates that
 * every test file copies, and says which optional backends are skipped.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { sql } from 'kysely'
import { openDatabase } from '../src/infra/database.js'
import { prepareDatabase } from '../src/startup.js'
import { adminQuery, pgliteTemplateDir, postgresTemplateName, postgresUrl, withDatabase } from './helpers/database.js'

async function preparePglite(): Promise<void> {
  const dir = pgliteTemplateDir()
  if (existsSync(dir)) return
  const parent = dirname(dir)
  mkdirSync(parent, { recursive: true })
  // Older templates belong to an earlier schema or seed (another run may be building one now).
  for (const entry of readdirSync(parent)) if (!entry.includes('.building')) rmSync(join(parent, entry), { recursive: true, force: true })
  const building = `${dir}.building-${process.pid}`
  const handle = await openDatabase({ kind: 'pglite', dir: building })
  await prepareDatabase(handle.db)
  await handle.close()
  if (existsSync(dir)) rmSync(building, { recursive: true, force: true })
  else renameSync(building, dir)
}

async function preparePostgres(url: string): Promise<void> {
  const name = postgresTemplateName()
  const server = await openDatabase({ kind: 'postgres', url: withDatabase(url, 'postgres'), poolSize: 1 })
  const { rows } = await sql<{ datname: string }>`
    select datname from pg_database where datname like 'plainverse_tpl_%' or datname like 'pv_test_%'`.execute(server.db)
  await server.close()
  // Left over from an interrupted run, or a template of an earlier schema or seed.
  for (const row of rows) if (row.datname !== name) await adminQuery(url, `drop database if exists "${row.datname}"`)
  if (rows.some((r) => r.datname === name)) return
  await adminQuery(url, `create database "${name}"`)
  const handle = await openDatabase({ kind: 'postgres', url: withDatabase(url, name), poolSize: 2 })
  await prepareDatabase(handle.db)
  await handle.close()
}

await preparePglite()
const url = postgresUrl()
if (url === undefined) {
  console.log('# SKIP PostgreSQL suites: DATABASE_URL is not set (tests run on embedded PGlite only)')
} else {
  await preparePostgres(url)
}
