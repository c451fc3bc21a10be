/** `/{book}/{chapter}`: a chapter read as text, in one of three styles, with its section headings. */
import { html, type SafeHtml } from '../html.js'
import { describe, type PageMeta } from '../layout.js'
import type { PageLink } from './verse.page.js'

/** The three ways a chapter can be read. */
export const CHAPTER_STYLES = ['kjv', 'faithful', 'casual'] as const
export type ChapterStyle = (typeof CHAPTER_STYLES)[number]

const STYLE_NAMES: Readonly<Record<ChapterStyle, string>> = { kjv: 'KJV', faithful: 'Faithful', casual: 'Casual' }

/** One verse of the chapter in the chosen style (null when that style has no text for it). */
export interface ChapterVerse {
  readonly number: number
  readonly path: string
  readonly text: string | null
  /** The section that starts at this verse. */
  readonly section?: { readonly slug: string; readonly title: string }
}

/** What the chapter page shows. */
export interface ChapterPageView {
  readonly bookName: string
  readonly bookPath: string
  readonly chapter: number
  readonly path: string
  readonly style: ChapterStyle
  readonly verses: readonly ChapterVerse[]
  readonly previous: PageLink | undefined
  readonly next: PageLink | undefined
  readonly baseUrl: string
}

/** The chapter page's metadata and body. */
export function chapterPage(view: ChapterPageView): { meta: PageMeta; body: SafeHtml } {
  const label = `${view.bookName} ${view.chapter}`
  const missing = view.verses.filter((v) => v.text === null).length
  // Each section heading opens a paragraph of its verses.
  const groups: Array<{ section?: ChapterVerse['section']; verses: ChapterVerse[] }> = []
  for (const verse of view.verses) {
    if (verse.section !== undefined || groups.length === 0) groups.push({ section: verse.section, verses: [] })
    groups.at(-1)?.verses.push(verse)
  }
  const body = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="${view.bookPath}">${view.bookName}</a> › Chapter ${view.chapter}</nav>
    <h1>${label}</h1>
    <nav class="styles" aria-label="Reading style">
      <p>
        Read as:
        ${CHAPTER_STYLES.map(
          (style, i) =>
            html`${i === 0 ? '' : ' · '}<a
                href="${style === 'kjv' ? view.path : `${view.path}?style=${style}`}"
                ${style === view.style ? html` aria-current="page"` : ''}
                >${STYLE_NAMES[style]}</a
              >`,
        )}
      </p>
    </nav>
    ${missing === 0 ? '' : html`<p class="note">${missing} of ${view.verses.length} verses have no ${STYLE_NAMES[view.style].toLowerCase()} text yet; their place is marked.</p>`}
    <div class="chapter-text">
      ${groups.map(
        (group) =>
          html`${group.section === undefined ? '' : html`<h2 id="${group.section.slug}">${group.section.title}</h2>`}
            <p>
              ${group.verses.map(
                (verse) =>
                  html`<sup><a href="${verse.path}" aria-label="Verse ${verse.number}">${verse.number}</a></sup
                    >${verse.text ?? html`<span class="note">(not written yet)</span>`} `,
              )}
            </p>`,
      )}
    </div>
    <nav class="pager" aria-label="Chapters">
      ${view.previous === undefined ? html`<span></span>` : html`<a href="${view.previous.path}" rel="prev">← ${view.previous.label}</a>`}
      ${view.next === undefined ? html`<span></span>` : html`<a href="${view.next.path}" rel="next">${view.next.label} →</a>`}
    </nav>`
  const first = view.verses[0]?.text ?? ''
  return {
    meta: {
      title: view.style === 'kjv' ? `${label} (KJV)` : `${label} in ${STYLE_NAMES[view.style].toLowerCase()} modern English`,
      description: describe(`${label}: ${first}`),
      path: view.style === 'kjv' ? view.path : `${view.path}?style=${view.style}`,
      ogType: 'article',
      structuredData: {
        '@context': 'https://schema.org',
        '@type': 'Chapter',
        name: label,
        url: `${view.baseUrl}${view.path}`,
        isPartOf: { '@type': 'Book', name: `${view.bookName} (King James Version)`, url: `${view.baseUrl}${view.bookPath}` },
      },
    },
    body,
  }
}
