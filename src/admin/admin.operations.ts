/**
 * What the operator can do from the command line, as one interface with two
 * implementations: in-process (the CLI opens the database and builds the same services the
 * server uses) and remote (the CLI asks the running server over its admin socket, because
 * the embedded PGlite admits one process at a time).
 */
import { request } from 'node:http'
import type { components } from '../../generated/api-types.js'
import type { QuotaConfig, Tier } from '../config.js'
import { AppError, type ErrorCode, type Problem } from '../errors.js'
import type { Clock } from '../infra/clock.js'
import { keyView } from '../keys/key-view.js'
import type { KeyRecord } from '../keys/keys.repository.js'
import type { Services } from '../services.js'
import { accountUsage, type AccountUsage } from '../usage/usage.report.js'

export type { AccountUsage }
export type CreatedKey = components['schemas']['CreatedKey']
export type KeyView = Omit<CreatedKey, 'key'> & { readonly account_id: string }

/** The operator's operations. */
export interface AdminOperations {
  createKey(input: { name: string; account: string; tier: Tier }): Promise<CreatedKey & { account_id: string }>
  listKeys(account: string | undefined): Promise<KeyView[]>
  revokeKey(id: string): Promise<KeyView>
  setTier(id: string, tier: string): Promise<KeyView>
  usage(account: string | undefined): Promise<AccountUsage>
}

/** Operations on in-process services (the server's admin socket and the CLI without a server). */
export function localOperations(services: Services, quotas: Pick<QuotaConfig, 'monthly'>, clock: Clock): AdminOperations {
  const view = (record: KeyRecord): KeyView => ({ ...keyView(record, quotas), account_id: record.accountId })
  return {
    async createKey({ name, account, tier }) {
      const { record, key } = await services.keys.create({ accountId: account, name, tier })
      return { ...view(record), key }
    },
    async listKeys(account) {
      // JSON carries "no account" as null.
      return (await services.keys.list(account ?? undefined)).map(view)
    },
    async revokeKey(id) {
      return view(await services.keys.revoke(id, undefined))
    },
    async setTier(id, tier) {
      return view(await services.keys.setTier(id, tier))
    },
    async usage(account) {
      await services.usage.flush()
      return accountUsage({ usage: services.usage, keys: services.keys, quotaConfig: quotas, clock }, account ?? undefined)
    },
  }
}

/** The admin socket's single endpoint: `POST /admin` with `{ op, args }`, answered with `{ result }` or a problem. */
export interface AdminRequest {
  readonly op: keyof AdminOperations
  readonly args: readonly unknown[]
}

/** Operations forwarded to a running server over its Unix socket, authenticated by the token in DATA_DIR. */
export function remoteOperations(socketPath: string, token: string): AdminOperations {
  const send = (op: keyof AdminOperations, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ op, args })
      const req = request(
        {
          socketPath,
          path: '/admin',
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = ''
          res
            .setEncoding('utf8')
            .on('data', (chunk: string) => (text += chunk))
            .on('end', () => {
              try {
                const parsed = JSON.parse(text) as { result?: unknown } & Partial<Problem>
                if (res.statusCode === 200) resolve(parsed.result)
                else reject(new AppError((parsed.code ?? 'internal_error') as ErrorCode, parsed.detail ?? `admin socket answered ${res.statusCode}`))
              } catch (error) {
                reject(error)
              }
            })
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  return {
    createKey: (input) => send('createKey', [input]) as ReturnType<AdminOperations['createKey']>,
    listKeys: (account) => send('listKeys', [account]) as ReturnType<AdminOperations['listKeys']>,
    revokeKey: (id) => send('revokeKey', [id]) as ReturnType<AdminOperations['revokeKey']>,
    setTier: (id, tier) => send('setTier', [id, tier]) as ReturnType<AdminOperations['setTier']>,
    usage: (account) => send('usage', [account]) as ReturnType<AdminOperations['usage']>,
  }
}
