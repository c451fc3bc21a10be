/**
 * Seeded randomness for fuzz tests: every run prints its seed (in the test's name), and
 * FUZZ_SEED=<seed> replays a failing run exactly.
 */

/** The seed of this run: FUZZ_SEED when set, otherwise a fresh one. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000)

/**
 * mulberry32: a small seeded PRNG, uniform in [0, 1) like Math.random.
 * @example const random = rng(FUZZ_SEED); random() // 0.37...
 */
export function rng(seed: number = FUZZ_SEED): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}
