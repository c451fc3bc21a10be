/** Time, passed in so that tests can control it. */

/** A source of the current time. */
export interface Clock {
  now(): Date
  /**
   * The current time in epoch ms without making a Date (the request hot path reads the clock
   * several times); clocks without it are read through `now()`.
   */
  nowMs?(): number
}

/** The system clock. */
export const systemClock: Clock = Object.freeze({ now: () => new Date(), nowMs: Date.now })

/**
 * The clock's current time in epoch ms.
 * @example epochMs(systemClock) // Date.now()
 */
export function epochMs(clock: Clock): number {
  return clock.nowMs === undefined ? clock.now().getTime() : clock.nowMs()
}
