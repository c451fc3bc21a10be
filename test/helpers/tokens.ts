/** Signs identity-provider tokens for tests (HS256, as Supabase's legacy secret does). */
import { createHmac } from 'node:crypto'

/** A 40-character secret that tests configure as AUTH_JWT_SECRET. */
export const TEST_JWT_SECRET = 'test-secret-0123456789-abcdefghijklmnopq'

const b64 = (value: object | Buffer): string => (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url')

/** An HS256 JWT for `sub`, valid for an hour, audience `authenticated`, role `authenticated`. */
export function signToken(sub: string, claims: Record<string, unknown> = {}, secret = TEST_JWT_SECRET): string {
  const now = Math.floor(Date.now() / 1000)
  const header = b64({ alg: 'HS256', typ: 'JWT' })
  const payload = b64({ sub, aud: 'authenticated', role: 'authenticated', iat: now, exp: now + 3600, ...claims })
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')
  return `${header}.${payload}.${signature}`
}
