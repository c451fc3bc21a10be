/**
 * Keeps the hidden class of Node's `process.nextTick` queue entries alive for the life of the
 * process, so that V8 keeps defining their properties on its fast path.
 *
 * Why: `process.nextTick` makes each queue entry with an object literal whose first two keys are
 * computed (Node's async-id symbols). For such a key V8 records the one map (hidden class) it
 * has seen, weakly; once a garbage collection finds no entry alive, that map is collected, the
 * next entry is built with a new one, and V8 marks the site megamorphic for good: from then on
 * every entry's properties are defined through V8's runtime, a C++ call each. Node's streams
 * queue several entries per HTTP request. In the server this happened soon after start-up: with
 * V8's memory reducer (once the process went idle), and with the reducer off, after the search
 * index was built. `perf` then put 8 to 9% of the process's CPU under a verse lookup load in
 * that runtime call; with one entry held here, none (README, Benchmark).
 * A live entry keeps its map alive, and with it the maps it was built through.
 */
import { createHook } from 'node:async_hooks'

let kept: object | undefined

/** What the held entry runs, if anything ever ran it: nothing. */
function nothing(): void {}

/**
 * Holds one `process.nextTick` queue entry for the rest of the process (see above); call it
 * once, early in a long-running process. Returns the entry held (the same one on every call),
 * or undefined if this Node.js makes no such entries visible to async hooks.
 */
export function keepTickEntryShape(): object | undefined {
  if (kept !== undefined) return kept
  // The entry is the resource async hooks are told about when it is made; the hook is on for
  // that one call only (while any hook is on, Node does more work per asynchronous resource).
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && kept === undefined) kept = resource
    },
  })
  hook.enable()
  try {
    process.nextTick(nothing)
  } finally {
    hook.disable()
  }
  return kept
}
