/**
 * The dashboard over HTTP, without a browser: the page without a configured provider, an
 * unreachable provider, a callback that was not started here, form posts without a session,
 * the security headers, and the script asset.
 */
import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { call } from '../helpers/http.js'
import { freePort } from '../helpers/oidc.js'
import { TEST_JWT_SECRET } from '../helpers/tokens.js'

t.test('without a configured identity provider', async (t) => {
  const { app } = await buildTestApp(t, { env: { CONTACT_EMAIL: 'sales@example.org' } })
  const res = await call(t, app, { url: '/dashboard' })
  t.equal(res.statusCode, 200)
  t.match(res.body, /Sign-in is not configured/)
  t.match(res.body, /OIDC_ISSUER=/, 'says how to configure one')
  t.match(res.body, /npx plainverse keys create --name/, 'and how to create keys with the CLI meanwhile')
  t.match(res.body, /sales@example\.org/, 'how to ask for a higher tier')
  t.match(res.body, /<td>free<\/td>\s*<td>500<\/td>/, 'the tiers as configured')
  const csp = String(res.headers['content-security-policy'])
  t.match(csp, /script-src 'self'/)
  t.notMatch(csp, /unsafe-inline|unsafe-eval/, 'no inline script or style')
  t.match(csp, /frame-ancestors 'none'/)
  t.equal(res.headers['cache-control'], 'no-store')
  t.equal(res.headers['referrer-policy'], 'no-referrer')
  t.notMatch(res.body, /<script(?![^>]*src="\/assets\/dashboard\.js")[^>]*>[^<]/, 'no inline script')
  const login = await call(t, app, { url: '/dashboard/login' })
  t.equal(login.statusCode, 303)
  t.equal(login.headers.location, '/dashboard')
  const script = await call(t, app, { url: '/assets/dashboard.js' })
  t.equal(script.statusCode, 200)
  t.match(String(script.headers['content-type']), /^text\/javascript/)
  const again = await call(t, app, { url: '/assets/dashboard.js', headers: { 'if-none-match': String(script.headers.etag) } })
  t.equal(again.statusCode, 304)
})

t.test('an identity provider that does not answer', async (t) => {
  const issuer = `http://127.0.0.1:${await freePort()}`
  const { app } = await buildTestApp(t, { env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'dash', AUTH_JWT_SECRET: TEST_JWT_SECRET } })
  const page = await call(t, app, { url: '/dashboard' })
  t.equal(page.statusCode, 200)
  t.match(page.body, /href="\/dashboard\/login"/, 'signed out: a sign-in link')
  const login = await call(t, app, { url: '/dashboard/login' })
  t.equal(login.statusCode, 503)
  t.match(login.headers['content-type'], /text\/html/)
  t.match(login.body, /Identity provider unreachable/)
  t.match(login.body, /could not be reached/, 'a clear message')
  t.notOk(login.headers['set-cookie'], 'no session for a sign-in that never started')
})

t.test('callbacks and forms without a session', async (t) => {
  const { app } = await buildTestApp(t, { env: { OIDC_ISSUER: 'http://127.0.0.1:9', OIDC_CLIENT_ID: 'dash', AUTH_JWT_SECRET: TEST_JWT_SECRET } })
  const callback = await call(t, app, { url: '/dashboard/callback?code=abc&state=<script>' })
  t.equal(callback.statusCode, 400, 'a callback this browser did not start')
  t.match(callback.body, /not started from this browser/)
  t.notMatch(callback.body, /<script>/)
  const forged = await call(t, app, { url: '/dashboard/callback?code=abc&state=x', headers: { cookie: 'pv_dashboard=made-up' } })
  t.equal(forged.statusCode, 400, 'a session id the server never issued')
  for (const url of ['/dashboard/keys', '/dashboard/keys/00000000-0000-4000-8000-000000000000', '/dashboard/keys/x/revoke', '/dashboard/operator/keys/x']) {
    const res = await call(t, app, {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'pv_dashboard=made-up' },
      payload: 'csrf=x&name=%3Cb%3Ehi%3C%2Fb%3E&confirm=yes&action=revoke',
    })
    t.equal(res.statusCode, 403, `${url}: refused without a session`)
    t.match(res.body, /sign in/i)
  }
  const logout = await call(t, app, {
    method: 'POST',
    url: '/dashboard/logout',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'csrf=x',
  })
  t.equal(logout.statusCode, 303)
  const page = await call(t, app, { url: '/dashboard/operator' })
  t.equal(page.statusCode, 303, 'signed out: back to the dashboard')
  const json = await call(t, app, {
    method: 'POST',
    url: '/api/v1/keys',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer x' },
    payload: 'name=x',
  })
  t.equal(json.statusCode, 401, 'the API itself still takes no form bodies (identity first)')
})
