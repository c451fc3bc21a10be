/**
 * How much of the Bible has written content: verses with faithful and with casual content,
 * each field of each style, by testament and by book, and the Gospel narratives with a
 * summary and a bottom line in each style. The modernized text is not counted: every verse
 * has it, and it is what a reader gets when nothing here exists.
 *
 * Pure: the caller reads the shipped files or a database and passes what it found, so the
 * same figures come out for both sources.
 */
import { BOOKS } from '../verses/books.js'
import type { Style } from './content.store.js'

/** The fields of each style, in the order the report lists them. */
export const COVERAGE_FIELDS = {
  faithful: ['simplified_text', 'bottom_line', 'historical_context', 'practical_reflection'],
  casual: ['simplified_text', 'bottom_line'],
} as const satisfies Record<Style, readonly string[]>

/** One field of verse content, as the exchange format names it. */
export type CoverageField = (typeof COVERAGE_FIELDS)[Style][number]

/** One written piece of verse content: which verse, which style, and the fields it fills. */
export interface CoverageLine {
  /** The verse's book, 1 to 66. */
  readonly book: number
  /** Chapter and verse, which with the book name the verse. */
  readonly chapter: number
  readonly verse: number
  readonly style: Style
  /** The fields with a non-empty value. */
  readonly fields: readonly CoverageField[]
}

/** One written piece of narrative content. */
export interface NarrativeCoverageLine {
  readonly narrative: string
  readonly style: Style
  readonly summary: boolean
  readonly bottomLine: boolean
}

/** A count with its share of a total, from 0 to 1 (0 when the total is 0). */
export interface Share {
  readonly count: number
  readonly share: number
}

/** The coverage of one style in a group of verses. */
export interface StyleCoverage {
  /** Verses with at least one piece of content in the style. */
  readonly verses: Share
  /** Verses with each field of the style filled. */
  readonly fields: Readonly<Partial<Record<CoverageField, Share>>>
}

/** The coverage of a group of verses: the whole Bible, a testament or a book. */
export interface GroupCoverage {
  readonly name: string
  /** Verses in the group (the KJV's). */
  readonly total: number
  readonly faithful: StyleCoverage
  readonly casual: StyleCoverage
}

/** The narratives with a summary and with a bottom line in one style. */
export interface NarrativeStyleCoverage {
  readonly summary: Share
  readonly bottomLine: Share
}

/** The whole coverage report of one source. */
export interface ContentCoverage {
  readonly all: GroupCoverage
  /** Old Testament, then New Testament. */
  readonly testaments: readonly GroupCoverage[]
  /** The 66 books in canonical order. */
  readonly books: readonly GroupCoverage[]
  readonly narratives: { readonly total: number; readonly faithful: NarrativeStyleCoverage; readonly casual: NarrativeStyleCoverage }
}

/** What the coverage is computed from. */
export interface CoverageInput {
  /** The book (1 to 66) of every verse of the KJV, one entry per verse. */
  readonly verseBooks: Iterable<number>
  readonly lines: Iterable<CoverageLine>
  /** The slugs of all narratives. */
  readonly narratives: readonly string[]
  readonly narrativeLines: Iterable<NarrativeCoverageLine>
}

function share(count: number, total: number): Share {
  return { count, share: total === 0 ? 0 : count / total }
}

/** Counts per style: verses with content and verses per field, keyed by verse. */
class StyleTally {
  readonly verses = new Set<string>()
  readonly fields = new Map<CoverageField, Set<string>>()

  add(key: string, fields: readonly CoverageField[]): void {
    this.verses.add(key)
    for (const field of fields) {
      const set = this.fields.get(field) ?? new Set<string>()
      set.add(key)
      this.fields.set(field, set)
    }
  }

  coverage(style: Style, total: number): StyleCoverage {
    const fields: Partial<Record<CoverageField, Share>> = {}
    for (const field of COVERAGE_FIELDS[style]) fields[field] = share(this.fields.get(field)?.size ?? 0, total)
    return { verses: share(this.verses.size, total), fields }
  }
}

/** A group's tallies for both styles. */
class GroupTally {
  total = 0
  readonly styles: Record<Style, StyleTally> = { faithful: new StyleTally(), casual: new StyleTally() }

  coverage(name: string): GroupCoverage {
    return {
      name,
      total: this.total,
      faithful: this.styles.faithful.coverage('faithful', this.total),
      casual: this.styles.casual.coverage('casual', this.total),
    }
  }
}

/**
 * Counts the verses and narratives with content. A verse counts once per style however
 * many pieces it has (a curated and a generated one, say); a field counts when any of them
 * fills it. Lines for a book outside 1 to 66 are ignored.
 * @example contentCoverage({ verseBooks: [1, 1], lines: [{ book: 1, chapter: 1, verse: 1, style: 'casual', fields: ['simplified_text'] }], narratives: [], narrativeLines: [] }).all.casual.verses // { count: 1, share: 0.5 }
 */
export function contentCoverage(input: CoverageInput): ContentCoverage {
  const all = new GroupTally()
  const testaments = { old: new GroupTally(), new: new GroupTally() }
  const books = BOOKS.map(() => new GroupTally())
  const groupsOf = (book: number): GroupTally[] => {
    const info = BOOKS[book - 1]
    const tally = books[book - 1]
    return info === undefined || tally === undefined ? [] : [all, testaments[info.testament], tally]
  }
  for (const book of input.verseBooks) for (const group of groupsOf(book)) group.total += 1
  for (const line of input.lines) {
    const key = `${line.book}:${line.chapter}:${line.verse}`
    for (const group of groupsOf(line.book)) group.styles[line.style].add(key, line.fields)
  }
  const narrativeSets = {
    faithful: { summary: new Set<string>(), bottomLine: new Set<string>() },
    casual: { summary: new Set<string>(), bottomLine: new Set<string>() },
  }
  const known = new Set(input.narratives)
  for (const line of input.narrativeLines) {
    if (!known.has(line.narrative)) continue
    if (line.summary) narrativeSets[line.style].summary.add(line.narrative)
    if (line.bottomLine) narrativeSets[line.style].bottomLine.add(line.narrative)
  }
  const total = known.size
  const narrativeStyle = (style: Style): NarrativeStyleCoverage => ({
    summary: share(narrativeSets[style].summary.size, total),
    bottomLine: share(narrativeSets[style].bottomLine.size, total),
  })
  return {
    all: all.coverage('All books'),
    testaments: [testaments.old.coverage('Old Testament'), testaments.new.coverage('New Testament')],
    books: books.map((tally, index) => tally.coverage(BOOKS[index]?.name ?? String(index + 1))),
    narratives: { total, faithful: narrativeStyle('faithful'), casual: narrativeStyle('casual') },
  }
}

/** The fields of a piece of content that hold text, by the exchange format's names. */
export function filledFields(values: Readonly<Partial<Record<CoverageField, string | null | undefined>>>): CoverageField[] {
  const names: readonly CoverageField[] = COVERAGE_FIELDS.faithful
  return names.filter((name) => {
    const value = values[name]
    return typeof value === 'string' && value.trim() !== ''
  })
}
