import t from 'tap'
import { monthPeriod } from '../../src/usage/period.js'

const DAY = 86_400

t.test('an ordinary month', async (t) => {
  const p = monthPeriod(new Date('2025-04-15T12:34:56.789Z'))
  t.equal(p.id, '2025-04')
  t.equal(p.start.toISOString(), '2025-04-01T00:00:00.000Z')
  t.equal(p.end.toISOString(), '2025-05-01T00:00:00.000Z')
  t.equal(p.secondsInPeriod, 30 * DAY)
  t.ok(Object.isFrozen(p))
})

t.test('month boundaries belong to the month they start', async (t) => {
  t.equal(monthPeriod(new Date('2025-05-01T00:00:00.000Z')).id, '2025-05')
  t.equal(monthPeriod(new Date('2025-04-30T23:59:59.999Z')).id, '2025-04')
  t.equal(monthPeriod(new Date('2025-01-31T23:59:59.999Z')).end.toISOString(), '2025-02-01T00:00:00.000Z')
})

t.test('December 31 23:59:59.999 UTC: the month ends at January 1 of the next year', async (t) => {
  const now = new Date('2024-12-31T23:59:59.999Z')
  const p = monthPeriod(now)
  t.equal(p.id, '2024-12')
  t.equal(p.start.toISOString(), '2024-12-01T00:00:00.000Z')
  t.equal(p.end.toISOString(), '2025-01-01T00:00:00.000Z')
  t.equal(p.secondsInPeriod, 31 * DAY)
  t.equal(p.secondsToReset(now), 1, 'a millisecond left rounds up to one second, never 0')
  const next = monthPeriod(new Date('2025-01-01T00:00:00.000Z'))
  t.equal(next.id, '2025-01')
  t.equal(next.start.getTime(), p.end.getTime(), 'periods are contiguous')
})

t.test('UTC, not local time: an instant late on the 31st in UTC-10 is already next month', async (t) => {
  // 2025-01-31T20:00-10:00 is 2025-02-01T06:00Z.
  t.equal(monthPeriod(new Date('2025-01-31T20:00:00-10:00')).id, '2025-02')
})

t.test('February in leap and common years', async (t) => {
  const leap = monthPeriod(new Date('2024-02-29T23:59:59.999Z'))
  t.equal(leap.id, '2024-02')
  t.equal(leap.end.toISOString(), '2024-03-01T00:00:00.000Z')
  t.equal(leap.secondsInPeriod, 29 * DAY)
  t.equal(monthPeriod(new Date('2025-02-10T00:00:00Z')).secondsInPeriod, 28 * DAY)
  t.equal(monthPeriod(new Date('2100-02-10T00:00:00Z')).secondsInPeriod, 28 * DAY, '2100 is not a leap year')
  t.equal(monthPeriod(new Date('2000-02-10T00:00:00Z')).secondsInPeriod, 29 * DAY, '2000 is')
})

t.test('every month of a year has the right length and the periods tile the year', async (t) => {
  const days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
  let at = new Date('2023-01-01T00:00:00Z')
  for (const [i, d] of days.entries()) {
    const p = monthPeriod(at)
    t.equal(p.id, `2023-${String(i + 1).padStart(2, '0')}`)
    t.equal(p.secondsInPeriod, d * DAY, p.id)
    at = p.end
  }
  t.equal(at.toISOString(), '2024-01-01T00:00:00.000Z')
})

t.test('secondsToReset', async (t) => {
  const p = monthPeriod(new Date('2025-03-10T00:00:00Z'))
  t.equal(p.secondsToReset(p.start), p.secondsInPeriod, 'a whole month at the start')
  t.equal(p.secondsToReset(new Date('2025-03-31T23:59:00Z')), 60)
  t.equal(p.secondsToReset(new Date('2025-03-31T23:58:59.001Z')), 61, 'rounded up')
  t.equal(p.secondsToReset(p.end), 0, 'zero at the reset')
  t.equal(p.secondsToReset(new Date('2025-04-02T00:00:00Z')), 0, 'never negative')
})

t.test('an invalid date is refused', async (t) => {
  t.throws(() => monthPeriod(new Date('nope')), RangeError)
})
