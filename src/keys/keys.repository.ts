/** SQL for API keys. */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import type { Tier } from '../config.js'

/** A key record as stored (never the key itself). */
export interface KeyRecord {
  readonly id: string
  readonly accountId: string
  readonly name: string
  readonly prefix: string
  /** The SHA-256 of the full key (the key itself is never stored), by which verification finds it. */
  readonly keyHash: string
  readonly tier: Tier
  readonly allowedDomains: readonly string[]
  readonly createdAt: Date
  readonly revokedAt: Date | null
  readonly updatedAt: Date
}

const COLUMNS = ['id', 'account_id', 'name', 'prefix', 'key_hash', 'tier', 'allowed_domains', 'created_at', 'revoked_at', 'updated_at'] as const

type Row = {
  id: string
  account_id: string
  name: string
  prefix: string
  key_hash: string
  tier: Tier
  allowed_domains: string[]
  created_at: Date
  revoked_at: Date | null
  updated_at: Date
}

function toRecord(row: Row): KeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    prefix: row.prefix,
    keyHash: row.key_hash,
    tier: row.tier,
    allowedDomains: row.allowed_domains,
    createdAt: new Date(row.created_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
    updatedAt: new Date(row.updated_at),
  }
}

/** Reads and writes the `api_keys` table. */
export class KeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Inserts a key unless the account already holds `maxActive` active keys; the count and
   * the insert happen under a per-account advisory lock, so concurrent creations cannot
   * overshoot the limit.
   * @returns the record, or undefined when the limit is reached.
   */
  async insertWithinLimit(
    key: { id: string; accountId: string; name: string; keyHash: string; prefix: string; tier: Tier; allowedDomains: readonly string[] },
    maxActive: number,
  ): Promise<KeyRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`api_keys:${key.accountId}`}))`.execute(trx)
      const { n } = await trx
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('account_id', '=', key.accountId)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow()
      if (Number(n) >= maxActive) return undefined
      const row = await trx
        .insertInto('api_keys')
        .values({
          id: key.id,
          account_id: key.accountId,
          name: key.name,
          key_hash: key.keyHash,
          prefix: key.prefix,
          tier: key.tier,
          allowed_domains: JSON.stringify(key.allowedDomains),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow()
      return toRecord(row)
    })
  }

  /** The key with this hash, revoked or not. */
  async findByHash(keyHash: string): Promise<KeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').select(COLUMNS).where('key_hash', '=', keyHash).executeTakeFirst()
    return row === undefined ? undefined : toRecord(row)
  }

  /** The key with this id, revoked or not. */
  async findById(id: string): Promise<KeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').select(COLUMNS).where('id', '=', id).executeTakeFirst()
    return row === undefined ? undefined : toRecord(row)
  }

  /** Active keys of an account (or of every account), oldest first; revoked ones too when asked. */
  async list(accountId: string | undefined, options: { includeRevoked: boolean }): Promise<KeyRecord[]> {
    let query = this.db.selectFrom('api_keys').select(COLUMNS)
    if (!options.includeRevoked) query = query.where('revoked_at', 'is', null)
    if (accountId !== undefined) query = query.where('account_id', '=', accountId)
    const rows = await query.orderBy('created_at').orderBy('id').execute()
    return rows.map(toRecord)
  }

  /** Keys changed at or after `since` (database clock), for the verification caches of every instance. */
  async changedSince(since: Date): Promise<KeyRecord[]> {
    const rows = await this.db.selectFrom('api_keys').select(COLUMNS).where('updated_at', '>=', since).execute()
    return rows.map(toRecord)
  }

  /** The database's clock, so that change polling never depends on this host's clock. */
  async now(): Promise<Date> {
    const { rows } = await sql<{ now: Date }>`select now() as now`.execute(this.db)
    return new Date(rows[0]?.now ?? Date.now())
  }

  /**
   * Revokes an active key of an account (or of any account when `accountId` is undefined).
   * @returns the revoked record, or undefined when no such active key exists.
   */
  async revoke(id: string, accountId: string | undefined): Promise<KeyRecord | undefined> {
    let query = this.db
      .updateTable('api_keys')
      .set({ revoked_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
    if (accountId !== undefined) query = query.where('account_id', '=', accountId)
    const row = await query.returning(COLUMNS).executeTakeFirst()
    return row === undefined ? undefined : toRecord(row)
  }

  /**
   * Renames an active key of an account and/or replaces its allowed domains (undefined: unchanged).
   * @returns the record, or undefined when the account holds no such active key.
   */
  async update(
    id: string,
    accountId: string,
    changes: { name: string | undefined; allowedDomains: readonly string[] | undefined },
  ): Promise<KeyRecord | undefined> {
    const row = await this.db
      .updateTable('api_keys')
      .set({
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.allowedDomains === undefined ? {} : { allowed_domains: JSON.stringify(changes.allowedDomains) }),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .returning(COLUMNS)
      .executeTakeFirst()
    return row === undefined ? undefined : toRecord(row)
  }

  /** Changes the tier of an active key. */
  async setTier(id: string, tier: Tier): Promise<KeyRecord | undefined> {
    const row = await this.db
      .updateTable('api_keys')
      .set({ tier, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning(COLUMNS)
      .executeTakeFirst()
    return row === undefined ? undefined : toRecord(row)
  }
}
