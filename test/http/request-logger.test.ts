/**
 * The per-request logger is made only when a line is written: a line at an enabled level
 * carries the request's bindings, a line below the level makes no child, and the child and
 * level of a request's logger behave as pino's own.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import t from 'tap'
import { LazyRequestLogger, lazyChildLoggerFactory } from '../../src/http/request-logger.js'

function capture(level: string): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  return { logger: pino({ level }, sink), lines }
}

t.test('lines at an enabled level carry the bindings; lines below it are dropped without a child', async (t) => {
  const { logger, lines } = capture('warn')
  let children = 0
  const parent = new Proxy(logger, {
    get(target, name, receiver) {
      if (name === 'child') {
        return (...args: Parameters<pino.Logger['child']>) => {
          children++
          return target.child(...args)
        }
      }
      return Reflect.get(target, name, receiver) as unknown
    },
  })
  const log = new LazyRequestLogger(parent, { reqId: 'r-1' })
  log.info({ req: 'x' }, 'incoming request')
  log.debug('debug line')
  t.equal(children, 0, 'nothing written, no child made')
  log.warn({ detail: 1 }, 'slow %s', 'thing')
  log.error(new Error('boom'))
  t.equal(children, 1, 'one child, made on the first line written')
  t.match(lines, [
    { reqId: 'r-1', level: 40, msg: 'slow thing', detail: 1 },
    { reqId: 'r-1', level: 50, err: { message: 'boom' } },
  ])
})

t.test('level, child and the factory', async (t) => {
  const { logger, lines } = capture('info')
  const log = lazyChildLoggerFactory.call(undefined as never, logger, { reqId: 'r-2' }, {}, undefined as never)
  t.ok(log instanceof LazyRequestLogger, 'no options: a lazy child')
  t.equal(log.level, 'info', 'the level is the parent level')
  log.level = 'debug'
  log.debug('now visible')
  t.equal(logger.level, 'info', 'a request changes its own level, not the parent level')
  log.child({ step: 'a' }).info('nested')
  t.match(lines, [
    { reqId: 'r-2', level: 20, msg: 'now visible' },
    { reqId: 'r-2', step: 'a', msg: 'nested' },
  ])
  const eager = lazyChildLoggerFactory.call(undefined as never, logger, { reqId: 'r-3' }, { level: 'error' }, undefined as never)
  t.notOk(eager instanceof LazyRequestLogger, 'a route level: the real child at once')
  t.equal(eager.level, 'error')
})
