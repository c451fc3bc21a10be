/**
 * A full garbage collection on demand, for the moment a first start has just dropped most of
 * what it allocated: after the seed (the parsed seed files, the content pipeline's work, the
 * insert batches). V8 reclaims that only when its heap limit or idle-time heuristics ask for
 * it, so the stores would otherwise load on top of the seed's garbage and raise the peak.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let collect: (() => void) | undefined

/**
 * The Node.js options the server is started with (`make run`, `npm start`, the container, the
 * benchmark), and the build's two seed steps (`make build`, the container's build stage): V8's
 * young generation capped at 8 MiB per semi-space instead of 16. It is sized once, when the
 * process starts (V8 ignores the option set at run time), and left at its default it grew to
 * 48 MiB under load and while the search index is built, all of it resident. Measured here: 4 MiB lowered the peaks most but cost MCP calls (which allocate a protocol server each)
 * 13% of their throughput; 8 MiB served about 8% more verse lookups and 15% more MCP calls per
 * second than the default (a young generation that stays in the CPU's caches), with most of the
 * memory saved (the first start's peak on PostgreSQL about 20 MiB lower).
 */
export const SERVER_NODE_FLAGS: readonly string[] = Object.freeze(['--max-semi-space-size=8'])

/**
 * How much V8 may grow the heap's limit after a full collection, in percent of what survived.
 * V8 chooses between 10% and 300% from its own estimate of GC speed; under an allocation-heavy
 * load (an MCP call builds a protocol server per request) it chose the top of that range and
 * the process peaked hundreds of megabytes above its live data. A small, fixed factor trades a
 * few more full collections for a resident peak near the live set.
 */
const HEAP_GROWING_PERCENT = 15

/**
 * Caps how far V8 raises the heap limit after each full collection (HEAP_GROWING_PERCENT). Call
 * it first thing in a long-running process, before the heap has grown.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}

/** Runs a full, compacting garbage collection (a pause of a few hundred milliseconds at most). */
export function collectGarbage(): void {
  if (collect === undefined) {
    // `gc` is installed in contexts created while the flag is on; the flag is turned off again
    // at once, so the application's own context never sees a global `gc`.
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('gc') as () => void
    setFlagsFromString('--no-expose-gc')
  }
  collect()
}
