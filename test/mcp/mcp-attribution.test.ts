/** Which AI client a request names: clientInfo on the request itself, else the one its initialize named, else User-Agent, else `unknown`. */
import t from 'tap'
import { CLIENT_INFO_META_KEY, ClientMemory, clientOf } from '../../src/mcp/mcp.attribution.js'

t.test('clientOf', async (t) => {
  const meta = (info: unknown): unknown => ({ name: 'get_verse', _meta: { [CLIENT_INFO_META_KEY]: info } })
  t.equal(clientOf('tools/call', meta({ name: 'claude-ai', version: '0.1.0' }), 'node'), 'claude-ai/0.1.0', 'clientInfo in _meta wins over the User-Agent')
  t.equal(clientOf('tools/call', meta({ name: 'cursor' }), 'node'), 'cursor', 'a name without a version')
  t.equal(clientOf('initialize', { clientInfo: { name: 'inspector', version: '2' } }, 'node'), 'inspector/2', 'initialize names itself in params')
  t.equal(
    clientOf('tools/call', { name: 'get_verse' }, 'Claude-User/1.0 (+https://example.org)'),
    'Claude-User/1.0 (+https://example.org)',
    'else the User-Agent',
  )
  t.equal(clientOf('tools/call', { name: 'get_verse' }, undefined), 'unknown', 'else unknown')
  t.equal(clientOf('tools/call', { name: 'get_verse' }, '   '), 'unknown')
  for (const bad of [null, 'claude', 7, [], { name: '' }, { name: 7, version: '1' }, { version: '1' }]) {
    t.equal(clientOf('tools/call', meta(bad), 'agent/1'), 'agent/1', `malformed clientInfo ${JSON.stringify(bad)} falls back`)
  }
  t.equal(clientOf('tools/call', undefined, 'agent/1'), 'agent/1', 'no params')
  t.equal(clientOf('tools/call', meta({ name: 'a\tb\nc\u0000', version: ' 1 ' }), undefined), 'a b c/1', 'control characters become spaces')
  const long = clientOf('tools/call', meta({ name: 'x'.repeat(500) }), undefined)
  t.equal(long.length, 200, 'long names are cut')
  t.equal(
    clientOf('tools/call', { _meta: Object.assign(Object.create({ [CLIENT_INFO_META_KEY]: { name: 'inherited' } }) as object, {}) }, 'ua'),
    'ua',
    'only own members count',
  )
})

t.test('ClientMemory: the clientInfo of initialize, by key and User-Agent', async (t) => {
  const memory = new ClientMemory(2)
  memory.remember('key-1', 'node', 'initialize', { clientInfo: { name: 'claude-desktop', version: '0.9' } })
  t.equal(memory.recall('key-1', 'node'), 'claude-desktop/0.9')
  t.equal(memory.recall('key-1', 'curl/8'), undefined, 'another User-Agent is another client')
  t.equal(memory.recall('key-2', 'node'), undefined, 'another key is another client')
  memory.remember('key-1', 'node', 'tools/call', { name: 'get_verse', clientInfo: { name: 'sneaky', version: '1' } })
  t.equal(memory.recall('key-1', 'node'), 'claude-desktop/0.9', 'only initialize names a client for later calls')
  memory.remember('key-1', 'node', 'initialize', { clientInfo: { name: 'cursor', version: '2' } })
  t.equal(memory.recall('key-1', 'node'), 'cursor/2', 'the last initialize wins')
  memory.remember('key-1', 'node', 'initialize', { clientInfo: 'not an object' })
  t.equal(memory.recall('key-1', 'node'), 'cursor/2', 'an initialize without a usable clientInfo changes nothing')
  memory.remember('key-2', undefined, 'initialize', { clientInfo: { name: 'b' } })
  memory.remember('key-3', undefined, 'initialize', { clientInfo: { name: 'c' } })
  t.equal(memory.recall('key-1', 'node'), undefined, 'the least recently initialized is forgotten beyond the capacity')
  t.equal(memory.recall('key-3', undefined), 'c')
  t.equal(clientOf('tools/call', { name: 'get_verse' }, 'node', 'cursor/2'), 'cursor/2', 'the remembered name comes before the User-Agent')
  t.equal(
    clientOf('tools/call', { _meta: { [CLIENT_INFO_META_KEY]: { name: 'per-call' } } }, 'node', 'cursor/2'),
    'per-call',
    'a name on the call itself comes first',
  )
})
