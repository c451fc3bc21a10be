/**
 * Part of `make build`: initializes an empty embedded cluster once, with the settings the server
 * uses, in dist/pglite-template/<PGlite version>/. A first start on an empty DATA_DIR copies it
 * (src/infra/database.ts) instead of running PGlite's initdb in the server's process.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { PGLITE_CONF, pgliteTemplateDir } from '../src/infra/database.js'

const template = pgliteTemplateDir()
if (existsSync(`${template}/PG_VERSION`)) {
  console.log(`PGlite template: ${template} (already there)`)
} else {
  mkdirSync(dirname(template), { recursive: true })
  const building = `${template}.building-${process.pid}`
  rmSync(building, { recursive: true, force: true })
  const pglite = await PGlite.create({ dataDir: building, postgresqlconf: PGLITE_CONF })
  await pglite.close()
  rmSync(`${building}/postmaster.pid`, { force: true })
  rmSync(template, { recursive: true, force: true })
  renameSync(building, template)
  console.log(`PGlite template: ${template}`)
}
