/**
 * The rules of API keys: creation (format, limits, domains), listing, revocation, tiers.
 * Used by the HTTP routes and the operator CLI alike.
 */
import { randomUUID } from 'node:crypto'
import { isTier, TIERS, type QuotaConfig, type Tier } from '../config.js'
import { AppError } from '../errors.js'
import { normalisePattern } from './domains.js'
import { displayPrefix, generateKey, hashKey } from './key-format.js'
import type { KeyVerifier } from './key-verifier.js'
import type { KeyRecord, KeysRepository } from './keys.repository.js'

/** A newly created key: the only time the full key is available. */
export interface CreatedKey {
  readonly record: KeyRecord
  readonly key: string
}

/** Input of key creation, as received (validated here). */
export interface CreateKeyInput {
  readonly accountId: string
  readonly name: string
  readonly allowedDomains?: readonly string[]
  readonly tier?: Tier
}

/** Changes to a key, as received (validated here); absent fields stay as they are. */
export interface UpdateKeyInput {
  readonly name?: string
  readonly allowedDomains?: readonly string[]
}

/**
 * A key name, trimmed: 1 to 100 characters, no control characters.
 * @throws AppError invalid_parameter.
 */
function normaliseName(raw: string): string {
  const name = raw.trim()
  if (name.length < 1 || name.length > 100) {
    throw new AppError('invalid_parameter', 'name must be 1 to 100 characters after trimming.', {
      errors: [{ location: 'body/name', message: 'must be 1 to 100 characters after trimming' }],
    })
  }
  // Control characters (NUL above all, which PostgreSQL text cannot hold) have no place in a name.
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw new AppError('invalid_parameter', 'name must not contain control characters.', {
      errors: [{ location: 'body/name', message: 'must not contain control characters' }],
    })
  }
  return name
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const MAX_DOMAINS = 50

/** Key management. */
export class KeysService {
  constructor(
    private readonly repository: KeysRepository,
    private readonly verifier: KeyVerifier,
    private readonly quotas: QuotaConfig,
    private readonly newKey: () => string = generateKey,
  ) {}

  /**
   * Creates a key for an account.
   * @throws AppError invalid_parameter (name, domains) or key_limit_reached.
   */
  async create(input: CreateKeyInput): Promise<CreatedKey> {
    const name = normaliseName(input.name)
    if (input.tier !== undefined && !isTier(input.tier)) {
      throw new AppError('invalid_parameter', `tier must be one of ${TIERS.join(', ')}.`)
    }
    const domains = this.normaliseDomains(input.allowedDomains ?? [])
    const key = this.newKey()
    const record = await this.repository.insertWithinLimit(
      {
        id: randomUUID(),
        accountId: input.accountId,
        name,
        keyHash: hashKey(key),
        prefix: displayPrefix(key),
        tier: input.tier ?? 'free',
        allowedDomains: domains,
      },
      this.quotas.maxKeysPerAccount,
    )
    if (record === undefined) {
      throw new AppError('key_limit_reached', `This account already has ${this.quotas.maxKeysPerAccount} active keys; revoke one before creating another.`)
    }
    // Usable at once on this instance; other instances pick it up at their next poll.
    this.verifier.noteChanged(record)
    return { record, key }
  }

  /**
   * Renames a key and/or replaces its allowed domains, with the rules of creation.
   * @throws AppError invalid_parameter, or key_not_found for an unknown id, another account's key or a revoked one.
   */
  async update(id: string, accountId: string, changes: UpdateKeyInput): Promise<KeyRecord> {
    const name = changes.name === undefined ? undefined : normaliseName(changes.name)
    const allowedDomains = changes.allowedDomains === undefined ? undefined : this.normaliseDomains(changes.allowedDomains)
    const record = UUID.test(id) ? await this.repository.update(id.toLowerCase(), accountId, { name, allowedDomains }) : undefined
    if (record === undefined) throw new AppError('key_not_found', 'No active key with this id belongs to this account.')
    // The domain restriction applies at once here; other instances pick it up at their next poll.
    this.verifier.noteChanged(record)
    return record
  }

  /** Active keys of an account, or of every account for the operator. */
  list(accountId: string | undefined): Promise<KeyRecord[]> {
    return this.repository.list(accountId, { includeRevoked: false })
  }

  /** Every key of an account (or of every account), revoked ones included, for usage reports. */
  listWithRevoked(accountId: string | undefined): Promise<KeyRecord[]> {
    return this.repository.list(accountId, { includeRevoked: true })
  }

  /**
   * Revokes a key; it stops working on this instance at once.
   * @throws AppError key_not_found for an unknown id, another account's key or one already revoked.
   */
  async revoke(id: string, accountId: string | undefined): Promise<KeyRecord> {
    const record = UUID.test(id) ? await this.repository.revoke(id.toLowerCase(), accountId) : undefined
    if (record === undefined) throw new AppError('key_not_found', 'No active key with this id belongs to this account.')
    this.verifier.noteChanged(record)
    return record
  }

  /**
   * Changes a key's tier (operator only).
   * @throws AppError key_not_found or invalid_parameter.
   */
  async setTier(id: string, tier: string): Promise<KeyRecord> {
    if (!isTier(tier)) {
      throw new AppError('invalid_parameter', `tier must be one of ${TIERS.join(', ')} (got ${JSON.stringify(tier.slice(0, 40))}).`)
    }
    const record = UUID.test(id) ? await this.repository.setTier(id.toLowerCase(), tier) : undefined
    if (record === undefined) throw new AppError('key_not_found', 'No active key with this id.')
    this.verifier.noteChanged(record)
    return record
  }

  private normaliseDomains(patterns: readonly string[]): string[] {
    if (patterns.length > MAX_DOMAINS) {
      throw new AppError('invalid_parameter', `allowed_domains may hold at most ${MAX_DOMAINS} patterns.`)
    }
    const errors = patterns.flatMap((pattern, i) =>
      normalisePattern(pattern) === undefined
        ? [{ location: `body/allowed_domains/${i}`, message: `${JSON.stringify(pattern.slice(0, 100))} is not a host name or *.host pattern` }]
        : [],
    )
    if (errors.length > 0) throw new AppError('invalid_parameter', errors.map((e) => `${e.location} ${e.message}`).join('; '), { errors })
    return [...new Set(patterns.map((p) => normalisePattern(p) as string))]
  }
}
