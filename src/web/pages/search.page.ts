/** `/search?q=`: results of the search service, highlighted, a page at a time. */
import type { SearchResults } from '../../search/search.service.js'
import { html, SafeHtml } from '../html.js'
import type { PageMeta } from '../layout.js'

const FIELD_NAMES: Readonly<Record<string, string>> = { kjv: 'KJV', faithful: 'Faithful', casual: 'Casual' }

/**
 * A snippet as the search service writes it: its own text escaped, matches in `<mark>`. Only
 * those two tags are let through; everything else is escaped again.
 */
function snippetHtml(snippet: string): SafeHtml {
  const parts = snippet.split(/(<mark>|<\/mark>)/)
  return new SafeHtml(
    parts
      .map((part) =>
        part === '<mark>' || part === '</mark>'
          ? part
          : part
              .replace(/&(?!(?:amp|lt|gt);)/g, '&amp;')
              .replace(/</g, '&lt;')
              .replace(/>/g, '&gt;'),
      )
      .join(''),
  )
}

/** The search page: the form, then the results (or a prompt when there is no query). */
export function searchPage(q: string, results: SearchResults | undefined, cursor: string | undefined): { meta: PageMeta; body: SafeHtml } {
  const body =
    results === undefined
      ? html`<h1>Search scripture</h1>
          <p>Search the King James Version and its modern-English texts: words, phrases in quotes, or a reference such as John 3:16.</p>`
      : html`<h1>Search results for “${q}”</h1>
          <p class="meta">
            ${results.total.toLocaleString('en-US')} verse${results.total === 1 ? '' : 's'} found${cursor === undefined ? '' : ' (a later page)'}.
          </p>
          ${
            results.data.length === 0
              ? html`<p>No verse matches. Try fewer or other words.</p>`
              : html`<ol class="results">
                  ${results.data.map(
                    (hit) =>
                      html`<li>
                        <a href="${new URL(hit.attribution.url).pathname}">${hit.reference}</a
                        >${hit.snippets.map((s) => html`<br /><span class="meta">${FIELD_NAMES[s.field]}:</span> ${snippetHtml(s.text)}`)}
                      </li>`,
                  )}
                </ol>`
          }
          ${results.next_cursor === null || results.next_cursor === undefined ? '' : html`<nav class="pager" aria-label="Results"><span></span><a href="/search?${new URLSearchParams({ q, cursor: results.next_cursor }).toString()}" rel="next">More results →</a></nav>`}`
  return {
    meta: {
      title: results === undefined ? 'Search scripture' : `Search: ${q}`,
      description: 'Search the King James Version and its faithful and casual modern-English texts.',
      path: '/search',
      query: q,
      noindex: results !== undefined,
    },
    body,
  }
}
