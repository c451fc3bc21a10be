/** `/{book}/{chapter}/{verse}`: one verse with everything the API knows about it. */
import type { VerseResource } from '../../verses/verses.service.js'
import { html, type SafeHtml } from '../html.js'
import { describe, type PageMeta } from '../layout.js'
import { provenanceInWords } from './provenance.js'

/** A neighbouring verse or chapter. */
export interface PageLink {
  readonly path: string
  readonly label: string
}

/** What the verse page shows. */
export interface VersePageView {
  readonly verse: VerseResource
  readonly path: string
  readonly bookName: string
  readonly bookPath: string
  readonly chapterPath: string
  readonly chapterLabel: string
  /** The narrative's parallels in the other Gospels, when the verse is in one. */
  readonly parallels: readonly PageLink[]
  readonly previous: PageLink | undefined
  readonly next: PageLink | undefined
  readonly baseUrl: string
}

function field(label: string, value: string | null): SafeHtml {
  return html`<dt>${label}</dt>
    <dd>${value ?? html`<span class="note">Not written for this verse yet.</span>`}</dd>`
}

/** The verse page's metadata and body. */
export function versePage(view: VersePageView): { meta: PageMeta; body: SafeHtml } {
  const { verse } = view
  const faithful = verse.faithful
  const casual = verse.casual
  const hasNotes = faithful !== undefined && faithful.bottom_line !== null
  const apiUrl = `${view.baseUrl}/api/v1/verse/${verse.slug}`
  const mcpCall = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_verse', arguments: { reference: verse.slug } } }, null, 2)
  const body = html`<nav class="crumbs" aria-label="Breadcrumb">
      <a href="${view.bookPath}">${view.bookName}</a> › <a href="${view.chapterPath}">${view.chapterLabel}</a> › ${verse.reference}
    </nav>
    <h1>${verse.reference}</h1>
    <p class="meta">
      Section: <a href="${view.chapterPath}#${verse.section.slug}">${verse.section.title}</a>${
        verse.narrative === undefined
          ? ''
          : html` · Narrative: <a href="/narratives/${verse.narrative.slug}">${verse.narrative.title}</a>${
                view.parallels.length === 0
                  ? ''
                  : html` (parallels: ${view.parallels.map((p, i) => html`${i === 0 ? '' : ', '}<a href="${p.path}">${p.label}</a>`)})`
              }`
      }
    </p>
    <h2>King James Version</h2>
    <blockquote class="kjv"><p>${verse.kjv_text}</p></blockquote>
    <section aria-labelledby="faithful-heading">
      <h2 id="faithful-heading">Faithful modern English</h2>
      ${
        faithful === undefined || faithful.simplified_text === null || faithful.provenance === null
          ? html`<p class="note">No faithful text exists for this verse yet.</p>`
          : html`<p>${faithful.simplified_text}</p>
              ${
                hasNotes
                  ? html`<dl class="fields">
                      ${field('Bottom line', faithful.bottom_line)}${field('Historical context', faithful.historical_context)}${field('Practical reflection', faithful.practical_reflection)}
                    </dl>`
                  : html`<p class="note">No bottom line, historical context or practical reflection has been written for this verse yet.</p>`
              }
              <p class="meta">How this text was made: ${provenanceInWords(faithful.provenance)}</p>`
      }
    </section>
    <section aria-labelledby="casual-heading">
      <h2 id="casual-heading">Casual retelling</h2>
      ${
        casual === undefined || casual.simplified_text === null || casual.provenance === null
          ? html`<p class="note">No casual retelling has been written for this verse yet.</p>`
          : html`<p>${casual.simplified_text}</p>
              <dl class="fields">${field('Bottom line', casual.bottom_line)}</dl>
              <p class="meta">How this text was made: ${provenanceInWords(casual.provenance)}</p>`
      }
    </section>
    <nav class="pager" aria-label="Verses">
      ${view.previous === undefined ? html`<span></span>` : html`<a href="${view.previous.path}" rel="prev">← ${view.previous.label}</a>`}
      ${view.next === undefined ? html`<span></span>` : html`<a href="${view.next.path}" rel="next">${view.next.label} →</a>`}
    </nav>
    <section aria-labelledby="use-heading">
      <h2 id="use-heading">Use this verse in your app</h2>
      <p>With an API key (<a href="/docs">API reference</a>):</p>
      <pre tabindex="0"><code>curl -H "X-API-Key: $PLAINVERSE_KEY" ${apiUrl}</code></pre>
      <p>From an AI assistant, through the MCP endpoint <code>${view.baseUrl}/mcp</code>:</p>
      <pre tabindex="0"><code>${mcpCall}</code></pre>
    </section>
    <section aria-labelledby="attribution-heading">
      <h2 id="attribution-heading">Attribution and licence</h2>
      <p>Source: ${verse.attribution.source}. This page: <a href="${verse.attribution.url}">${verse.attribution.url}</a>.</p>
      <p>${verse.attribution.license}</p>
    </section>`
  const summary = faithful?.bottom_line ?? verse.kjv_text
  return {
    meta: {
      title: `${verse.reference} (KJV) in modern English`,
      description: describe(`${verse.reference}: ${verse.kjv_text} ${summary === verse.kjv_text ? '' : summary}`.trim()),
      path: view.path,
      ogType: 'article',
      structuredData: {
        '@context': 'https://schema.org',
        '@type': 'WebPage',
        name: `${verse.reference} (KJV)`,
        url: `${view.baseUrl}${view.path}`,
        mainEntity: {
          '@type': 'Quotation',
          text: verse.kjv_text,
          isPartOf: { '@type': 'Book', name: `${view.bookName} (King James Version)` },
        },
        breadcrumb: {
          '@type': 'BreadcrumbList',
          itemListElement: [
            { '@type': 'ListItem', position: 1, name: view.bookName, item: `${view.baseUrl}${view.bookPath}` },
            { '@type': 'ListItem', position: 2, name: view.chapterLabel, item: `${view.baseUrl}${view.chapterPath}` },
            { '@type': 'ListItem', position: 3, name: verse.reference, item: `${view.baseUrl}${view.path}` },
          ],
        },
      },
    },
    body,
  }
}
