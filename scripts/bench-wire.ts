/**
 * The server's own latency, seen from the wire: `make bench` records one extra round of the
 * verse lookup with tcpdump on the loopback interface and times each request from the packet
 * that carried it to the first packet of its answer. wrk's latency also holds the time wrk's
 * own threads wait for a core (on 2 cores they share the machine with the server); the packet
 * times leave that out, so the two figures side by side say how much of a tail is the
 * generator's. Measured in a round of its own because tcpdump takes CPU from both.
 */
import { spawn } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { once } from 'node:events'

/** Link-layer header lengths of the captures tcpdump makes on `lo` (Ethernet, Linux cooked v1 and v2). */
const LINK_HEADER: Readonly<Record<number, number>> = { 1: 14, 113: 16, 276: 20 }

/** Latency percentiles in milliseconds, and how many request/answer pairs they came from. */
export interface WireLatency {
  readonly pairs: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
}

/** A capture's latencies, and the packets tcpdump could not keep (a dropped answer pairs its request with the next one). */
export interface WireCapture extends WireLatency {
  readonly dropped: number
}

/**
 * Pairs each request to `port` with the answer that follows it on the same connection and
 * returns the times between them, in milliseconds. A request is the first data segment the
 * client sends after the previous answer began; an answer is the first data segment from the
 * server while a request waits (the rest of a long answer, with nothing waiting, is skipped).
 * Reads classic pcap files (microsecond or nanosecond timestamps, either byte order), IPv4.
 * @example wireLatencies(readFileSync('capture.pcap'), 18080) // [0.61, 0.58, ...]
 */
export function wireLatencies(pcap: Buffer, port: number): number[] {
  if (pcap.length < 24) throw new Error('not a pcap file: too short')
  const magicLE = pcap.readUInt32LE(0)
  const littleEndian = magicLE === 0xa1b2c3d4 || magicLE === 0xa1b23c4d
  const magic = littleEndian ? magicLE : pcap.readUInt32BE(0)
  if (magic !== 0xa1b2c3d4 && magic !== 0xa1b23c4d) throw new Error('not a pcap file: unknown magic number')
  const fraction = magic === 0xa1b23c4d ? 1e9 : 1e6
  const u32 = (at: number): number => (littleEndian ? pcap.readUInt32LE(at) : pcap.readUInt32BE(at))
  const linkType = u32(20) & 0xffff
  const linkHeader = LINK_HEADER[linkType]
  if (linkHeader === undefined) throw new Error(`pcap link type ${linkType} is not supported`)
  // Per client port: when the request now waiting was sent (undefined: none waits).
  const waiting = new Map<number, number>()
  const latencies: number[] = []
  for (let at = 24; at + 16 <= pcap.length;) {
    const seconds = u32(at) + u32(at + 4) / fraction
    const captured = u32(at + 8)
    const packet = pcap.subarray(at + 16 + linkHeader, at + 16 + captured)
    at += 16 + captured
    if (packet.length < 20 || packet.readUInt8(0) >> 4 !== 4) continue
    const ipHeader = (packet.readUInt8(0) & 0x0f) * 4
    const tcp = packet.subarray(ipHeader)
    if (tcp.length < 14) continue
    const payload = packet.readUInt16BE(2) - ipHeader - (tcp.readUInt8(12) >> 4) * 4
    if (payload <= 0) continue
    const source = tcp.readUInt16BE(0)
    const destination = tcp.readUInt16BE(2)
    if (destination === port) {
      if (!waiting.has(source)) waiting.set(source, seconds)
    } else if (source === port) {
      const sent = waiting.get(destination)
      if (sent === undefined) continue
      latencies.push((seconds - sent) * 1000)
      waiting.delete(destination)
    }
  }
  return latencies
}

/** p50, p99 and the maximum of latencies (nearest rank). */
export function summarize(latencies: readonly number[]): WireLatency {
  const sorted = [...latencies].sort((a, b) => a - b)
  const rank = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  return { pairs: sorted.length, p50Ms: rank(50), p99Ms: rank(99), maxMs: sorted[sorted.length - 1] ?? Number.NaN }
}

/**
 * Runs `load` while tcpdump records the traffic to `port` on `lo` into `file`, then reads the
 * capture. When tcpdump is missing or may not capture (it needs root or CAP_NET_RAW), `load`
 * still runs and the answer says why there is no capture: the rest of the benchmark does not
 * depend on it.
 */
export async function captureWire<T>(
  port: number,
  file: string,
  load: () => Promise<T>,
): Promise<{ result: T; wire: WireCapture } | { result: T; unavailable: string }> {
  // Headers only (96 bytes a packet): the lengths and ports are all the pairing reads. Immediate
  // mode, or the packets of the last, unfilled buffer block are lost when tcpdump is stopped.
  const tcpdump = spawn('tcpdump', ['-i', 'lo', '-s', '96', '-B', '65536', '--immediate-mode', '-n', '-w', file, `tcp port ${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  const listening = new Promise<string | undefined>((resolve) => {
    tcpdump.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ENOENT' ? 'tcpdump is not installed: apt-get install tcpdump' : error.message),
    )
    tcpdump.once('exit', (code) => resolve(`tcpdump exited with ${code}: ${stderr.trim()}`))
    tcpdump.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      if (stderr.includes('listening on')) resolve(undefined)
    })
  })
  const failed = await listening
  if (failed !== undefined) return { result: await load(), unavailable: failed }
  try {
    const result = await load()
    const exited = once(tcpdump, 'exit')
    tcpdump.kill('SIGINT')
    await exited
    const dropped = Number(/(\d+) packets? dropped by kernel/.exec(stderr)?.[1] ?? 0)
    return { result, wire: { ...summarize(wireLatencies(readFileSync(file), port)), dropped } }
  } finally {
    if (tcpdump.exitCode === null) tcpdump.kill('SIGKILL')
    rmSync(file, { force: true })
  }
}
