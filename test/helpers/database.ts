/**
 * Databases for tests: every test file gets its own, seeded from a template that
 * test/setup.ts prepares once per run (PGlite always; PostgreSQL when DATABASE_URL is set).
 */
import { createHash, randomBytes } from 'node:crypto'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import type { Kysely } from 'kysely'
import pg from 'pg'
import type { Database } from '../../db/schema.js'
import { openDatabase, type DatabaseHandle, type DatabaseKind } from '../../src/infra/database.js'
import { projectPath } from '../../src/infra/paths.js'

/**
 * The folders a seeded template is built from: the schema and every seed file (db/), and the
 * code that reads, checks and derives them. Any file added to them counts without a change here.
 */
export const TEMPLATE_SOURCES: readonly string[] = ['db', 'src/content', 'src/text', 'src/seed', 'src/narratives', 'src/verses', 'src/infra']

/** Every file under a project folder, as sorted project-relative paths. */
function filesUnder(folder: string): string[] {
  return readdirSync(projectPath(folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(projectPath(), join(entry.parentPath, entry.name)))
    .sort()
}

/**
 * Identifies the schema, the seed data and the code that derives it: the names and contents
 * of every file under {@link TEMPLATE_SOURCES}, so a template is rebuilt whenever any changes.
 */
export function templateKey(): string {
  const hash = createHash('sha256')
  for (const folder of TEMPLATE_SOURCES) {
    for (const file of filesUnder(folder))
      hash
        .update(`${file}\n`)
        .update(readFileSync(projectPath(file)))
        .update('\n')
  }
  return hash.digest('hex').slice(0, 12)
}

/** The folder of the seeded PGlite template. */
export function pgliteTemplateDir(): string {
  return projectPath('var', 'test', `pglite-${templateKey()}`)
}

/** The name of the seeded PostgreSQL template database. */
export function postgresTemplateName(): string {
  return `plainverse_tpl_${templateKey()}`
}

/** The PostgreSQL server to test against, when there is one. */
export function postgresUrl(): string | undefined {
  const url = process.env.DATABASE_URL
  return url === undefined || url === '' ? undefined : url
}

/** A URL to another database on the same server. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

/** Runs one statement on the server's own database (CREATE/DROP DATABASE). */
export async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** A database of one kind for one test; `seeded` copies the template, otherwise it is empty. */
export async function openTestDatabase(kind: DatabaseKind, options: { seeded: boolean }): Promise<DatabaseHandle> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'pv-pglite-'))
    if (options.seeded) cpSync(pgliteTemplateDir(), dir, { recursive: true })
    const handle = await openDatabase({ kind: 'pglite', dir })
    return {
      ...handle,
      close: async () => {
        await handle.close()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  const url = postgresUrl()
  if (url === undefined) throw new Error('DATABASE_URL is not set')
  const name = `pv_test_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery(url, `create database "${name}"${options.seeded ? ` template "${postgresTemplateName()}"` : ''}`)
  const handle = await openDatabase({ kind: 'postgres', url: withDatabase(url, name), poolSize: 4 })
  return {
    ...handle,
    close: async () => {
      await handle.close()
      await adminQuery(url, `drop database if exists "${name}"`)
    },
  }
}

/** The kinds this run tests: PGlite always, PostgreSQL when DATABASE_URL is set. */
export function availableKinds(): Array<{ kind: DatabaseKind; skip: string | false }> {
  return [
    { kind: 'pglite', skip: false },
    { kind: 'postgres', skip: postgresUrl() === undefined ? 'PostgreSQL: DATABASE_URL is not set (embedded PGlite only)' : false },
  ]
}

/**
 * Removes the written content (curated and generated rows, both styles) of some verses, keeping
 * the modernized faithful text the seed makes for every verse: the state of a verse nothing
 * covers, as when an operator removes its content. Every book ships written content, so a test
 * of that fallback makes the state itself, before the stores are loaded. The seed's record of
 * the shipped files is left as it is, so a restart does not put the rows back.
 * @returns the number of rows removed.
 */
export async function removeWrittenContent(db: Kysely<Database>, verseIds: readonly number[]): Promise<number> {
  const result = await db.deleteFrom('verse_content').where('verse_id', 'in', verseIds).where('method', '<>', 'modernized').executeTakeFirst()
  return Number(result.numDeletedRows)
}
