/**
 * The dashboard's routes: sign-in (OIDC Authorization Code + PKCE through OidcClient), a
 * server-side session behind an HttpOnly SameSite cookie, forms with a CSRF token, and the
 * pages. Handlers stay thin: DashboardService and OperatorService hold the rules.
 *
 * Security headers: the public pages' helmet setup with a script allowed from this origin only
 * (no inline script or style), forms posting here (and to the provider, whose logout a form's
 * redirect reaches), never framed, never cached, no referrer.
 */
import { timingSafeEqual } from 'node:crypto'
import fastifyCookie from '@fastify/cookie'
import fastifyFormbody from '@fastify/formbody'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { routes } from '../../generated/route-schemas.js'
import { AppError } from '../errors.js'
import { etagOf, sendTagged, type Representation } from '../http/etag.js'
import type { Identity } from '../identity/identity.service.js'
import type { AccountSort, OperatorService } from '../operator/operator.service.js'
import { SignInError, type OidcClient } from './oidc.client.js'
import { accountPage, keyPage, notConfiguredPage, operatorPage, problemPage, signedOutPage, type DashboardSettings, type Viewer } from './dashboard.pages.js'
import { DASHBOARD_JS } from './dashboard.script.js'
import type { DashboardService } from './dashboard.service.js'
import type { Session, SessionStore } from './session.store.js'
import { securityHeadersHook } from '../web/security-headers.js'

/** What the dashboard routes use. */
export interface DashboardRouteDeps {
  readonly settings: DashboardSettings
  readonly dashboard: DashboardService
  readonly operator: OperatorService
  readonly sessions: SessionStore
  /** Undefined when OIDC_* is not configured: the dashboard explains how to configure it. */
  readonly oidc: OidcClient | undefined
}

const COOKIE = 'pv_dashboard'
const HTML = 'text/html; charset=utf-8'
const NO_STORE = 'no-store'

/** Notices a redirect may ask a page to show: fixed texts, so a link cannot put words on the page. */
const NOTICES: Readonly<Record<string, string>> = {
  updated: 'The key was saved.',
  revoked: 'The key was revoked; requests with it are refused from now on.',
  tier: "The key's tier was changed.",
  'signed-out': 'You are signed out.',
}

type Form = Record<string, string | string[] | undefined>

/** A signed-in request: the session and the identity its token names (checked just now). */
interface SignedIn {
  readonly session: Session
  readonly identity: Identity
  readonly viewer: Viewer
}

/** Registers /dashboard/* and /assets/dashboard.js. */
export async function registerDashboardRoutes(app: FastifyInstance, deps: DashboardRouteDeps): Promise<void> {
  const { settings, dashboard, operator, sessions, oidc } = deps
  const secure = settings.site.baseUrl.startsWith('https:')
  const script: Representation = { body: DASHBOARD_JS, etag: etagOf(DASHBOARD_JS) }
  const security = {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'", ...(oidc === undefined ? [] : [oidc.issuerOrigin])],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' as const },
  }
  const page = { config: { page: true }, onRequest: securityHeadersHook(security) }
  const cookieOptions = { path: '/dashboard', httpOnly: true, sameSite: 'lax' as const, secure }

  const send = (reply: FastifyReply, status: number, body: string): FastifyReply => reply.code(status).header('cache-control', NO_STORE).type(HTML).send(body)
  const seeOther = (reply: FastifyReply, location: string): FastifyReply => reply.code(303).header('cache-control', NO_STORE).redirect(location, 303)
  const signInAgain = (reply: FastifyReply, message: string): FastifyReply =>
    send(reply, 403, problemPage(settings, 'Sign in again', message, { href: '/dashboard/login', label: 'Sign in' }))

  /** The signed-in session of a request, or why there is none (expired token, no session). */
  async function current(request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | { ended: string } | undefined> {
    const session = sessions.get(request.cookies[COOKIE])
    if (session?.accessToken === undefined) return undefined
    try {
      const identity = await dashboard.identify(session.accessToken)
      return { session, identity, viewer: { accountId: identity.accountId, email: identity.email, operator: identity.operator, csrf: session.csrf } }
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'invalid_token') throw error
      sessions.end(session.id)
      reply.clearCookie(COOKIE, cookieOptions)
      return { ended: `Your session has ended (${error.detail}) Sign in again to go on.` }
    }
  }

  /** A form post from a signed-in session carrying its CSRF token, or the 403 page already sent. */
  async function formSession(request: FastifyRequest<{ Body: Form }>, reply: FastifyReply): Promise<SignedIn | undefined> {
    const signedIn = await current(request, reply)
    if (signedIn === undefined || 'ended' in signedIn) {
      signInAgain(reply, signedIn?.ended ?? 'You are not signed in (or your session has ended): sign in and send the form again.')
      return undefined
    }
    if (!sameSecret(field(request.body, 'csrf'), signedIn.session.csrf)) {
      signInAgain(reply, 'This form was not sent from your current session (it may be stale, or from another site). Reload the dashboard and try again.')
      return undefined
    }
    return signedIn
  }

  app.route({
    ...routes.getDashboardScript,
    handler: (request, reply) => sendTagged(request, reply, script, 'text/javascript; charset=utf-8', 'public, max-age=3600'),
  })

  await app.register(async (scope) => {
    await scope.register(fastifyCookie)
    // Forms post application/x-www-form-urlencoded; the parser exists only inside this scope, so the JSON API still answers 415 to form bodies.
    await scope.register(fastifyFormbody, { bodyLimit: 16 * 1024 })

    scope.route<{ Querystring: { notice?: string } }>({
      ...routes.getDashboard,
      ...page,
      async handler(request, reply) {
        if (oidc === undefined) return send(reply, 200, notConfiguredPage(settings))
        const signedIn = await current(request, reply)
        const notice = NOTICES[String(request.query.notice)]
        if (signedIn === undefined) return send(reply, 200, signedOutPage(settings, notice))
        if ('ended' in signedIn) return send(reply, 200, signedOutPage(settings, signedIn.ended))
        return send(reply, 200, await account(signedIn.viewer, { notice }))
      },
    })

    scope.route({
      ...routes.dashboardLogin,
      ...page,
      async handler(_request, reply) {
        if (oidc === undefined) return seeOther(reply, '/dashboard')
        try {
          const { url, pending } = await oidc.start()
          const session = sessions.start(pending)
          reply.setCookie(COOKIE, session.id, cookieOptions)
          return seeOther(reply, url)
        } catch (error) {
          if (error instanceof SignInError) return send(reply, 503, unreachable(error))
          throw error
        }
      },
    })

    scope.route({
      ...routes.dashboardCallback,
      ...page,
      async handler(request, reply) {
        if (oidc === undefined) return seeOther(reply, '/dashboard')
        const session = sessions.get(request.cookies[COOKIE])
        if (session?.pending === undefined) {
          return send(
            reply,
            400,
            problemPage(settings, 'Sign-in expired', 'This sign-in was not started from this browser, or took longer than 10 minutes. Start again.', {
              href: '/dashboard/login',
              label: 'Sign in',
            }),
          )
        }
        const query = request.url.indexOf('?')
        const callbackUrl = new URL(`${oidc.redirectUri}${query < 0 ? '' : request.url.slice(query)}`)
        let tokens
        try {
          tokens = await oidc.finish(callbackUrl, session.pending)
        } catch (error) {
          if (!(error instanceof SignInError)) throw error
          sessions.end(session.id)
          if (error.kind === 'unreachable') return send(reply, 503, unreachable(error))
          return send(reply, 400, problemPage(settings, 'Sign-in failed', error.message, { href: '/dashboard/login', label: 'Try again' }))
        }
        // The same check as every API call with an identity token: a token the API would refuse opens no session.
        try {
          await dashboard.identify(tokens.accessToken)
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'invalid_token') throw error
          sessions.end(session.id)
          return send(
            reply,
            401,
            problemPage(
              settings,
              'Sign-in not accepted',
              `The identity provider signed you in, but its access token is not one this API accepts: ${error.detail} (The operator should check AUTH_ISSUER, AUTH_AUDIENCE and OIDC_RESOURCE or OIDC_AUDIENCE.)`,
              { href: '/dashboard', label: 'Back to the dashboard' },
            ),
          )
        }
        const signedIn = sessions.signIn(session, tokens)
        reply.setCookie(COOKIE, signedIn.id, cookieOptions)
        return seeOther(reply, '/dashboard')
      },
    })

    scope.route<{ Body: Form }>({
      ...routes.dashboardLogout,
      ...page,
      async handler(request, reply) {
        const session = sessions.get(request.cookies[COOKIE])
        reply.clearCookie(COOKIE, cookieOptions)
        // Without the session's CSRF token nobody is signed out (a cross-site form cannot log people out).
        if (session === undefined || !sameSecret(field(request.body, 'csrf'), session.csrf)) return seeOther(reply, '/dashboard')
        sessions.end(session.id)
        const providerLogout = oidc === undefined ? undefined : await oidc.logoutUrl(session.idToken, `${settings.site.baseUrl}/dashboard?notice=signed-out`)
        return seeOther(reply, providerLogout ?? '/dashboard?notice=signed-out')
      },
    })

    scope.route<{ Body: Form }>({
      ...routes.dashboardCreateKey,
      ...page,
      async handler(request, reply) {
        const signedIn = await formSession(request, reply)
        if (signedIn === undefined) return reply
        try {
          const created = await dashboard.create(signedIn.identity.accountId, field(request.body, 'name'), field(request.body, 'allowed_domains'))
          return send(reply, 201, await account(signedIn.viewer, { created }))
        } catch (error) {
          const refused = formError(error)
          return send(reply, refused.status, await account(signedIn.viewer, { error: refused.message }))
        }
      },
    })

    scope.route<{ Params: { id: string } }>({
      ...routes.dashboardKey,
      ...page,
      async handler(request, reply) {
        const signedIn = await current(request, reply)
        if (signedIn === undefined || 'ended' in signedIn) return seeOther(reply, '/dashboard')
        const key = await dashboard.key(signedIn.identity.accountId, request.params.id)
        if (key === undefined) return send(reply, 404, notFound())
        return send(reply, 200, keyPage(settings, signedIn.viewer, key))
      },
    })

    scope.route<{ Params: { id: string }; Body: Form }>({
      ...routes.dashboardUpdateKey,
      ...page,
      async handler(request, reply) {
        const signedIn = await formSession(request, reply)
        if (signedIn === undefined) return reply
        const accountId = signedIn.identity.accountId
        try {
          await dashboard.update(accountId, request.params.id, field(request.body, 'name'), field(request.body, 'allowed_domains'))
          return seeOther(reply, '/dashboard?notice=updated')
        } catch (error) {
          const refused = formError(error)
          const key = await dashboard.key(accountId, request.params.id)
          if (key === undefined) return send(reply, 404, notFound())
          return send(reply, refused.status, keyPage(settings, signedIn.viewer, key, refused.message))
        }
      },
    })

    scope.route<{ Params: { id: string }; Body: Form }>({
      ...routes.dashboardRevokeKey,
      ...page,
      async handler(request, reply) {
        const signedIn = await formSession(request, reply)
        if (signedIn === undefined) return reply
        if (field(request.body, 'confirm') !== 'yes') {
          return send(
            reply,
            400,
            problemPage(settings, 'Not revoked', 'Tick the confirmation box to revoke the key.', {
              href: `/dashboard/keys/${request.params.id}`,
              label: 'Back to the key',
            }),
          )
        }
        try {
          await dashboard.revoke(signedIn.identity.accountId, request.params.id)
        } catch (error) {
          if (error instanceof AppError && error.code === 'key_not_found') return send(reply, 404, notFound())
          throw error
        }
        return seeOther(reply, '/dashboard?notice=revoked')
      },
    })

    scope.route<{ Querystring: { sort?: string; notice?: string } }>({
      ...routes.dashboardOperator,
      ...page,
      async handler(request, reply) {
        const signedIn = await current(request, reply)
        if (signedIn === undefined || 'ended' in signedIn) return seeOther(reply, '/dashboard')
        if (!signedIn.identity.operator) return send(reply, 403, notOperator())
        const sort: AccountSort = request.query.sort === 'account' || request.query.sort === 'created' ? request.query.sort : 'usage'
        const [accounts, service] = await Promise.all([operator.accounts(sort), operator.serviceUsage()])
        return send(reply, 200, operatorPage(settings, signedIn.viewer, accounts, service, sort, NOTICES[String(request.query.notice)]))
      },
    })

    scope.route<{ Params: { id: string }; Body: Form }>({
      ...routes.dashboardOperatorKey,
      ...page,
      async handler(request, reply) {
        const signedIn = await formSession(request, reply)
        if (signedIn === undefined) return reply
        if (!signedIn.identity.operator) return send(reply, 403, notOperator())
        const back = { href: '/dashboard/operator', label: 'Back to the operator view' }
        try {
          const action = field(request.body, 'action')
          if (action === 'tier') {
            await operator.setTier(request.params.id, field(request.body, 'tier'))
            return seeOther(reply, '/dashboard/operator?notice=tier')
          }
          if (action === 'revoke' && field(request.body, 'confirm') === 'yes') {
            await operator.revoke(request.params.id)
            return seeOther(reply, '/dashboard/operator?notice=revoked')
          }
          return send(reply, 400, problemPage(settings, 'Nothing done', 'Choose a tier, or tick the confirmation box to revoke the key.', back))
        } catch (error) {
          const refused = formError(error)
          return send(reply, refused.status, problemPage(settings, 'Nothing done', refused.message, back))
        }
      },
    })
  })

  async function account(viewer: Viewer, extra: { notice?: string; created?: { key: string; name: string }; error?: string }): Promise<string> {
    const [keys, usage] = await Promise.all([dashboard.keys(viewer.accountId), dashboard.usage(viewer.accountId)])
    return accountPage(settings, { viewer, keys, usage, ...extra })
  }

  function unreachable(error: SignInError): string {
    return problemPage(settings, 'Identity provider unreachable', `${error.message} Try again in a moment.`, { href: '/dashboard/login', label: 'Try again' })
  }

  function notFound(): string {
    return problemPage(settings, 'Key not found', 'None of your active keys has this id: it may have been revoked.', {
      href: '/dashboard',
      label: 'Back to the dashboard',
    })
  }

  function notOperator(): string {
    return problemPage(settings, 'Operators only', 'The operator view is for accounts whose sign-in carries the operator claim configured on this server.', {
      href: '/dashboard',
      label: 'Back to the dashboard',
    })
  }
}

/** A form field as one string: absent is empty; a repeated field (an array) is refused. */
function field(body: Form | undefined, name: string): string {
  const value = body?.[name]
  if (value === undefined) return ''
  if (typeof value !== 'string') throw new AppError('invalid_parameter', `The form field ${name} was sent more than once.`)
  return value
}

/** Whether a secret sent back equals the expected one, in constant time. */
function sameSecret(sent: string, expected: string): boolean {
  const a = Buffer.from(sent)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** A refused form value (400), a missing key (404) or the key limit (409), as a status and a message; anything else is rethrown. */
function formError(error: unknown): { status: number; message: string } {
  if (error instanceof AppError && ['invalid_parameter', 'key_not_found', 'key_limit_reached'].includes(error.code)) {
    return { status: error.status, message: error.detail.replace(/body\/allowed_domains\/\d+ /g, '').replace(/body\//g, '') }
  }
  throw error
}
