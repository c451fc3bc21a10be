/**
 * The benchmark's baselines, each run as its own process by scripts/bench.ts (argv: kind,
 * port, body file): `http`, a bare node:http server, and `fastify`, a bare Fastify route;
 * both answer every GET with one fixed JSON buffer (the verse the real server serves).
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { fastify } from 'fastify'

const [, , kind = 'http', port = '0', bodyFile = ''] = process.argv
const body = readFileSync(bodyFile)
const type = 'application/json; charset=utf-8'

if (kind === 'fastify') {
  const app = fastify({ logger: false })
  app.get('/*', (_request, reply) => reply.type(type).send(body))
  await app.listen({ port: Number(port), host: '127.0.0.1' })
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)))
} else {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': type, 'content-length': body.length })
    response.end(body)
  })
  server.listen(Number(port), '127.0.0.1')
  process.on('SIGTERM', () => server.close(() => process.exit(0)))
}
