/**
 * Per-request loggers made only when a request logs something. Fastify gives every request
 * a child logger bound to its id; pino builds a child by copying the logger and serializing
 * the bindings, which costs about a microsecond and its garbage on every request, while most
 * requests log nothing at the configured level. A {@link LazyRequestLogger} holds the
 * bindings and makes the pino child on the first line that is actually written (or when
 * asked for its own child or a level change), so every line still carries the request id.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'pino'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

/** What pino offers besides Fastify's logger interface: a level check without writing. */
interface LevelAware {
  isLevelEnabled(level: string): boolean
}

function levelAware(logger: FastifyBaseLogger): logger is FastifyBaseLogger & LevelAware {
  return typeof (logger as Partial<LevelAware>).isLevelEnabled === 'function'
}

/** A request's logger: the parent's child with the request's bindings, made on first use. */
export class LazyRequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
  ) {}

  /** The real child logger, made now if it was not yet. */
  materialize(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings)
    return this.#child
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level
  }

  set level(level: string) {
    this.materialize().level = level
  }

  /** Writes through the child, made only when the level lets the line through. */
  #write(level: Level, args: unknown[]): void {
    const parent = this.parent
    if (this.#child === undefined && levelAware(parent) && !parent.isLevelEnabled(level)) return
    const target = this.materialize()
    ;(target[level] as (...a: unknown[]) => void).apply(target, args)
  }

  // Prototype methods, not arrow-function fields: a request's logger must cost one small object.
  fatal(...args: unknown[]): void {
    this.#write('fatal', args)
  }

  error(...args: unknown[]): void {
    this.#write('error', args)
  }

  warn(...args: unknown[]): void {
    this.#write('warn', args)
  }

  info(...args: unknown[]): void {
    this.#write('info', args)
  }

  debug(...args: unknown[]): void {
    this.#write('debug', args)
  }

  trace(...args: unknown[]): void {
    this.#write('trace', args)
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.materialize().child(bindings, options)
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy child for the common case, the real child at once
 * when the route sets its own level or serializers (rare, and their effect must not wait).
 */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) => {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options)
  return new LazyRequestLogger(logger, bindings)
}

/**
 * Whether Fastify writes lines for every request with this app logger: its "incoming request"
 * and "request completed" lines are at info. No logger (tests) writes nothing.
 */
export function logsEveryRequest(logger: FastifyBaseLogger | undefined): boolean {
  if (logger === undefined) return false
  return levelAware(logger) ? logger.isLevelEnabled('info') : true
}
