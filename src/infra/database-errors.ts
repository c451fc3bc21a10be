/**
 * Telling a database that is unreachable (stopped, restarting, failing over, a dropped
 * connection, a timed-out statement) from a query that is wrong, and describing errors for
 * logs without the objects hanging off them (a `pg` error can carry its client, whose
 * connection parameters include the password).
 */

/** SQLSTATE classes and codes that mean "the server cannot answer now", not "this query is wrong". */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '53400', '08000', '08001', '08003', '08004', '08006', '08007'])
/** Socket errors on the way to the server. */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN'])
/** What `pg` and `pg-pool` say when a connection dies or cannot be had in time. */
const UNAVAILABLE_MESSAGES =
  /^(?:Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|Connection ended|Client was closed)/

/**
 * Whether an error means the database is unavailable right now (a client should retry), as
 * opposed to a bug. Checks the error and its `cause` (Kysely and pg-pool may wrap).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true
    if (UNAVAILABLE_MESSAGES.test(current.message)) return true
    // Several addresses tried (localhost as ::1 and 127.0.0.1): each refused.
    if (current instanceof AggregateError && current.errors.some((inner) => isDatabaseUnavailable(inner))) return true
  }
  return false
}

/** An error as a log line may show it: type, message, code and stack, and nothing else. */
export interface ErrorSummary {
  readonly type: string
  readonly message: string
  readonly code?: string
  readonly stack?: string
}

/**
 * Summarizes any thrown value for logging (the logger's `err` serializer): never the
 * error's other properties, which may hold clients, requests or secrets.
 */
export function summarizeError(error: unknown): ErrorSummary {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) }
  const code = (error as { code?: unknown }).code
  return {
    type: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.stack === undefined ? {} : { stack: error.stack }),
  }
}
