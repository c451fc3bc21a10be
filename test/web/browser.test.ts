/**
 * The public pages in a real browser (Debian's Chromium, driven by playwright-core): every
 * page type at phone and desktop widths with no axe-core violations, no JavaScript needed,
 * links that lead somewhere, and a verse page whose text is the API's answer for that verse.
 * Skipped, saying so, when Chromium is not installed (`apt-get install -y chromium`).
 */
import { existsSync } from 'node:fs'
import axe from 'axe-core'
import t from 'tap'
import { chromium, type Browser, type Page } from 'playwright-core'
import type { VerseResource } from '../../src/verses/verses.service.js'
import { join } from 'node:path'
import { openDatabase } from '../../src/infra/database.js'
import { verseId } from '../../src/verses/verse.store.js'
import { runCli } from '../helpers/cli.js'
import { removeWrittenContent } from '../helpers/database.js'
import { checkPageResponses, fetchChecked } from '../helpers/http.js'
import { removeDataDir, seededDataDir, startServer } from '../helpers/server.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** axe-core's browser bundle, injected into each page. */
const AXE_SOURCE = axe.source

/**
 * A verse whose written content the test removes before the server starts (every book ships
 * some, but an operator may remove it): the page of a verse with the modernized text only.
 */
const UNWRITTEN = { slug: 'obadiah-1-1', path: '/obadiah/1/1', id: verseId(31, 1, 1) } as const

const PAGES = [
  '/',
  '/john/3/16',
  UNWRITTEN.path,
  '/psalms/23',
  '/psalms/23?style=casual',
  '/ruth',
  '/narratives',
  '/narratives/matthew-a-sower-scatters-seed-on-four-soils',
  '/search?q=shepherd',
  '/no-such-page',
  '/problems/rate-limited',
] as const

const WIDTHS = [
  { name: 'phone', width: 375, height: 740 },
  { name: 'desktop', width: 1280, height: 900 },
] as const

interface AxeResults {
  violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }>
}

/** Runs axe-core in the page; the page's own policy forbids scripts, so the test context bypasses it. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE)
  // A string, evaluated in the page: this file is type-checked without the DOM's types.
  const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResults
  return results.violations.map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.nodes.length} node(s) ${JSON.stringify(v.nodes[0]?.target)}`)
}

if (!existsSync(CHROMIUM)) {
  t.comment(`Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium): the browser tests of the public pages are skipped`)
  t.pass('skipped: no Chromium')
} else {
  t.test('the public pages in Chromium', async (t) => {
    const dataDir = seededDataDir()
    t.teardown(() => removeDataDir(dataDir))
    const database = await openDatabase({ kind: 'pglite', dir: join(dataDir, 'pglite') })
    try {
      t.ok((await removeWrittenContent(database.db, [UNWRITTEN.id])) >= 2, `${UNWRITTEN.slug}: its written content in both styles is removed`)
    } finally {
      await database.close()
    }
    const server = await startServer({ DATA_DIR: dataDir })
    t.teardown(() => server.stop('SIGTERM'))
    const browser: Browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    })
    t.teardown(() => browser.close())

    for (const size of WIDTHS) {
      t.test(`every page type at ${size.name} width: loads without JavaScript, no axe-core violations`, async (t) => {
        const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, javaScriptEnabled: false })
        t.teardown(() => context.close())
        const audit = await browser.newContext({ viewport: { width: size.width, height: size.height }, bypassCSP: true })
        t.teardown(() => audit.close())
        const violations = [checkPageResponses(context, server.baseUrl), checkPageResponses(audit, server.baseUrl)]
        for (const path of PAGES) {
          // Without JavaScript: the page reads in full.
          const reader = await context.newPage()
          const response = await reader.goto(`${server.baseUrl}${path}`)
          t.equal(response?.status(), path === '/no-such-page' ? 404 : 200, `${path} status`)
          t.ok((await reader.locator('main h1').count()) === 1, `${path}: one main heading`)
          const width = (await reader.evaluate('document.documentElement.scrollWidth')) as number
          t.ok(width <= size.width, `${path}: no horizontal scrolling (${width}px)`)
          await reader.close()
          // With axe injected (the page itself runs no script).
          const audited = await audit.newPage()
          await audited.goto(`${server.baseUrl}${path}`)
          t.same(await axeViolations(audited), [], `${path} at ${size.name} width: no axe-core violations`)
          // Both colour schemes must have enough contrast.
          await audited.emulateMedia({ colorScheme: 'dark' })
          t.same(await axeViolations(audited), [], `${path} at ${size.name} width, dark scheme: no axe-core violations`)
          await audited.close()
        }
        for (const found of violations) t.same(await found(), [], 'every response the browser received is in the contract')
      })
    }

    t.test("the verse page shows the API's answer for the verse, and its links lead to pages", async (t) => {
      const created = await runCli(['keys', 'create', '--name', 'browser test', '--json'], { DATA_DIR: server.dataDir })
      t.equal(created.code, 0, created.stderr)
      const key = (JSON.parse(created.stdout) as { key: string }).key
      const context = await browser.newContext({ javaScriptEnabled: false })
      t.teardown(() => context.close())
      const violations = checkPageResponses(context, server.baseUrl)
      const page = await context.newPage()
      for (const slug of ['john-3-16', 'genesis-1-1']) {
        const api = (await fetchChecked(t, server.baseUrl, `/api/v1/verse/${slug}?style=all`, { headers: { 'x-api-key': key } })).json<VerseResource>()
        await page.goto(api.attribution.url.replace(/^https?:\/\/[^/]+/, server.baseUrl))
        t.equal(await page.locator('link[rel=canonical]').getAttribute('href'), api.attribution.url, `${slug}: canonical is attribution.url`)
        t.equal((await page.locator('blockquote.kjv').innerText()).trim(), api.kjv_text, `${slug}: the KJV text`)
        const faithful = page.locator('section[aria-labelledby=faithful-heading] > p').first()
        t.equal((await faithful.innerText()).trim(), api.faithful?.simplified_text ?? '', `${slug}: the faithful text`)
        const casual = page.locator('section[aria-labelledby=casual-heading] > p').first()
        t.equal((await casual.innerText()).trim(), api.casual?.simplified_text ?? '', `${slug}: the casual text`)
        const bottomLine = page.locator('section[aria-labelledby=faithful-heading] dd').first()
        t.equal((await bottomLine.innerText()).trim(), api.faithful?.bottom_line ?? '', `${slug}: the bottom line`)
      }
      // A verse without written content: the page says plainly what is missing.
      const unwritten = (await (
        await fetch(`${server.baseUrl}/api/v1/verse/${UNWRITTEN.slug}?style=all`, { headers: { 'x-api-key': key } })
      ).json()) as VerseResource
      t.equal(unwritten.faithful?.provenance?.method, 'modernized', `${UNWRITTEN.slug}: the modernized faithful text`)
      t.same(unwritten.available_styles, { faithful: true, casual: false }, `${UNWRITTEN.slug}: no casual style`)
      await page.goto(`${server.baseUrl}${UNWRITTEN.path}`)
      const faithfulParagraphs = page.locator('section[aria-labelledby=faithful-heading] > p')
      t.equal((await faithfulParagraphs.first().innerText()).trim(), unwritten.faithful?.simplified_text ?? '', `${UNWRITTEN.slug}: the faithful text`)
      t.equal(
        (await faithfulParagraphs.nth(1).innerText()).trim(),
        'No bottom line, historical context or practical reflection has been written for this verse yet.',
        `${UNWRITTEN.slug}: missing notes are said plainly`,
      )
      t.equal(
        (await page.locator('section[aria-labelledby=casual-heading] > p').first().innerText()).trim(),
        'No casual retelling has been written for this verse yet.',
        `${UNWRITTEN.slug}: the missing style is said plainly`,
      )
      // Every link on a verse page leads to a page that answers.
      await page.goto(`${server.baseUrl}/john/3/16`)
      const hrefs = await page.locator('a[href^="/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? '/'))
      for (const href of new Set(hrefs)) {
        const response = await fetchChecked(t, server.baseUrl, href, { headers: { accept: 'text/html' } })
        t.equal(response.status, 200, `${href} answers`)
      }
      // The chapter's style choice is a plain link: no script needed.
      await page.goto(`${server.baseUrl}/psalms/23`)
      await page.getByRole('link', { name: 'Faithful' }).click()
      t.equal(new URL(page.url()).search, '?style=faithful')
      t.equal(await page.locator('.styles a[aria-current=page]').innerText(), 'Faithful')
      // The search box works without script too.
      await page.goto(`${server.baseUrl}/`)
      await page.fill('#site-search', 'still waters')
      await page.press('#site-search', 'Enter')
      await page.waitForURL(/\/search\?q=still\+waters/)
      t.match(await page.locator('ol.results').innerText(), 'Psalms 23:2')
      t.same(await violations(), [], 'every response the browser received is in the contract')
    })

    t.test('/docs renders the reference under its own policy: operations, request examples, no preflight rows', async (t) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      t.teardown(() => context.close())
      const violations = checkPageResponses(context, server.baseUrl)
      const page = await context.newPage()
      const problems: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text())
      })
      page.on('pageerror', (error) => problems.push(error.message))
      await page.goto(`${server.baseUrl}/docs#get-/api/v1/verse/-slug-`)
      t.equal(await page.title(), 'Plainverse API reference')
      // RapiDoc renders into its shadow root; Playwright's locators pierce it.
      await page.locator('text=Look up one verse').first().waitFor({ timeout: 120_000 })
      // Text locators pierce the shadow root too.
      t.ok((await page.locator('text=Create an API key').count()) > 0, 'the key operations are listed')
      t.equal(await page.locator('text=CORS preflight').count(), 0, 'no preflight operations')
      t.ok((await page.locator("text=curl -s 'http").count()) > 0, 'the request example in curl')
      t.ok((await page.locator('text=Python').count()) > 0, 'and in Python')
      t.same(problems, [], 'no console errors (the policy lets the reference load)')
      t.same(await violations(), [], 'every response the reference received is in the contract')
    })
  })
}
