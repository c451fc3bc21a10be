/**
 * The API reference at /docs: RapiDoc (a web component, served from this server) reading the
 * served contract, titled for the product, with each operation's request examples (curl,
 * JavaScript, Python: the contract's `x-codeSamples`) and CORS described once in the text.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { etagOf, type Representation } from '../http/etag.js'

/** The reference's script, read once from the installed package. */
export function referenceScript(): Representation {
  const body = readFileSync(fileURLToPath(import.meta.resolve('rapidoc/dist/rapidoc-min.js')), 'utf8')
  return { body, etag: etagOf(body) }
}

/**
 * The page's policy: its own script and the contract only (no third-party origin), inline style
 * attributes (which the component sets), images from here or data: URLs.
 */
export const DOCS_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

/**
 * The page. URLs are relative to /docs, so a PUBLIC_BASE_URL with a path works too.
 * @example docsPage('Plainverse API').includes('<title>Plainverse API reference</title>') // true
 */
export function docsPage(title: string): Representation {
  const name = escapeAttribute(title)
  const body = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${name} reference</title>
    <link rel="icon" href="logo.svg" type="image/svg+xml">
    <script type="module" src="docs/rapidoc.js"></script>
  </head>
  <body>
    <rapi-doc
      spec-url="api/v1/openapi.json"
      heading-text="${name}"
      show-header="false"
      render-style="focused"
      theme="light"
      regular-font="system-ui, -apple-system, 'Segoe UI', sans-serif"
      mono-font="ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace"
      load-fonts="false"
      primary-color="#7a3b12"
      nav-bg-color="#faf7f2"
      schema-style="table"
      default-schema-tab="schema"
      show-method-in-nav-bar="as-colored-block"
      allow-spec-url-load="false"
      allow-spec-file-load="false"
      allow-server-selection="false"
      persist-auth="false"
      update-route="true"
      route-prefix="#"
    >
      <div slot="nav-logo" style="padding:12px 16px;font-weight:600;font-size:18px">${name}</div>
    </rapi-doc>
  </body>
</html>
`
  return { body, etag: etagOf(body) }
}
