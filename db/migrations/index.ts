/**
 * Every migration, in order. Listed explicitly (rather than read from the folder) so that
 * the same list works from TypeScript sources and from the compiled build.
 */
import type { Migration } from 'kysely'
import * as m0001 from './0001_verses.js'
import * as m0002 from './0002_keys_usage.js'
import * as m0003 from './0003_narrative_content.js'
import * as m0004 from './0004_attributions.js'
import * as m0005 from './0005_journal_heartbeat.js'
import * as m0006 from './0006_usage_daily.js'
import * as m0007 from './0007_content_revision.js'

export const migrations: Readonly<Record<string, Migration>> = Object.freeze({
  '0001_verses': m0001,
  '0002_keys_usage': m0002,
  '0003_narrative_content': m0003,
  '0004_attributions': m0004,
  '0005_journal_heartbeat': m0005,
  '0006_usage_daily': m0006,
  '0007_content_revision': m0007,
})
