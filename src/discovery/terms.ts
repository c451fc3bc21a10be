/** `/terms`: the usage terms page, written from configuration so it states what the server enforces. */
import { type DiscoveryContext, urlOf } from './discovery.context.js'

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/**
 * Builds the terms page: attribution and licence (ATTRIBUTION_SOURCE, ATTRIBUTION_LICENSE),
 * the monthly quota of each tier (QUOTA_*), and the contact for bulk and enterprise use
 * (CONTACT_EMAIL).
 * @example buildTermsHtml(context).includes('<h1>') // true
 */
export function buildTermsHtml(context: DiscoveryContext): string {
  const { settings, serviceName } = context
  const name = escapeHtml(serviceName)
  const email = escapeHtml(settings.contactEmail)
  const tiers = Object.entries(settings.quotas)
    .map(([tier, allowance]) => `<tr><td>${escapeHtml(tier)}</td><td>${allowance.toLocaleString('en-US')}</td></tr>`)
    .join('')
  const link = (id: string, text: string): string => `<a href="${escapeHtml(urlOf(context, id))}">${escapeHtml(text)}</a>`
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${name} usage terms</title></head>
<body>
<h1>${name} usage terms</h1>
<h2>Content and licence</h2>
<p>${escapeHtml(settings.attributionLicense)}</p>
<h2>Attribution</h2>
<p>Every verse the API returns carries an <code>attribution</code> object: the source (<q>${escapeHtml(settings.attributionSource)}</q>), the verse's public URL and the licence above. Cite the source and the URL with what you quote.</p>
<h2>Keys and quotas</h2>
<p>Every request for scripture needs an API key. Each key may make this many queries per calendar month (UTC), by tier; an exhausted quota is answered with <code>429 quota_exceeded</code> until the next month begins.</p>
<table><thead><tr><th>tier</th><th>queries a month</th></tr></thead><tbody>${tiers}</tbody></table>
<h2>Bulk data and enterprise use</h2>
<p>Bulk data and enterprise use are licensed separately through sales contact: <a href="mailto:${email}">${email}</a>.</p>
<h2>More</h2>
<p>${link('getDocs', 'API documentation')} · ${link('getLlmsTxt', 'llms.txt')} · ${link('getLlmsFullTxt', 'llms-full.txt')}</p>
</body>
</html>
`
}
