/** The tiers as configured, one table for the home page and the dashboard. */
import { TIERS, type Tier } from '../config.js'
import { html, type SafeHtml } from './html.js'

/** What a tier allows: queries a month and requests a second (0 means unlimited). */
export interface TierLimits {
  readonly monthly: Readonly<Record<Tier, number>>
  readonly perSecond: Readonly<Record<Tier, number>>
}

/** The table of every tier with its monthly quota and its per-second limit. */
export function tiersTable(limits: TierLimits): SafeHtml {
  return html`<table>
    <caption class="visually-hidden">
      Tiers and their limits
    </caption>
    <thead>
      <tr>
        <th scope="col">Tier</th>
        <th scope="col">Queries a month</th>
        <th scope="col">Requests a second</th>
      </tr>
    </thead>
    <tbody>
      ${TIERS.map(
        (tier) =>
          html`<tr>
            <td>${tier}</td>
            <td>${limits.monthly[tier].toLocaleString('en-US')}</td>
            <td>${limits.perSecond[tier] === 0 ? 'unlimited' : limits.perSecond[tier].toLocaleString('en-US')}</td>
          </tr>`,
      )}
    </tbody>
  </table>`
}
