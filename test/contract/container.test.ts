/**
 * The container image and the compose file stay true to the code they package: every path
 * the Dockerfile copies exists, it runs the built server as a non-root user with a health
 * check on /readyz, and every instance in compose.yaml has a configuration the server accepts,
 * on the compose file's own PostgreSQL and Redis, with a DATA_DIR of its own.
 *
 * No container runtime runs on the development machine (the Docker client is there, its daemon
 * is not), so the image is not built here; the same topology (instances on one PostgreSQL and
 * one Redis) runs as processes in test/meta/instances.test.ts.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import t from 'tap'
import { parse } from 'yaml'
import { loadConfig } from '../../src/config.js'
import { SERVER_NODE_FLAGS } from '../../src/infra/heap.js'
import { projectPath } from '../../src/infra/paths.js'

const dockerfile = readFileSync(projectPath('Dockerfile'), 'utf8')
/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'))
/** The instructions of each stage, its FROM first. */
const stages: string[][] = []
for (const line of instructions) {
  if (line.startsWith('FROM ')) stages.push([line])
  else stages.at(-1)?.push(line)
}

t.test('the Dockerfile builds in one stage and runs the built server, unprivileged, in a small one', async (t) => {
  t.ok(stages.length >= 2, 'multi-stage')
  const runtime = stages.at(-1) ?? []
  t.match(runtime[0], /^FROM node:20-[a-z]+-slim\b/, 'a slim Node 20 runtime (the engines field asks for >= 20)')
  t.ok(
    runtime.some((line) => /^USER (?!root\b|0\b)\S+/.test(line)),
    'a non-root user',
  )
  const healthcheck = runtime.find((line) => line.startsWith('HEALTHCHECK '))
  t.match(healthcheck, /\/readyz/, 'the health check asks /readyz')
  const cmd = runtime.find((line) => line.startsWith('CMD '))
  t.same(
    JSON.parse(cmd?.slice(4) ?? 'null'),
    ['node', ...SERVER_NODE_FLAGS, 'dist/server/server.js'],
    'the server the Makefile builds, with its Node.js options',
  )
  const started = `node ${SERVER_NODE_FLAGS.join(' ')} dist/server/server.js`
  t.ok(readFileSync(projectPath('Makefile'), 'utf8').includes(`\t${started}\n`), 'make run starts the same file with the same options')
  t.equal((JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start, started, 'and npm start')
  for (const step of ['seed-bundle', 'seeded-template']) {
    const line = `node ${SERVER_NODE_FLAGS.join(' ')} dist/scripts/${step}.js`
    t.ok(readFileSync(projectPath('Makefile'), 'utf8').includes(`\t${line}\n`), `make build runs ${step} with the same options`)
    t.ok(readFileSync(projectPath('Dockerfile'), 'utf8').includes(line), `and so does the image's build stage`)
  }
})

t.test('every path the Dockerfile copies from the sources exists', async (t) => {
  const copies = instructions.filter((line) => line.startsWith('COPY ') && !line.includes('--from='))
  t.ok(copies.length > 0)
  for (const line of copies) {
    const sources = line.split(/\s+/).slice(1, -1)
    for (const source of sources) if (source !== '.') t.ok(existsSync(projectPath(source)), `${source} exists`)
  }
  // What the runtime stage takes from the build stage: files of the repository or the build's outputs.
  const built = new Set(['node_modules', 'dist', 'generated'])
  for (const line of instructions.filter((l) => l.startsWith('COPY --from=build'))) {
    for (const source of line.split(/\s+/).slice(2, -1)) {
      const path = source.replace(/^\/app\//, '')
      t.ok(built.has(path) || existsSync(projectPath(path)), `${path} is built or committed`)
    }
  }
})

interface ComposeService {
  readonly image?: string
  readonly build?: unknown
  readonly environment?: Record<string, string>
  readonly volumes?: readonly string[]
  readonly depends_on?: Record<string, { condition: string }>
}

t.test('compose.yaml: PostgreSQL, Redis and two instances the server accepts, each with its own DATA_DIR', async (t) => {
  const compose = parse(readFileSync(projectPath('compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> }
  const services = compose.services
  t.match(services.postgres?.image, /^postgres:/)
  t.match(services.redis?.image, /^redis:/)
  const instances = Object.entries(services).filter(([, service]) => service.build !== undefined)
  t.equal(instances.length, 2, 'two instances built from this repository')
  const dataVolumes = new Set<string>()
  for (const [name, service] of instances) {
    const env = service.environment ?? {}
    // The real loader: a variable the server would refuse fails here, not at deploy time.
    const config = loadConfig({ ...env, DATA_DIR: '/var/lib/plainverse' })
    t.equal(new URL(config.databaseUrl ?? 'missing:').hostname, 'postgres', `${name} uses the compose PostgreSQL`)
    t.equal(new URL(config.redisUrl ?? 'missing:').hostname, 'redis', `${name} uses the compose Redis`)
    t.not(config.trustProxy, false, `${name} reads the client address from the load balancer`)
    t.same(Object.keys(service.depends_on ?? {}).sort(), ['postgres', 'redis'])
    const data = (service.volumes ?? []).find((volume) => volume.endsWith(':/var/lib/plainverse'))
    t.ok(data !== undefined, `${name} keeps DATA_DIR on a volume`)
    dataVolumes.add(data ?? '')
  }
  t.equal(dataVolumes.size, instances.length, 'each instance has its own DATA_DIR (the usage journal is per instance)')
})

t.test('the image itself, when a container runtime answers', async (t) => {
  let runtime = true
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 })
  } catch {
    runtime = false
  }
  if (!runtime) {
    t.comment(
      'no container runtime answers here (docker info failed): the image is not built; the topology is tested with processes (test/meta/instances.test.ts)',
    )
    return
  }
  execFileSync('docker', ['build', '-q', '-t', 'plainverse:test', projectPath()], { stdio: 'ignore', timeout: 1_800_000 })
  const user = execFileSync('docker', ['run', '--rm', '--entrypoint', 'id', 'plainverse:test', '-u'], { encoding: 'utf8' }).trim()
  t.not(user, '0', 'the image runs as a non-root user')
})
