/**
 * The benchmark's wire timing (scripts/bench-wire.ts): pairing requests with answers in a pcap
 * capture, written here packet by packet, and a real capture of a real server with tcpdump when
 * this machine lets the test run it.
 */
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { createServer } from 'node:http'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { captureWire, summarize, wireLatencies } from '../../scripts/bench-wire.js'

const SERVER = 18_080

interface Packet {
  readonly seconds: number
  readonly from: number
  readonly to: number
  readonly payload: number
}

/** A pcap file of IPv4/TCP packets on Ethernet, in the byte order and timestamp precision given. */
function pcap(packets: readonly Packet[], options: { readonly bigEndian?: boolean; readonly nanoseconds?: boolean } = {}): Buffer {
  const u32 = (value: number): Buffer => {
    const b = Buffer.alloc(4)
    if (options.bigEndian === true) b.writeUInt32BE(value)
    else b.writeUInt32LE(value)
    return b
  }
  const fraction = options.nanoseconds === true ? 1e9 : 1e6
  const header = Buffer.concat([u32(options.nanoseconds === true ? 0xa1b23c4d : 0xa1b2c3d4), Buffer.alloc(12), u32(65535), u32(1)])
  const records = packets.map((p) => {
    const ethernet = Buffer.alloc(14)
    const ip = Buffer.alloc(20)
    ip[0] = 0x45
    ip.writeUInt16BE(20 + 20 + p.payload, 2)
    const tcp = Buffer.alloc(20)
    tcp.writeUInt16BE(p.from, 0)
    tcp.writeUInt16BE(p.to, 2)
    tcp[12] = 5 << 4
    // Captured as tcpdump -s 96 would: headers and the start of the payload only.
    const frame = Buffer.concat([ethernet, ip, tcp, Buffer.alloc(Math.min(p.payload, 42))])
    const whole = Math.floor(p.seconds)
    return Buffer.concat([u32(whole), u32(Math.round((p.seconds - whole) * fraction)), u32(frame.length), u32(14 + 40 + p.payload), frame])
  })
  return Buffer.concat([header, ...records])
}

const CONVERSATION: Packet[] = [
  { seconds: 1.0, from: 50_001, to: SERVER, payload: 120 }, // request 1, connection A
  { seconds: 1.0001, from: SERVER, to: 50_001, payload: 0 }, // an ACK: no data
  { seconds: 1.0002, from: 50_002, to: SERVER, payload: 120 }, // request 1, connection B
  { seconds: 1.0007, from: SERVER, to: 50_001, payload: 1800 }, // answer A1: 0.7 ms
  { seconds: 1.0008, from: SERVER, to: 50_001, payload: 900 }, // the rest of A1: nothing waits, skipped
  { seconds: 1.0012, from: 50_001, to: SERVER, payload: 120 }, // request 2, connection A
  { seconds: 1.0022, from: SERVER, to: 50_002, payload: 1800 }, // answer B1: 2.0 ms
  { seconds: 1.0027, from: SERVER, to: 50_001, payload: 1800 }, // answer A2: 1.5 ms
  { seconds: 1.003, from: 50_003, to: 9_999, payload: 100 }, // another port: ignored
]

t.test('pairs each request with the first data of its answer, per connection', async (t) => {
  const latencies = wireLatencies(pcap(CONVERSATION), SERVER)
  t.same(
    latencies.map((ms) => Number(ms.toFixed(3))),
    [0.7, 2, 1.5],
  )
  // Nearest rank of [0.7, 1.5, 2.0]: the median is the second, p99 the third.
  t.same(summarize(latencies), { pairs: 3, p50Ms: latencies[2], p99Ms: latencies[1], maxMs: latencies[1] })
})

t.test('reads either byte order and nanosecond timestamps', async (t) => {
  const expected = wireLatencies(pcap(CONVERSATION), SERVER).map((ms) => ms.toFixed(3))
  t.same(
    wireLatencies(pcap(CONVERSATION, { bigEndian: true }), SERVER).map((ms) => ms.toFixed(3)),
    expected,
  )
  t.same(
    wireLatencies(pcap(CONVERSATION, { bigEndian: true, nanoseconds: true }), SERVER).map((ms) => ms.toFixed(3)),
    expected,
  )
})

t.test('refuses what is not a pcap capture', async (t) => {
  t.throws(() => wireLatencies(Buffer.from('{"not":"pcap"}\n0123456789abcdef'), SERVER), /unknown magic number/)
  t.throws(() => wireLatencies(Buffer.alloc(8), SERVER), /too short/)
})

/** Whether tcpdump can capture here (installed, and this user may open lo). */
function tcpdumpRuns(): boolean {
  try {
    execFileSync('tcpdump', ['-i', 'lo', '-c', '1', '-w', '/dev/null', 'tcp port 1'], { stdio: 'ignore', timeout: 1_000 })
    return true
  } catch (error) {
    // No packet comes to port 1, so a tcpdump that may capture runs until the timeout stops it;
    // one that may not (or is missing) fails at once.
    return (error as NodeJS.ErrnoException).code === 'ETIMEDOUT'
  }
}

const canCapture = tcpdumpRuns()
t.test(
  'a real capture of a real server times every request',
  { skip: canCapture ? false : 'tcpdump is not installed or may not capture on lo here' },
  async (t) => {
    const server = createServer((_request, response) => setTimeout(() => response.end('ok'), 5))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    t.teardown(() => server.close())
    const { port } = server.address() as AddressInfo
    const dir = mkdtempSync(join(tmpdir(), 'pv-wire-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    const captured = await captureWire(port, join(dir, 'capture.pcap'), async () => {
      for (let i = 0; i < 20; i++) await (await fetch(`http://127.0.0.1:${port}/`)).text()
      return 'done'
    })
    if (!('wire' in captured)) return t.fail(`tcpdump ran above but not here: ${captured.unavailable}`)
    t.equal(captured.result, 'done')
    t.same([captured.wire.pairs, captured.wire.dropped], [20, 0], 'one pair per request, nothing dropped')
    t.ok(captured.wire.p50Ms >= 4, `each answer waited for the 5 ms timer (p50 ${captured.wire.p50Ms.toFixed(2)} ms)`)
  },
)
