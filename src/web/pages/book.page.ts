/** `/{book}`: a book's introduction and its chapters. */
import type { BookDetail } from '../../verses/verses.service.js'
import { html, type SafeHtml } from '../html.js'
import { describe, type PageMeta } from '../layout.js'

/** The book page's metadata and body. */
export function bookPage(book: BookDetail, path: string, baseUrl: string): { meta: PageMeta; body: SafeHtml } {
  const intro = book.introduction
  const body = html`<h1>${book.name}</h1>
    <p class="meta">
      ${book.testament === 'old' ? 'Old Testament' : 'New Testament'} · ${book.chapter_count} chapters · ${book.verse_count.toLocaleString('en-US')} verses
    </p>
    <h2>Introduction</h2>
    <p>${intro.text}</p>
    <dl class="fields">
      <dt>Author</dt>
      <dd>${intro.author}</dd>
      <dt>Date</dt>
      <dd>${intro.date}</dd>
      <dt>Audience</dt>
      <dd>${intro.audience}</dd>
      <dt>Setting</dt>
      <dd>${intro.setting}</dd>
      <dt>Purpose</dt>
      <dd>${intro.purpose}</dd>
    </dl>
    <h2>Chapters</h2>
    <ol class="chapters">
      ${book.verse_counts.map((_, i) => html`<li><a href="${path}/${i + 1}">${book.name} ${i + 1}</a></li>`)}
    </ol>
    <h2>Sections</h2>
    <ul>
      ${book.sections.map((s) => html`<li><a href="${path}/${s.start.chapter}#${s.slug}">${s.title}</a> <span class="meta">(${s.reference})</span></li>`)}
    </ul>`
  return {
    meta: {
      title: `${book.name} (KJV): introduction and chapters`,
      description: describe(intro.text),
      path,
      structuredData: {
        '@context': 'https://schema.org',
        '@type': 'Book',
        name: `${book.name} (King James Version)`,
        url: `${baseUrl}${path}`,
        author: intro.author,
      },
    },
    body,
  }
}
