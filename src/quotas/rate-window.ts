/**
 * In-process fixed one-second windows: the per-second rate limit's counts when there is no
 * Redis, and the local fallback while Redis cannot answer.
 */

/**
 * Counts hits per id in the current window only. Moving to a new window drops every count of
 * the old one, so memory is bounded by the ids seen in one second.
 */
export class MemoryRateWindow {
  #window = -1
  readonly #counts = new Map<string, number>()

  /**
   * Adds one hit for `id` in window `window` (a whole number that grows with time, e.g. the
   * epoch second) and returns the count in that window, this hit included.
   */
  hit(id: string, window: number): number {
    if (window !== this.#window) {
      this.#counts.clear()
      this.#window = window
    }
    const count = (this.#counts.get(id) ?? 0) + 1
    this.#counts.set(id, count)
    return count
  }
}
