/**
 * Typed HTML templates with automatic escaping: every value interpolated into `html`…`` is
 * escaped unless it is itself the result of `html` (a `SafeHtml`), so text from the database
 * or the query string can never become markup.
 */

/** Markup that is already safe: built by `html`, never from a raw string. */
export class SafeHtml {
  /** @internal Only `html` and `jsonLd` make these. */
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup
  }
}

/** What a template accepts: text (escaped), numbers, safe markup, lists of these, and nothing. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[]

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return ''
  if (value instanceof SafeHtml) return value.markup
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeHtml(String(value))
}

/**
 * The template tag.
 * @example html`<p>${'<b>'}</p>`.markup // '<p>&lt;b&gt;</p>'
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? ''
  for (let i = 0; i < values.length; i++) markup += render(values[i] as HtmlValue) + (strings[i + 1] ?? '')
  return new SafeHtml(markup)
}

/**
 * A JSON-LD block: JSON with `<` written as `\u003c`, so no string inside it can close the
 * script element.
 */
export function jsonLd(data: unknown): SafeHtml {
  return new SafeHtml(`<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`)
}
