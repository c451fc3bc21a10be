/** Reads the Prometheus text exposition format (0.0.4) the way a scraper would, for assertions. */

/** One sample line. */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

/** A whole exposition: its samples and the `# TYPE` of each family. */
export interface Exposition {
  readonly samples: readonly Sample[]
  readonly types: ReadonlyMap<string, string>
  /** Lines that are neither comments nor samples (a valid exposition has none). */
  readonly unreadable: readonly string[]
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g

function number(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY
  if (text === '-Inf') return Number.NEGATIVE_INFINITY
  return Number(text)
}

/**
 * Parses an exposition.
 * @example sampleOf(parseExposition(body), 'plainverse_quota_decisions_total', { outcome: 'consumed' })
 */
export function parseExposition(text: string): Exposition {
  const samples: Sample[] = []
  const types = new Map<string, string>()
  const unreadable: string[] = []
  for (const line of text.split('\n')) {
    if (line === '') continue
    const type = /^# TYPE (\S+) (\S+)$/.exec(line)
    if (type !== null) types.set(type[1] ?? '', type[2] ?? '')
    if (line.startsWith('#')) continue
    const match = SAMPLE.exec(line)
    if (match === null) {
      unreadable.push(line)
      continue
    }
    const labels: Record<string, string> = {}
    for (const label of (match[2] ?? '').matchAll(LABEL)) labels[label[1] ?? ''] = (label[2] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
    samples.push({ name: match[1] ?? '', labels, value: number(match[3] ?? '') })
  }
  return { samples, types, unreadable }
}

/** The value of the sample named `name` whose labels include `labels`; undefined when there is none. */
export function sampleOf(exposition: Exposition, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined {
  return exposition.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value
}
