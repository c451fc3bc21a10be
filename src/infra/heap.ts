/**
 * A full garbage collection on demand, for the moment a first start has just dropped most of
 * what it allocated: after the seed (the parsed seed files, the content pipeline's work, the
 * insert batches). V8 reclaims that only when its heap limit or idle-time heuristics ask for
 * it, so the stores would otherwise load on top of the seed's garbage and raise the peak.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let collect: (() => void) | undefined

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
