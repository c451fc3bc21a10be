/** The JSON Lines exchange format shared by verse and narrative content. */

/** A rejected line of an import, with its 1-based line number. */
export interface RejectedLine {
  readonly line: number
  readonly reason: string
}

/**
 * Parses every non-blank line with `parseLine` (which returns the row or the reason it is
 * rejected), reporting problems by line number and rejecting a second line for the same key.
 * @param what names the key in the duplicate message, e.g. "verse, style and method".
 */
export function parseJsonlLines<T>(
  text: string,
  parseLine: (raw: string) => T | string,
  keyOf: (row: T) => string,
  what: string,
): { rows: T[]; rejected: RejectedLine[]; lines: number } {
  const rows: T[] = []
  const rejected: RejectedLine[] = []
  const seen = new Map<string, number>()
  let lines = 0
  text.split('\n').forEach((raw, index) => {
    const lineNumber = index + 1
    if (raw.trim() === '') return
    lines++
    const result = parseLine(raw)
    if (typeof result === 'string') return rejected.push({ line: lineNumber, reason: result })
    const key = keyOf(result)
    const first = seen.get(key)
    if (first !== undefined) return rejected.push({ line: lineNumber, reason: `duplicate of line ${first} (same ${what})` })
    seen.set(key, lineNumber)
    rows.push(result)
  })
  return { rows, rejected, lines }
}

/** What an import did (or, with dryRun, would do). */
export interface ImportReport {
  readonly lines: number
  readonly accepted: number
  readonly rejected: readonly RejectedLine[]
  /** False when anything was rejected (nothing is written) or for a dry run. */
  readonly written: boolean
}

/** Writes the parsed rows only when no line was rejected (and this is not a dry run): all lines or none. */
export async function importAllOrNothing<T>(
  parsed: { rows: T[]; rejected: RejectedLine[]; lines: number },
  dryRun: boolean,
  write: (rows: T[]) => Promise<void>,
): Promise<ImportReport> {
  const { rows, rejected, lines } = parsed
  const written = rejected.length === 0 && !dryRun && rows.length > 0
  if (written) await write(rows)
  return { lines, accepted: rows.length, rejected, written }
}
