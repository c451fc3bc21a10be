/** Sitemaps (sitemaps.org 0.9): one sitemap of at most 50,000 URLs, and the index that lists sitemaps. */

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

/** One URL of a sitemap, or one sitemap of an index. */
export interface SitemapEntry {
  /** Absolute URL. */
  readonly loc: string
  /** W3C date (YYYY-MM-DD) of the last change. */
  readonly lastmod?: string
}

/** The most URLs one sitemap may hold. */
export const SITEMAP_MAX_URLS = 50_000

function entryXml(tag: 'url' | 'sitemap', entry: SitemapEntry): string {
  return `  <${tag}><loc>${escapeXml(entry.loc)}</loc>${entry.lastmod === undefined ? '' : `<lastmod>${entry.lastmod}</lastmod>`}</${tag}>`
}

/**
 * The sitemap of the given pages, in order.
 * @example buildSitemap([{ loc: 'https://api.example.org/john/3/16' }]).includes('<loc>https://api.example.org/john/3/16</loc>') // true
 */
export function buildSitemap(pages: readonly SitemapEntry[]): string {
  if (pages.length > SITEMAP_MAX_URLS) throw new Error(`a sitemap holds at most ${SITEMAP_MAX_URLS} URLs (got ${pages.length})`)
  const entries = pages.map((page) => entryXml('url', page))
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...entries, '</urlset>', ''].join('\n')
}

/**
 * The sitemap index listing the given sitemaps.
 * @example buildSitemapIndex([{ loc: 'https://api.example.org/sitemaps/verses-1.xml' }]).includes('<sitemapindex') // true
 */
export function buildSitemapIndex(sitemaps: readonly SitemapEntry[]): string {
  const entries = sitemaps.map((sitemap) => entryXml('sitemap', sitemap))
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</sitemapindex>',
    '',
  ].join('\n')
}
