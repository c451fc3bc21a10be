/**
 * Dashboard sessions, held server-side: the browser keeps only a random id in an HttpOnly
 * cookie, never a token (the backend-for-frontend practice of the OAuth browser-apps BCP).
 * In memory, per instance: behind several instances, route a browser to one (sticky sessions)
 * or it signs in again; a restart signs everyone out, which is safe.
 */
import { randomBytes } from 'node:crypto'

/** A sign-in in progress: what the callback must check. */
export interface PendingSignIn {
  readonly state: string
  readonly codeVerifier: string
  readonly nonce: string
}

/** One browser's session. */
export interface Session {
  readonly id: string
  /** Sent back in every form, so that a cross-site form post is refused even where SameSite is not honoured. */
  readonly csrf: string
  /** Milliseconds since the epoch after which the session is gone. */
  readonly expiresAt: number
  readonly pending?: PendingSignIn
  /** The access token, checked on every request exactly as POST /api/v1/keys checks one. */
  readonly accessToken?: string
  /** For the provider's logout (id_token_hint). */
  readonly idToken?: string
}

/** How long a sign-in may take at the provider. */
export const PENDING_TTL_MS = 10 * 60_000
/** The longest a session lives, whatever the token's own expiry (which is checked on every request). */
export const SESSION_TTL_MS = 12 * 60 * 60_000
/** Sessions kept at most; the oldest go first, so a flood of sign-in starts cannot exhaust memory. */
const MAX_SESSIONS = 20_000

/** The sessions of this instance. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>()

  constructor(private readonly now: () => number) {}

  /** A new session (a new id: never one the browser chose), for a sign-in starting now. */
  start(pending: PendingSignIn): Session {
    return this.#put({ id: newId(), csrf: newId(), expiresAt: this.now() + PENDING_TTL_MS, pending })
  }

  /** Replaces a finished sign-in's session by a signed-in one under a new id (no session fixation). */
  signIn(previous: Session, tokens: { accessToken: string; idToken: string | undefined }): Session {
    this.#sessions.delete(previous.id)
    return this.#put({
      id: newId(),
      csrf: newId(),
      expiresAt: this.now() + SESSION_TTL_MS,
      accessToken: tokens.accessToken,
      ...(tokens.idToken === undefined ? {} : { idToken: tokens.idToken }),
    })
  }

  /** The live session with this id, if any. */
  get(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined
    const session = this.#sessions.get(id)
    if (session === undefined) return undefined
    if (session.expiresAt <= this.now()) {
      this.#sessions.delete(id)
      return undefined
    }
    return session
  }

  /** Ends a session. */
  end(id: string): void {
    this.#sessions.delete(id)
  }

  #put(session: Session): Session {
    // Maps iterate in insertion order: the first entries are the oldest.
    for (const [id, old] of this.#sessions) {
      if (this.#sessions.size < MAX_SESSIONS && old.expiresAt > this.now()) break
      this.#sessions.delete(id)
    }
    this.#sessions.set(session.id, session)
    return session
  }
}

function newId(): string {
  return randomBytes(32).toString('base64url')
}
