/**
 * Domain restriction of keys: patterns `example.com` (that host only) and `*.example.com`
 * (any subdomain, not the bare domain), matched against the host of Origin or Referer.
 */

const LABEL = '(?!-)[a-z0-9-]{1,63}(?<!-)'
const HOST = new RegExp(`^(?=.{1,253}$)${LABEL}(\\.${LABEL})*$`)

/**
 * Normalises a pattern (trimmed, lower case) or returns undefined when it is invalid: a host
 * name (optionally `localhost`), or `*.` followed by a host name with at least two labels.
 */
export function normalisePattern(pattern: string): string | undefined {
  const value = pattern.trim().toLowerCase().replace(/\.$/, '')
  if (value.startsWith('*.')) {
    const rest = value.slice(2)
    return HOST.test(rest) && rest.includes('.') ? value : undefined
  }
  return HOST.test(value) ? value : undefined
}

/** The host of an Origin or Referer header value, lower case, without port; undefined if unusable. */
export function hostOf(header: string | undefined): string | undefined {
  if (header === undefined || header === '' || header === 'null') return undefined
  try {
    const url = new URL(header)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    return url.hostname.toLowerCase().replace(/\.$/, '')
  } catch {
    return undefined
  }
}

/** Whether a host matches one of the (normalised) patterns. */
export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => (pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern))
}
