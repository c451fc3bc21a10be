/**
 * The benchmark's baseline: a bare node:http server that answers every request with one
 * fixed JSON buffer. Run as a child process by scripts/bench.ts (argv: port, body file).
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const [, , port = '0', bodyFile = ''] = process.argv
const body = readFileSync(bodyFile)
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
  response.end(body)
})
server.listen(Number(port), '127.0.0.1')
process.on('SIGTERM', () => server.close(() => process.exit(0)))
