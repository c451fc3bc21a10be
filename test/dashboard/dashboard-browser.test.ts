/**
 * The dashboard in a real browser (Debian's Chromium, driven by playwright-core) against a real
 * OpenID provider (oidc-provider on a local port, JWT access tokens for the API's audience):
 * sign in, create a key, copy it, call the API with it, see the usage and the daily chart move,
 * restrict it to a domain and see another origin refused, revoke it and see it refused; the
 * operator view with the operator claim and refused without it; sign out; axe-core on every
 * screen. Skipped, saying so, when Chromium is not installed (`apt-get install -y chromium`).
 */
import { existsSync } from 'node:fs'
import axe from 'axe-core'
import { HtmlValidate } from 'html-validate'
import t, { type Test } from 'tap'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { buildTestApp, TestClock } from '../helpers/app.js'
import { checkPageResponses, fetchChecked } from '../helpers/http.js'
import { contractViolations } from '../helpers/contract.js'
import { freePort, startDashboard } from '../helpers/oidc.js'
import { TEST_JWT_SECRET } from '../helpers/tokens.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const validator = new HtmlValidate({ extends: ['html-validate:standard', 'html-validate:document'], rules: { 'require-sri': 'off' } })

/** Keeps every dashboard HTML document the page receives, to validate them at the end. */
function collectDocuments(page: Page, baseUrl: string, into: Map<string, string>): void {
  page.on('response', (response) => {
    const url = response.url()
    if (!url.startsWith(`${baseUrl}/dashboard`) || !/text\/html/.test(response.headers()['content-type'] ?? '')) return
    response.text().then(
      (body) => into.set(`${response.request().method()} ${url.slice(baseUrl.length)} ${response.status()}`, body),
      () => undefined,
    )
  })
}

interface AxeResults {
  violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }>
}

/** axe-core's violations on the page as it is now (injected through the test's own channel; the page's policy allows no inline script). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source)
  const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResults
  return results.violations.map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.nodes.length} node(s) ${JSON.stringify(v.nodes[0]?.target)}`)
}

/** Signs in at the provider's development login form with any name. */
async function signIn(page: Page, baseUrl: string, login: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`)
  await page.getByRole('link', { name: 'Sign in' }).click()
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('any password')
  await page.locator('button[type="submit"]').click()
  await page.waitForURL(`${baseUrl}/dashboard`)
}

/**
 * A fetch from a page of another origin, as a browser app using the key would make it; the
 * response, as the network gave it, is checked against the contract before the page closes.
 */
async function fetchFrom(t: Test, context: BrowserContext, origin: string, url: string, key: string): Promise<{ status: number; code: string | undefined }> {
  const page = await context.newPage()
  await page.goto(`${origin}/terms`)
  const responded = page.waitForResponse((r) => r.url() === url && r.request().method() === 'GET')
  const result = (await page.evaluate(
    `fetch(${JSON.stringify(url)}, { headers: { 'X-API-Key': ${JSON.stringify(key)} } }).then(async (r) => ({ status: r.status, code: r.ok ? undefined : (await r.json()).code }))`,
  )) as { status: number; code: string | undefined }
  const response = await responded
  const observed = { method: 'GET', url: new URL(url).pathname, status: response.status(), headers: response.headers(), body: await response.text() }
  t.same(contractViolations(observed), [], `${origin}: the response is in the contract`)
  await page.close()
  return result
}

async function audit(t: Test, page: Page, screen: string): Promise<void> {
  t.same(await axeViolations(page), [], `${screen}: no axe-core violations`)
}

if (!existsSync(CHROMIUM)) {
  t.comment(`Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium): the dashboard's browser tests are skipped`)
  t.pass('skipped: no Chromium')
} else {
  t.test('the dashboard in Chromium against a real OpenID provider', async (t) => {
    const { baseUrl, port, testApp } = await startDashboard(t, { operators: ['olivia'] })
    const browser: Browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Two more names for this machine, so that requests can come from other origins.
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP allowed.test 127.0.0.1, MAP other.test 127.0.0.1'],
    })
    t.teardown(() => browser.close())
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    t.teardown(() => context.close())
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
    // Pages of other origins make the API calls; their own policy forbids scripts, which the test bypasses.
    const origins = await browser.newContext({ bypassCSP: true })
    t.teardown(() => origins.close())
    const violations = [checkPageResponses(context, baseUrl)]
    const page = await context.newPage()
    const documents = new Map<string, string>()
    collectDocuments(page, baseUrl, documents)
    const blocked: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) blocked.push(message.text())
    })

    await page.goto(`${baseUrl}/`)
    await page.getByRole('link', { name: 'Dashboard' }).first().click()
    t.equal(new URL(page.url()).pathname, '/dashboard', 'the home page links the dashboard')
    await audit(t, page, 'signed out')

    await signIn(page, baseUrl, 'alice')
    t.match(await page.locator('.account').textContent(), /alice@example\.test/, 'signed in as the provider says')
    t.match(await page.locator('main').textContent(), /You have no keys yet/)
    await audit(t, page, 'signed in, no keys')
    const cookies = await context.cookies(`${baseUrl}/dashboard`)
    const session = cookies.find((c) => c.name === 'pv_dashboard')
    t.ok(session?.httpOnly, 'the session cookie is HttpOnly')
    t.equal(session?.sameSite, 'Lax')
    t.notMatch(session?.value ?? '', /^ey/, 'the cookie holds a session id, not a token')
    t.equal(await page.evaluate('JSON.stringify(Object.keys(localStorage)) + JSON.stringify(Object.keys(sessionStorage))'), '[][]', 'no token in web storage')

    // Create a key: shown once, with a copy button.
    await page.getByLabel('Name').fill('Church <site> & "app"')
    await page.getByRole('button', { name: 'Create key' }).click()
    const key = ((await page.locator('#new-key-value').textContent()) ?? '').trim()
    t.match(key, /^pv_[0-9A-Za-z]{36}$/, 'the full key is shown')
    t.match(await page.locator('.warning').textContent(), /will not be shown again/)
    t.match(await page.locator('#new-key').textContent(), /Church <site> & "app"/, 'a hostile name is shown as text')
    t.match(
      await page.locator('#curl-john').textContent(),
      new RegExp(`X-API-Key: ${key}" ${baseUrl}/api/v1/verse/john-3-16`),
      'the first request uses the new key',
    )
    t.match(await page.locator('#mcp-config').textContent(), new RegExp(`"X-API-Key": "${key}"`), 'so does the MCP configuration')
    await audit(t, page, 'key created')
    await page.getByRole('button', { name: 'Copy the key' }).click()
    await page.getByText('Copied to the clipboard.').waitFor()
    t.equal(await page.evaluate('navigator.clipboard.readText()'), key, 'the copy button copies the key')
    await page.goto(`${baseUrl}/dashboard`)
    t.equal(await page.locator('#new-key-value').count(), 0, 'the key is not shown again')
    t.notMatch(await page.content(), key, 'not anywhere on the page')

    // Call the API with it: usage and the daily chart move.
    const first = await fetchChecked(t, baseUrl, '/api/v1/verse/john-3-16', { headers: { 'x-api-key': key } })
    t.equal(first.status, 200, 'the key works')
    const today = new Date().toISOString().slice(0, 10)
    const todayBar = page.locator(`#daily rect title:text-is("${today}: 1")`)
    await page.reload()
    t.equal((await page.locator('#total-queries').textContent())?.trim(), '1', 'usage this month moved')
    t.equal(await todayBar.count(), 1, "today's bar in the daily chart shows the query")
    t.match(await page.locator('#daily desc').textContent(), /1 counted query this month/)
    t.match(await page.locator('tr[data-key-id] .used').first().textContent(), /^1$/, "the key's row shows its use")
    t.match(await page.locator('tr[data-key-id]').first().textContent(), new RegExp(today), 'last used today')
    await audit(t, page, 'usage')

    // Restrict it to a domain: another origin is refused, the allowed one served.
    await page.getByRole('link', { name: /Settings of Church/ }).click()
    await audit(t, page, 'key settings')
    await page.getByLabel('Name').fill('Church site')
    await page.getByLabel(/Allowed domains/).fill('allowed.test')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(`${baseUrl}/dashboard?notice=updated`)
    t.match(await page.locator('tr[data-key-id]').first().textContent(), /Church site[\s\S]*allowed\.test/, 'renamed and restricted')
    const api = `http://127.0.0.1:${port}/api/v1/verse/john-3-16`
    t.same(await fetchFrom(t, origins, `http://allowed.test:${port}`, api, key), { status: 200, code: undefined }, 'the allowed origin is served')
    t.same(await fetchFrom(t, origins, `http://other.test:${port}`, api, key), { status: 403, code: 'domain_not_allowed' }, 'another origin is refused')

    // A bad domain is refused on the page, with the reason.
    await page.getByRole('link', { name: /Settings of Church site/ }).click()
    await page.getByLabel(/Allowed domains/).fill('<script>alert(1)</script>')
    await page.getByRole('button', { name: 'Save' }).click()
    t.match(await page.locator('#update-error').textContent(), /is not a host name/, 'the reason is shown')
    t.equal(await page.locator('main script').count(), 0, 'the hostile value is text, not markup')
    await audit(t, page, 'key settings with an error')

    // Revoke, with confirmation: the key is refused from then on.
    await page.goto(`${baseUrl}/dashboard`)
    await page.getByRole('link', { name: /Settings of Church site/ }).click()
    await page.getByRole('button', { name: 'Revoke this key' }).click()
    t.match(page.url(), /\/dashboard\/keys\//, 'not revoked without ticking the confirmation (the browser asks for it)')
    await page.getByLabel(/will stop working/).check()
    await page.getByRole('button', { name: 'Revoke this key' }).click()
    await page.waitForURL(`${baseUrl}/dashboard?notice=revoked`)
    t.match(await page.locator('.notice').textContent(), /revoked/)
    const refused = await fetchChecked(t, baseUrl, '/api/v1/verse/john-3-16', { headers: { 'x-api-key': key, origin: 'http://allowed.test' } })
    t.equal(refused.status, 403, 'the revoked key is refused')
    t.equal(refused.json<{ code: string }>().code, 'invalid_api_key')

    // Not an operator: the operator view is refused.
    const notOperator = await page.goto(`${baseUrl}/dashboard/operator`)
    t.equal(notOperator?.status(), 403, 'no operator claim: refused')
    await audit(t, page, 'operator view refused')

    // The operator: sees every account, changes a tier.
    const other = await testApp.services.keys.create({ accountId: 'bob', name: 'bob batch' })
    const opsContext = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    t.teardown(() => opsContext.close())
    const ops = await opsContext.newPage()
    await signIn(ops, baseUrl, 'olivia')
    await ops.getByRole('link', { name: 'Operator view' }).click()
    t.equal(new URL(ops.url()).pathname, '/dashboard/operator')
    t.match(await ops.locator('main').textContent(), /alice[\s\S]*bob/, 'every account')
    await audit(t, ops, 'operator view')
    await ops.getByLabel('Tier of bob batch').selectOption('developer')
    await ops.locator(`tr[data-key-id="${other.record.id}"]`).getByRole('button', { name: 'Set tier' }).click()
    await ops.waitForURL(/notice=tier/)
    const usage = await fetchChecked(t, baseUrl, '/api/v1/usage', { headers: { 'x-api-key': other.key } })
    t.equal(usage.json<{ tier: string }>().tier, 'developer', 'the new tier applies at once')
    await ops.getByRole('link', { name: 'account' }).click()
    t.match(ops.url(), /sort=account/, 'sortable')
    t.match(await ops.locator('strong[aria-current]').textContent(), /account/, 'the current order is marked')

    // Sign out: the session ends here (and at the provider).
    await page.goto(`${baseUrl}/dashboard`)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL((url) => url.origin !== baseUrl || url.searchParams.get('notice') === 'signed-out')
    await page.goto(`${baseUrl}/dashboard`)
    t.equal(await page.getByRole('link', { name: 'Sign in' }).count(), 1, 'signed out')
    t.same(blocked, [], 'the Content-Security-Policy blocked nothing the dashboard needs')
    for (const found of violations) t.same(await found(), [], 'every response the browser received from the server is in the contract')
    t.ok(documents.size >= 6, `${documents.size} dashboard documents seen`)
    for (const [name, body] of documents) {
      const report = await validator.validateString(body)
      t.same(
        report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId} line ${m.line}: ${m.message}`)),
        [],
        `${name}: valid HTML`,
      )
    }
  })

  t.test('an expired token, a stale form and a cross-site post', async (t) => {
    const clock = new TestClock()
    const { baseUrl, port } = await startDashboard(t, { clock })
    const browser: Browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP other.test 127.0.0.1'],
    })
    t.teardown(() => browser.close())
    const context = await browser.newContext()
    t.teardown(() => context.close())
    const violations = checkPageResponses(context, baseUrl)
    const page = await context.newPage()
    await signIn(page, baseUrl, 'carol')

    // A form whose CSRF token is not the session's is refused.
    await page.getByLabel('Name').fill('stale')
    await page.evaluate("document.querySelector('form[action=\"/dashboard/keys\"] input[name=csrf]').value = 'forged'")
    const stale = page.waitForResponse((r) => r.url() === `${baseUrl}/dashboard/keys`)
    await page.getByRole('button', { name: 'Create key' }).click()
    t.equal((await stale).status(), 403, 'a form with another CSRF token is refused')
    t.match(await page.locator('main').textContent(), /not sent from your current session/)

    // A form on another site posting here: the SameSite cookie is not sent, nothing is created.
    const attacker = await (await browser.newContext({ bypassCSP: true })).newPage()
    await attacker.goto(`http://other.test:${port}/terms`)
    const crossSite = await page
      .context()
      .request.fetch(`${baseUrl}/dashboard/keys`, { method: 'POST', form: { name: 'x' }, headers: { origin: `http://other.test:${port}` } })
    t.equal(crossSite.status(), 403, 'a post without the CSRF token is refused even with the cookie')
    t.same(
      contractViolations({ method: 'POST', url: '/dashboard/keys', status: crossSite.status(), headers: crossSite.headers(), body: await crossSite.text() }),
      [],
      'the refusal is in the contract',
    )
    await attacker.evaluate(
      `(() => { const f = document.createElement('form'); f.method = 'post'; f.action = ${JSON.stringify(`${baseUrl}/dashboard/keys`)}; const i = document.createElement('input'); i.name = 'name'; i.value = 'planted'; f.append(i); document.body.append(f); f.submit() })()`,
    )
    await attacker.waitForLoadState()
    await page.goto(`${baseUrl}/dashboard`)
    t.match(await page.locator('main').textContent(), /You have no keys yet/, 'no key was created by either')

    // The token expires: the dashboard says so and asks to sign in again.
    clock.set(new Date(Date.now() + 2 * 3600_000))
    await page.goto(`${baseUrl}/dashboard`)
    t.match(await page.locator('.notice').textContent(), /session has ended \(.*expired.*\) Sign in again/, 'a clear message when the token expires')
    t.equal(await page.getByRole('link', { name: 'Sign in' }).count(), 1)
    t.same(await axeViolations(page), [], 'session ended: no axe-core violations')
    t.same(await violations(), [], 'every response the browser received from the server is in the contract')
  })

  t.test('without a provider, and with one that does not answer: clear pages, no axe-core violations', async (t) => {
    const browser: Browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    })
    t.teardown(() => browser.close())
    const context = await browser.newContext()
    const page = await context.newPage()
    const bare = await buildTestApp(t)
    const bareUrl = await bare.app.listen({ port: 0, host: '127.0.0.1' })
    const violations = [checkPageResponses(context, bareUrl)]
    await page.goto(`${bareUrl}/dashboard`)
    t.match(await page.locator('main').textContent(), /Sign-in is not configured[\s\S]*npx plainverse keys create/)
    t.same(await axeViolations(page), [], 'not configured: no axe-core violations')
    const down = await buildTestApp(t, {
      env: { OIDC_ISSUER: `http://127.0.0.1:${await freePort()}`, OIDC_CLIENT_ID: 'dash', AUTH_JWT_SECRET: TEST_JWT_SECRET },
    })
    const downUrl = await down.app.listen({ port: 0, host: '127.0.0.1' })
    violations.push(checkPageResponses(context, downUrl))
    await page.goto(`${downUrl}/dashboard`)
    const response = page.waitForResponse((r) => r.url().endsWith('/dashboard/login'))
    await page.getByRole('link', { name: 'Sign in' }).click()
    t.equal((await response).status(), 503)
    t.match(await page.locator('main').textContent(), /Identity provider unreachable[\s\S]*could not be reached/)
    t.same(await axeViolations(page), [], 'provider unreachable: no axe-core violations')
    for (const found of violations) t.same(await found(), [], 'every response the browser received from the servers is in the contract')
  })
}
