/** The shell every public page shares: head (title, description, canonical, Open Graph, Twitter, JSON-LD), header with search, footer. */
import { html, jsonLd, type SafeHtml } from './html.js'

/** What the site shell needs from configuration. */
export interface SiteSettings {
  /** PUBLIC_BASE_URL without a trailing slash. */
  readonly baseUrl: string
  /** The service's name (ATTRIBUTION_SOURCE). */
  readonly name: string
  /** ATTRIBUTION_LICENSE. */
  readonly license: string
}

/** One page's description for people, crawlers and link previews. */
export interface PageMeta {
  /** The page's own title; the site name is added. */
  readonly title: string
  /** One or two sentences for search results and previews. */
  readonly description: string
  /** The canonical path, e.g. `/john/3/16`. */
  readonly path: string
  readonly ogType?: 'website' | 'article'
  /** Structured data (schema.org) describing the page. */
  readonly structuredData?: unknown
  /** The search box's current query. */
  readonly query?: string
  /** A wider main column (the synopsis view). */
  readonly wide?: boolean
  /** Pages that are not content (404, 429) are kept out of search engines. */
  readonly noindex?: boolean
}

/** Cuts a description to about 160 characters at a word boundary. */
export function describe(text: string): string {
  if (text.length <= 160) return text
  const cut = text.slice(0, 157)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 100))}…`
}

/**
 * The whole document for a page.
 * @example renderPage(site, { title: 'John 3:16', description: '…', path: '/john/3/16' }, html`<h1>John 3:16</h1>`)
 */
export function renderPage(site: SiteSettings, meta: PageMeta, body: SafeHtml): string {
  const url = `${site.baseUrl}${meta.path}`
  const title = meta.path === '/' ? site.name : `${meta.title} · ${site.name}`
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <meta name="description" content="${meta.description}" />
        ${meta.noindex === true ? html`<meta name="robots" content="noindex" />` : ''}
        <link rel="canonical" href="${url}" />
        <meta property="og:type" content="${meta.ogType ?? 'website'}" />
        <meta property="og:site_name" content="${site.name}" />
        <meta property="og:title" content="${meta.title}" />
        <meta property="og:description" content="${meta.description}" />
        <meta property="og:url" content="${url}" />
        <meta name="twitter:card" content="summary" />
        <meta name="twitter:title" content="${meta.title}" />
        <meta name="twitter:description" content="${meta.description}" />
        <meta name="color-scheme" content="light dark" />
        <link rel="icon" href="/logo.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/site.css" />
        ${meta.structuredData === undefined ? '' : jsonLd(meta.structuredData)}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="site">
          <div class="inner">
            <nav aria-label="Site"><a class="brand" href="/">${site.name}</a> <a href="/narratives">Narratives</a> <a href="/docs">API reference</a></nav>
            <form class="search" role="search" aria-label="Site search" action="/search" method="get">
              <label for="site-search" class="visually-hidden">Search scripture</label>
              <input id="site-search" type="search" name="q" value="${meta.query ?? ''}" placeholder="Search scripture" />
              <button type="submit">Search</button>
            </form>
          </div>
        </header>
        <main id="main" ${meta.wide === true ? html` class="wide"` : ''}>${body}</main>
        <footer class="site">
          <div class="inner">
            <p>${site.license}</p>
            <nav aria-label="Footer">
              <a href="/docs">API reference</a> · <a href="/llms.txt">llms.txt</a> · <a href="/terms">Terms</a> ·
              <a href="/.well-known/mcp/server-card.json">MCP server card</a>
            </nav>
          </div>
        </footer>
      </body>
    </html> `.markup
}
