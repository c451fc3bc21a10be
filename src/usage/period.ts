/**
 * The calendar month (UTC) that usage is recorded in: the ledger's period, which the quota
 * counters and the reports follow.
 */

/** A calendar month in UTC, the period a monthly quota is counted in. */
export interface MonthPeriod {
  /** `YYYY-MM`, used in counter keys and the ledger. */
  readonly id: string
  /** First instant of the month (UTC). */
  readonly start: Date
  /** First instant of the next month (UTC): exclusive end, when the quota resets. */
  readonly end: Date
  /** Length of the month in seconds (28, 29, 30 or 31 days). */
  readonly secondsInPeriod: number
  /**
   * Whole seconds until the reset, rounded up so that a client told to wait that long never
   * retries while the period is still running; 0 once the period is over.
   */
  secondsToReset(now: Date): number
}

/**
 * The calendar month (UTC) that contains `now`.
 *
 * `Date.UTC` normalises month 12 to January of the next year, which covers December → January
 * and leap years without special cases.
 *
 * @param now - The instant to place; must be a valid Date.
 * @returns The month's id, bounds, length and a reset-countdown helper.
 * @throws RangeError if `now` is an invalid Date.
 */
export function monthPeriod(now: Date): MonthPeriod {
  const ms = now.getTime()
  if (!Number.isFinite(ms)) throw new RangeError('monthPeriod: invalid date')
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth()
  const start = new Date(Date.UTC(year, month, 1))
  const end = new Date(Date.UTC(year, month + 1, 1))
  const endMs = end.getTime()
  return Object.freeze({
    id: `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}`,
    start,
    end,
    secondsInPeriod: (endMs - start.getTime()) / 1000,
    secondsToReset(at: Date): number {
      return Math.max(0, Math.ceil((endMs - at.getTime()) / 1000))
    },
  })
}
