/**
 * The dashboard's pages, in the public pages' layout and stylesheet. Every value is escaped
 * by the `html` template; forms post back here with the session's CSRF token; the only script
 * is /assets/dashboard.js (copy buttons), and every page works without it.
 */
import type { components } from '../../generated/api-types.js'
import { TIERS, type Tier } from '../config.js'
import { html, type SafeHtml } from '../web/html.js'
import { renderPage, type SiteSettings } from '../web/layout.js'
import { tiersTable } from '../web/tiers-table.js'
import { countsTable, dailyChart } from './dashboard.charts.js'

type KeySummary = components['schemas']['KeySummary']
type AccountUsage = components['schemas']['AccountUsage']
type OperatorAccounts = components['schemas']['OperatorAccounts']
type ServiceUsage = components['schemas']['ServiceUsage']

/** What every dashboard page knows about the service. */
export interface DashboardSettings {
  readonly site: SiteSettings
  readonly contactEmail: string
  readonly monthly: Readonly<Record<Tier, number>>
  readonly perSecond: Readonly<Record<Tier, number>>
  readonly maxKeysPerAccount: number
}

/** The signed-in person, as the pages show them. */
export interface Viewer {
  readonly accountId: string
  readonly email: string | undefined
  readonly operator: boolean
  readonly csrf: string
}

/** The account's page. */
export interface AccountView {
  readonly viewer: Viewer
  readonly keys: readonly KeySummary[]
  readonly usage: AccountUsage
  readonly notice?: string
  /** Right after creation: the full key, shown this once. */
  readonly created?: { readonly key: string; readonly name: string }
  /** A form value that was refused, with why. */
  readonly error?: string
}

const SCRIPT = html`<script src="/assets/dashboard.js" defer></script>`

function page(settings: DashboardSettings, title: string, path: string, body: SafeHtml, withScript = false): string {
  return renderPage(
    settings.site,
    { title, description: 'Manage your Plainverse API keys and see their usage.', path, noindex: true, wide: true },
    html`${body}${withScript ? SCRIPT : ''}`,
  )
}

function signOutForm(viewer: Viewer): SafeHtml {
  return html`<form class="inline" method="post" action="/dashboard/logout">
    <input type="hidden" name="csrf" value="${viewer.csrf}" /><button type="submit">Sign out</button>
  </form>`
}

function accountBar(viewer: Viewer): SafeHtml {
  return html`<div class="meta account">
    Signed in as <strong>${viewer.email ?? viewer.accountId}</strong>
    ${viewer.operator ? html` · <a href="/dashboard/operator">Operator view</a>` : ''} ${signOutForm(viewer)}
  </div>`
}

/** `1 key`, `2 keys`. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

/** Shown when OIDC_ISSUER and OIDC_CLIENT_ID are not set. */
export function notConfiguredPage(settings: DashboardSettings): string {
  const base = settings.site.baseUrl
  return page(
    settings,
    'Dashboard',
    '/dashboard',
    html`<h1>Dashboard</h1>
      <p>Sign-in is not configured on this server, so the dashboard cannot show your keys yet.</p>
      <h2>Configure sign-in</h2>
      <p>
        Register a client for the dashboard at your OpenID Connect provider (Supabase Auth, Auth0, Keycloak or any other) with the redirect URI
        <code>${base}/dashboard/callback</code>, then start the server with:
      </p>
      <pre><code>AUTH_JWKS_URL=&lt;the provider's jwks_uri&gt;
AUTH_ISSUER=&lt;the provider's issuer&gt;
AUTH_AUDIENCE=&lt;the audience of its access tokens&gt;
OIDC_ISSUER=&lt;the provider's issuer&gt;
OIDC_CLIENT_ID=&lt;the dashboard's client id&gt;</code></pre>
      <p>The README's "Dashboard" section has working settings for each provider and a local provider to try it with.</p>
      <h2>Meanwhile, create a key with the CLI</h2>
      <pre><code>KEY=$(npx plainverse keys create --name "My app" | head -n 1)
curl -s -H "X-API-Key: $KEY" ${base}/api/v1/verse/john-3-16</code></pre>
      ${tiersSection(settings)}`,
  )
}

/** Signed out, with a reason when there is one (an expired session, a refused sign-in). */
export function signedOutPage(settings: DashboardSettings, message: string | undefined): string {
  return page(
    settings,
    'Dashboard',
    '/dashboard',
    html`<h1>Dashboard</h1>
      ${message === undefined ? '' : html`<p class="notice" role="status">${message}</p>`}
      <p>Sign in to create API keys, see their usage this month and get your first request running.</p>
      <p><a class="button" href="/dashboard/login">Sign in</a></p>
      ${tiersSection(settings)}`,
  )
}

/** A failure the person can act on (a refused form value, an unreachable provider). */
export function problemPage(settings: DashboardSettings, title: string, message: string, next: { href: string; label: string }): string {
  return page(
    settings,
    title,
    '/dashboard',
    html`<h1>${title}</h1>
      <p class="notice" role="alert">${message}</p>
      <p><a href="${next.href}">${next.label}</a></p>`,
  )
}

function tiersSection(settings: DashboardSettings): SafeHtml {
  return html`<section aria-labelledby="tiers">
    <h2 id="tiers">Tiers and limits</h2>
    ${tiersTable(settings)}
    <p>
      New keys are on the free tier. To move a key to a higher tier, write to
      <a href="mailto:${settings.contactEmail}">${settings.contactEmail}</a> with the key's prefix (never the whole key) and what you are building.
    </p>
  </section>`
}

/** The curl for John 3:16 and the MCP client configuration, with the key when it is known. */
function firstRequest(settings: DashboardSettings, key: string | undefined): SafeHtml {
  const base = settings.site.baseUrl
  const value = key ?? 'YOUR_KEY'
  const curl = `curl -s -H "X-API-Key: ${value}" ${base}/api/v1/verse/john-3-16`
  const mcp = JSON.stringify({ mcpServers: { plainverse: { type: 'http', url: `${base}/mcp`, headers: { 'X-API-Key': value } } } }, null, 2)
  return html`<section aria-labelledby="first-request">
    <h2 id="first-request">Your first request</h2>
    ${key === undefined ? html`<p>Replace <code>YOUR_KEY</code> with a key (create one above; it is shown in full only once).</p>` : ''}
    <pre><code id="curl-john">${curl}</code></pre>
    <button type="button" class="copy" data-copy="curl-john" hidden>Copy the command</button>
    <h3>In an MCP client (Claude, Cursor, VS Code…)</h3>
    <pre><code id="mcp-config">${mcp}</code></pre>
    <button type="button" class="copy" data-copy="mcp-config" hidden>Copy the configuration</button>
  </section>`
}

function keysTable(keys: readonly KeySummary[]): SafeHtml {
  if (keys.length === 0) return html`<p>You have no keys yet.</p>`
  return html`<table class="keys">
    <caption class="visually-hidden">
      Your API keys
    </caption>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">Prefix</th>
        <th scope="col">Tier</th>
        <th scope="col">Monthly limit</th>
        <th scope="col">Used this month</th>
        <th scope="col">Allowed domains</th>
        <th scope="col">Created</th>
        <th scope="col">Last used</th>
        <th scope="col"><span class="visually-hidden">Actions</span></th>
      </tr>
    </thead>
    <tbody>
      ${keys.map(
        (k) =>
          html`<tr data-key-id="${k.id}">
            <td>${k.name}</td>
            <td><code>${k.prefix}…</code></td>
            <td>${k.tier}</td>
            <td>${k.rate_limit_monthly.toLocaleString('en-US')}</td>
            <td>
              <meter min="0" max="${k.rate_limit_monthly}" value="${k.usage.total_queries}" aria-label="${k.name}: queries used this month"></meter>
              <span class="used">${k.usage.total_queries}</span> of ${k.rate_limit_monthly}
            </td>
            <td>${k.allowed_domains.length === 0 ? html`<span class="meta">any</span>` : k.allowed_domains.join(', ')}</td>
            <td>${k.created_at.slice(0, 10)}</td>
            <td>${k.last_used_on ?? html`<span class="meta">never</span>`}</td>
            <td><a href="/dashboard/keys/${k.id}" aria-label="Settings of ${k.name}">Settings</a></td>
          </tr>`,
      )}
    </tbody>
  </table>`
}

function createForm(viewer: Viewer, error: string | undefined): SafeHtml {
  return html`<form class="stack" method="post" action="/dashboard/keys">
    <input type="hidden" name="csrf" value="${viewer.csrf}" />
    ${error === undefined ? '' : html`<p class="notice" role="alert" id="create-error">${error}</p>`}
    <label for="key-name">Name</label>
    <input id="key-name" name="name" required maxlength="100" autocomplete="off" />
    <label for="key-domains">Allowed domains <span class="meta">(optional; one per line, e.g. example.com or *.example.com)</span></label>
    <textarea id="key-domains" name="allowed_domains" rows="2"></textarea>
    <button type="submit">Create key</button>
  </form>`
}

function usageSection(usage: AccountUsage): SafeHtml {
  return html`<section aria-labelledby="usage">
    <h2 id="usage">Usage this month</h2>
    <p>
      <span id="total-queries">${usage.total_queries}</span> counted ${usage.total_queries === 1 ? 'query' : 'queries'} from ${usage.period_start.slice(0, 10)};
      the month resets on ${usage.period_end.slice(0, 10)} (UTC).
    </p>
    ${dailyChart('daily', 'Queries per day', usage.daily)}
    <div class="columns">
      ${countsTable('By endpoint', 'Endpoint', usage.by_endpoint, 'No queries yet.')} ${countsTable('By style', 'Style', usage.by_style, 'No queries yet.')}
    </div>
    <h3>MCP tool calls by AI client</h3>
    ${countsTable('MCP tool calls by AI client', 'AI client', usage.by_client, 'No MCP tool calls yet.')}
    <h3>Verses served most through MCP</h3>
    ${
      usage.top_verses.length === 0
        ? html`<p class="meta">None yet.</p>`
        : html`<ol>
            ${usage.top_verses.map((v) => html`<li><a href="/${v.slug.replace(/-(\d+)-(\d+)$/, '/$1/$2')}">${v.reference}</a>: ${v.queries}</li>`)}
          </ol>`
    }
  </section>`
}

/** The signed-in account's dashboard. */
export function accountPage(settings: DashboardSettings, view: AccountView): string {
  const created = view.created
  return page(
    settings,
    'Dashboard',
    '/dashboard',
    html`<h1>Dashboard</h1>
      ${accountBar(view.viewer)} ${view.notice === undefined ? '' : html`<p class="notice" role="status">${view.notice}</p>`}
      ${
        created === undefined
          ? ''
          : html`<section class="created" aria-labelledby="new-key">
              <h2 id="new-key">Your new key "${created.name}"</h2>
              <p class="warning">
                <strong>Copy this key now: it will not be shown again.</strong> Only a hash of it is stored; if you lose it, revoke it and create another.
              </p>
              <pre><code id="new-key-value">${created.key}</code></pre>
              <button type="button" class="copy" data-copy="new-key-value" hidden>Copy the key</button>
              <p role="status" class="copied" aria-live="polite"></p>
            </section>`
      }
      <section aria-labelledby="keys">
        <h2 id="keys">API keys</h2>
        ${keysTable(view.keys)}
        <h3>Create a key</h3>
        <p class="meta">Up to ${settings.maxKeysPerAccount} active keys per account.</p>
        ${createForm(view.viewer, view.error)}
      </section>
      ${firstRequest(settings, created?.key)} ${usageSection(view.usage)} ${tiersSection(settings)}`,
    true,
  )
}

/** One key's settings: rename, allowed domains, revoke with confirmation. */
export function keyPage(settings: DashboardSettings, viewer: Viewer, key: KeySummary, error?: string): string {
  return page(
    settings,
    `Key ${key.name}`,
    `/dashboard/keys/${key.id}`,
    html`<p class="crumbs"><a href="/dashboard">Dashboard</a></p>
      <h1>Key "${key.name}"</h1>
      ${accountBar(viewer)}
      <dl class="fields">
        <dt>Prefix</dt>
        <dd><code>${key.prefix}…</code></dd>
        <dt>Tier</dt>
        <dd>${key.tier} (${key.rate_limit_monthly.toLocaleString('en-US')} queries a month)</dd>
        <dt>Used this month</dt>
        <dd>${key.usage.total_queries}, ${key.usage.remaining} remaining</dd>
        <dt>Created</dt>
        <dd>${key.created_at.slice(0, 10)}</dd>
        <dt>Last used</dt>
        <dd>${key.last_used_on ?? 'never'}</dd>
      </dl>
      <h2>Settings</h2>
      <form class="stack" method="post" action="/dashboard/keys/${key.id}">
        <input type="hidden" name="csrf" value="${viewer.csrf}" />
        ${error === undefined ? '' : html`<p class="notice" role="alert" id="update-error">${error}</p>`}
        <label for="edit-name">Name</label>
        <input id="edit-name" name="name" required maxlength="100" value="${key.name}" autocomplete="off" />
        <label for="edit-domains">Allowed domains <span class="meta">(one per line; empty: any origin)</span></label>
        <textarea id="edit-domains" name="allowed_domains" rows="3">${key.allowed_domains.join('\n')}</textarea>
        <button type="submit">Save</button>
      </form>
      <h2>Revoke</h2>
      <form class="stack danger" method="post" action="/dashboard/keys/${key.id}/revoke">
        <input type="hidden" name="csrf" value="${viewer.csrf}" />
        <p>A revoked key stops working at once and cannot be restored.</p>
        <label><input type="checkbox" name="confirm" value="yes" required /> I understand that applications using "${key.name}" will stop working.</label>
        <button type="submit">Revoke this key</button>
      </form>`,
  )
}

const SORTS = [
  ['usage', 'most used'],
  ['account', 'account'],
  ['created', 'newest key'],
] as const

/** The operator's view. */
export function operatorPage(
  settings: DashboardSettings,
  viewer: Viewer,
  accounts: OperatorAccounts,
  service: ServiceUsage,
  sort: string,
  notice: string | undefined,
): string {
  return page(
    settings,
    'Operator',
    '/dashboard/operator',
    html`<p class="crumbs"><a href="/dashboard">Dashboard</a></p>
      <h1>Operator</h1>
      ${accountBar(viewer)} ${notice === undefined ? '' : html`<p class="notice" role="status">${notice}</p>`}
      <section aria-labelledby="service">
        <h2 id="service">The service this month</h2>
        <p>
          <span id="service-total">${service.total_queries}</span> counted ${service.total_queries === 1 ? 'query' : 'queries'};
          ${count(service.accounts, 'account', 'accounts')} with ${count(service.active_keys, 'active key', 'active keys')}.
        </p>
        ${dailyChart('service-daily', 'Queries per day, every key', service.daily)}
        <div class="columns">
          ${countsTable('By endpoint', 'Endpoint', service.by_endpoint, 'No queries yet.')}
          ${countsTable('By style', 'Style', service.by_style, 'No queries yet.')}
          ${countsTable('MCP tool calls by AI client', 'AI client', service.by_client, 'No MCP tool calls yet.')}
        </div>
      </section>
      <section aria-labelledby="accounts">
        <h2 id="accounts">Accounts and keys</h2>
        <p>
          Sort by:
          ${SORTS.map(([value, label]) =>
            value === sort ? html`<strong aria-current="true">${label}</strong> ` : html`<a href="/dashboard/operator?sort=${value}">${label}</a> `,
          )}
        </p>
        <table class="keys">
          <caption class="visually-hidden">
            Every account's keys with this month's usage
          </caption>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Key</th>
              <th scope="col">Used / limit</th>
              <th scope="col">Tier</th>
              <th scope="col">Revoke</th>
            </tr>
          </thead>
          <tbody>
            ${accounts.data.map((account) =>
              account.keys.map(
                (k) =>
                  html`<tr data-key-id="${k.id}">
                    <td>${account.account_id} <span class="meta">(${account.total_queries} queries)</span></td>
                    <td>${k.name} <code>${k.prefix}…</code>${k.revoked_at === null ? '' : html` <span class="meta">revoked</span>`}</td>
                    <td>${k.total_queries} / ${k.limit}</td>
                    <td>
                      ${
                        k.revoked_at !== null
                          ? k.tier
                          : html`<form class="inline" method="post" action="/dashboard/operator/keys/${k.id}">
                              <input type="hidden" name="csrf" value="${viewer.csrf}" /><input type="hidden" name="action" value="tier" />
                              <label class="visually-hidden" for="tier-${k.id}">Tier of ${k.name}</label>
                              <select id="tier-${k.id}" name="tier">
                                ${TIERS.map((tier) => html`<option value="${tier}" ${tier === k.tier ? html`selected` : ''}>${tier}</option>`)}
                              </select>
                              <button type="submit">Set tier</button>
                            </form>`
                      }
                    </td>
                    <td>
                      ${
                        k.revoked_at !== null
                          ? ''
                          : html`<form class="inline" method="post" action="/dashboard/operator/keys/${k.id}">
                              <input type="hidden" name="csrf" value="${viewer.csrf}" /><input type="hidden" name="action" value="revoke" />
                              <label><input type="checkbox" name="confirm" value="yes" required /> confirm</label>
                              <button type="submit">Revoke</button>
                            </form>`
                      }
                    </td>
                  </tr>`,
              ),
            )}
          </tbody>
        </table>
      </section>`,
  )
}
