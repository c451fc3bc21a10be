/** `/sitemap.xml` (sitemaps.org 0.9): the public pages. */
import { type DiscoveryContext, urlOf } from './discovery.context.js'

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

/**
 * The sitemap of the given absolute page URLs, in order. A sitemap holds at most 50,000 URLs;
 * callers with more must split them over several sitemaps and an index.
 * @example buildSitemap(['https://api.example.org/docs']).includes('<loc>https://api.example.org/docs</loc>') // true
 */
export function buildSitemap(pages: readonly string[]): string {
  if (pages.length > 50_000) throw new Error(`a sitemap holds at most 50000 URLs (got ${pages.length})`)
  const entries = pages.map((page) => `  <url><loc>${escapeXml(page)}</loc></url>`)
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...entries, '</urlset>', ''].join('\n')
}

/** The public pages that exist today: the documentation, the terms and the two LLM files. */
export function publicPages(context: DiscoveryContext): string[] {
  return ['getDocs', 'getTerms', 'getLlmsTxt', 'getLlmsFullTxt'].map((id) => urlOf(context, id))
}
