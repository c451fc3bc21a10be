/** Pages for what went wrong: the 404 for a path that names nothing, a 429, and the problem-type pages. */
import { html, type SafeHtml } from '../html.js'
import type { PageMeta } from '../layout.js'

/** The 404 page: says what was not found and offers a search. */
export function notFoundPage(path: string): { meta: PageMeta; body: SafeHtml } {
  return {
    meta: { title: 'Page not found', description: 'No verse, chapter, book or narrative is at this address.', path, noindex: true },
    body: html`<h1>Page not found</h1>
      <p>
        Nothing is at <code>${path.slice(0, 200)}</code>: no verse, chapter, book or narrative has this address. Verse pages look like
        <a href="/john/3/16">/john/3/16</a>, chapters like <a href="/psalms/23">/psalms/23</a>, books like <a href="/genesis">/genesis</a>.
      </p>
      <form class="search" role="search" aria-label="Search again" action="/search" method="get">
        <label for="not-found-search">Search scripture</label>
        <input id="not-found-search" type="search" name="q" />
        <button type="submit">Search</button>
      </form>
      <p><a href="/">Home</a> · <a href="/narratives">Gospel narratives</a></p>`,
  }
}

/** A problem as a page: its title, status and what it means (problem types, and errors on page routes). */
export function problemPage(
  problem: { readonly title: string; readonly status: number; readonly code: string; readonly detail: string },
  path: string,
): { meta: PageMeta; body: SafeHtml } {
  return {
    meta: { title: problem.title, description: problem.detail, path, noindex: problem.status >= 400 },
    body: html`<h1>${problem.title}</h1>
      <p class="meta">HTTP status ${problem.status}; code <code>${problem.code}</code>.</p>
      <p>${problem.detail}</p>
      <p><a href="/">Home</a> · <a href="/docs">API reference</a></p>`,
  }
}
