/** `/narratives` (the list, filtered by Gospel and title words) and `/narratives/{slug}` (the synopsis view). */
import type { Narrative, NarrativeList } from '../../narratives/narratives.service.js'
import { html, type SafeHtml } from '../html.js'
import { describe, type PageMeta } from '../layout.js'
import { provenanceInWords } from './provenance.js'

export const GOSPELS = ['matthew', 'mark', 'luke', 'john'] as const
export type Gospel = (typeof GOSPELS)[number]
const GOSPEL_NAMES: Readonly<Record<Gospel, string>> = { matthew: 'Matthew', mark: 'Mark', luke: 'Luke', john: 'John' }

/** The list page: every narrative that matches, grouped by Gospel. */
export function narrativesPage(list: NarrativeList, filter: { gospel?: Gospel; q?: string }, baseUrl: string): { meta: PageMeta; body: SafeHtml } {
  const groups = GOSPELS.filter((g) => filter.gospel === undefined || filter.gospel === g).map((gospel) => ({
    gospel,
    items: list.data.filter((n) => n.gospel === gospel),
  }))
  const filtered = filter.gospel !== undefined || (filter.q ?? '') !== ''
  const body = html`<h1>Gospel narratives</h1>
    <p>
      The four Gospels cut into ${list.total === 548 && !filtered ? '548' : 'their'} narrative units, each linked to the same event or teaching in the other
      Gospels.
    </p>
    <form class="search" method="get" action="/narratives" aria-label="Filter narratives">
      <label for="narrative-gospel">Gospel</label>
      <select id="narrative-gospel" name="gospel">
        <option value="">All four</option>
        ${GOSPELS.map((g) => html`<option value="${g}" ${filter.gospel === g ? html` selected` : ''}>${GOSPEL_NAMES[g]}</option>`)}
      </select>
      <label for="narrative-q">Title words</label>
      <input id="narrative-q" type="search" name="q" value="${filter.q ?? ''}" />
      <button type="submit">Filter</button>
    </form>
    <p class="meta">${list.total} narrative${list.total === 1 ? '' : 's'}${filtered ? html` match. <a href="/narratives">Show all</a>` : ''}.</p>
    ${groups.map((group) =>
      group.items.length === 0
        ? ''
        : html`<h2>${GOSPEL_NAMES[group.gospel]}</h2>
            <ol>
              ${group.items.map((n) => html`<li><a href="/narratives/${n.slug}">${n.title}</a> <span class="meta">${n.reference}${n.parallels.length === 0 ? '' : ` · ${n.parallels.length} parallel${n.parallels.length === 1 ? '' : 's'}`}</span></li>`)}
            </ol>`,
    )}`
  return {
    meta: {
      title: 'Gospel narratives',
      description: 'The 548 narrative units of Matthew, Mark, Luke and John, with their parallels side by side, in the KJV and in modern English.',
      path: filtered
        ? `/narratives?${new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '')).toString()}`
        : '/narratives',
      structuredData: { '@context': 'https://schema.org', '@type': 'CollectionPage', name: 'Gospel narratives', url: `${baseUrl}/narratives` },
    },
    body,
  }
}

function column(narrative: Narrative): SafeHtml {
  return html`<section aria-label="${narrative.reference}">
    <h3><a href="/narratives/${narrative.slug}">${narrative.reference}</a></h3>
    ${narrative.verses.map((v) => html`<p><a href="${new URL(v.attribution.url).pathname}">${v.reference.replace(/^.* /, '')}</a> ${v.kjv_text}</p>`)}
  </section>`
}

/** The narrative page: its content in both styles, then the synopsis: the narrative and its parallels in columns. */
export function narrativePage(narrative: Narrative, parallels: readonly Narrative[], baseUrl: string): { meta: PageMeta; body: SafeHtml } {
  const styles = [
    { name: 'Faithful', content: narrative.content.faithful },
    { name: 'Casual', content: narrative.content.casual },
  ]
  const body = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/narratives">Narratives</a> › ${GOSPEL_NAMES[narrative.gospel]}</nav>
    <h1>${narrative.title}</h1>
    <p class="meta">
      ${narrative.reference} · ${narrative.verse_count}
      verses${parallels.length === 0 ? ' · told only in this Gospel' : ` · told also in ${parallels.map((p) => p.reference).join('; ')}`}
    </p>
    ${styles.map(({ name, content }) =>
      content === undefined || content.summary === null || content.provenance === null
        ? html`<h2>${name} summary</h2>
            <p class="note">No ${name.toLowerCase()} summary has been written yet.</p>`
        : html`<h2>${name} summary</h2>
            <p>${content.summary}</p>
            <p><strong>Bottom line:</strong> ${content.bottom_line}</p>
            <p class="meta">How this text was made: ${provenanceInWords(content.provenance)}</p>`,
    )}
    <h2>${parallels.length === 0 ? 'The text' : 'Side by side'}</h2>
    <div class="synopsis">${column(narrative)}${parallels.map((p) => column(p))}</div>`
  return {
    meta: {
      title: `${narrative.title} (${narrative.reference})`,
      description: describe(narrative.content.faithful?.summary ?? `${narrative.title}, ${narrative.reference}, in the KJV and in modern English.`),
      path: `/narratives/${narrative.slug}`,
      ogType: 'article',
      wide: parallels.length > 0,
      structuredData: { '@context': 'https://schema.org', '@type': 'Article', headline: narrative.title, url: `${baseUrl}/narratives/${narrative.slug}` },
    },
    body,
  }
}
