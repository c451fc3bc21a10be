/**
 * The dashboard's OpenID Connect client: Authorization Code with PKCE (S256), state and nonce,
 * found by discovery. The protocol is openid-client's; this file only chooses its options and
 * turns its failures into the two a person can act on: the provider does not answer, or the
 * sign-in was refused or is no longer valid.
 */
import * as client from 'openid-client'
import type { OidcConfig } from '../config.js'
import type { PendingSignIn } from './session.store.js'

/** Why a sign-in step failed, in words the dashboard shows. */
export class SignInError extends Error {
  override readonly name = 'SignInError'
  constructor(
    /** `unreachable`: the provider did not answer (503); `refused`: it answered no, or the answer did not check out (400). */
    readonly kind: 'unreachable' | 'refused',
    message: string,
  ) {
    super(message)
  }
}

/** How long one request to the provider may take. */
const TIMEOUT_SECONDS = 5

/** Tokens from a completed sign-in. */
export interface SignedInTokens {
  readonly accessToken: string
  readonly idToken: string | undefined
}

/** One provider, discovered on first use (and again after a failed discovery). */
export class OidcClient {
  #configuration: Promise<client.Configuration> | undefined

  /**
   * @param redirectUri `{PUBLIC_BASE_URL}/dashboard/callback`, registered at the provider.
   * @param allowHttp plain-http provider URLs (a provider on this machine, tests); never for a public one.
   */
  constructor(
    private readonly config: OidcConfig,
    readonly redirectUri: string,
    private readonly allowHttp: boolean,
  ) {}

  /** The provider's origin, which the dashboard's form-action policy must allow for logout. */
  get issuerOrigin(): string {
    return new URL(this.config.issuer).origin
  }

  /**
   * Where to send the browser to sign in, with a fresh state, nonce and PKCE verifier to keep.
   * @throws SignInError unreachable when discovery fails.
   */
  async start(): Promise<{ url: string; pending: PendingSignIn }> {
    const configuration = await this.#discover()
    const pending: PendingSignIn = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() }
    const parameters: Record<string, string> = {
      redirect_uri: this.redirectUri,
      scope: this.config.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
      ...(this.config.resource === undefined ? {} : { resource: this.config.resource }),
      ...(this.config.audience === undefined ? {} : { audience: this.config.audience }),
    }
    return { url: client.buildAuthorizationUrl(configuration, parameters).href, pending }
  }

  /**
   * Completes a sign-in from the callback URL: checks state, exchanges the code with the PKCE
   * verifier, checks the ID token (nonce, signature, issuer, audience).
   * @throws SignInError refused (an error from the provider, a state mismatch, a bad code) or unreachable.
   */
  async finish(callbackUrl: URL, pending: PendingSignIn): Promise<SignedInTokens> {
    const configuration = await this.#discover()
    try {
      const tokens = await client.authorizationCodeGrant(
        configuration,
        callbackUrl,
        { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true },
        this.config.resource === undefined ? undefined : { resource: this.config.resource },
      )
      return { accessToken: tokens.access_token, idToken: tokens.id_token }
    } catch (error) {
      throw explain(error)
    }
  }

  /** The provider's logout URL for a signed-in session, if it publishes one. */
  async logoutUrl(idToken: string | undefined, returnTo: string): Promise<string | undefined> {
    try {
      const configuration = await this.#discover()
      if (configuration.serverMetadata().end_session_endpoint === undefined) return undefined
      const parameters: Record<string, string> = { post_logout_redirect_uri: returnTo, client_id: this.config.clientId }
      if (idToken !== undefined) parameters.id_token_hint = idToken
      return client.buildEndSessionUrl(configuration, parameters).href
    } catch {
      // Signing out here must work even when the provider is down.
      return undefined
    }
  }

  #discover(): Promise<client.Configuration> {
    this.#configuration ??= client
      .discovery(
        new URL(this.config.issuer),
        this.config.clientId,
        undefined,
        this.config.clientSecret === undefined ? client.None() : client.ClientSecretPost(this.config.clientSecret),
        this.allowHttp ? { execute: [client.allowInsecureRequests], timeout: TIMEOUT_SECONDS } : { timeout: TIMEOUT_SECONDS },
      )
      .catch((error: unknown) => {
        this.#configuration = undefined
        throw new SignInError(
          'unreachable',
          `The identity provider at ${this.config.issuer} could not be reached or sent no usable discovery document (${describe(error)}).`,
        )
      })
    return this.#configuration
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error'
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`.slice(0, 300)
}

/** A failed code exchange as a SignInError: network trouble is `unreachable`, anything else `refused`. */
function explain(error: unknown): SignInError {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
    return new SignInError(
      'refused',
      `The identity provider refused the sign-in: ${error.error}${error.error_description === undefined ? '' : ` (${error.error_description})`}.`,
    )
  }
  if (error instanceof TypeError || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))) {
    return new SignInError('unreachable', `The identity provider did not answer (${describe(error)}).`)
  }
  return new SignInError('refused', `The sign-in could not be completed: ${describe(error)}.`)
}
