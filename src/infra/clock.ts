/** Time, passed in so that tests can control it. */

/** A source of the current time. */
export interface Clock {
  now(): Date
}

/** The system clock. */
export const systemClock: Clock = Object.freeze({ now: () => new Date() })
