/**
 * Free-text Bible references ("Jn 3:16", "1 Cor 13:4-7", "Romans 8:28, 31-39") read by
 * bible-passage-reference-parser, a maintained library that knows hundreds of book spellings
 * and the KJV versification; we only turn its OSIS output into verse-id ranges.
 */
import { bcv_parser } from 'bible-passage-reference-parser'
import { findBook } from '../verses/books.js'
import { verseId } from '../verses/verse.store.js'

// The English data is reached through a subpath pattern of the package's exports, which the
// TypeScript loader of our test runner cannot resolve; so it is imported by its file URL, next
// to the package's main module (the same file the pattern names).
const english = (await import(
  new URL('lang/en.js', import.meta.resolve('bible-passage-reference-parser')).href
)) as typeof import('bible-passage-reference-parser/esm/lang/en.js')

/** A run of verses by id, both ends included; the ends may lie in different books. */
export interface IdRange {
  readonly start: number
  readonly end: number
}

/** One reference the parser found in a text. */
export interface FoundReference {
  /** The words of the text that named it. */
  readonly text: string
  readonly ranges: readonly IdRange[]
}

/** Finds the references in free text; one parser instance, built once and reused (it is synchronous). */
export class ReferenceParser {
  private parser: bcv_parser | undefined

  /**
   * The parser, built on the first reference read rather than at start-up: it compiles large
   * patterns (tens of milliseconds, once), which a start would wait for while the verse lookups
   * it serves never need it.
   */
  private instance(): bcv_parser {
    this.parser ??= new bcv_parser(english).set_options({
      versification_system: 'kjv',
      // Always `Book.chapter.verse`, so every end point converts to a verse id the same way.
      osis_compaction_strategy: 'bcv',
      // "John 3:16, 17" stays two pieces; ranges are merged by the passage rules instead.
      consecutive_combination_strategy: 'separate',
      // "Genesis" alone means the whole book (and so is too long for a passage, but resolves).
      book_alone_strategy: 'full',
    })
    return this.parser
  }

  /**
   * Every reference in `text`, in order of appearance. References the parser cannot place in
   * the KJV (John 3:99) are left out.
   * @example new ReferenceParser().find('Read Jn 3:16') // [{ text: 'Jn 3:16', ranges: [{ start: 43003016, end: 43003016 }] }]
   */
  find(text: string): FoundReference[] {
    const parser = this.instance()
    parser.parse(text)
    const found: Array<{ start: number; end: number; ranges: IdRange[] }> = []
    for (const sequence of parser.parsed_entities()) {
      // The parser joins "Jn 3:16 and Romans 8:28, 31-39" into one sequence; a piece that
      // names its own book starts a new reference, the rest ("31-39") continue the last one.
      sequence.entities.forEach((piece: Piece, index: number) => {
        const ranges = osisRanges(piece.osis)
        const last = found[found.length - 1]
        if (index === 0 || last === undefined || namesBook(piece)) found.push({ start: piece.indices[0], end: piece.indices[1], ranges })
        else {
          last.end = piece.indices[1]
          last.ranges.push(...ranges)
        }
      })
    }
    return found.filter((f) => f.ranges.length > 0).map((f) => ({ text: text.slice(f.start, f.end), ranges: f.ranges }))
  }
}

/** What this module reads of one parsed piece of a sequence. */
interface Piece {
  readonly osis: string
  readonly indices: readonly [number, number]
  readonly type?: string
  readonly start: { readonly type?: string }
}

/** Whether a piece begins with a book name (`bcv`, `bc`, `b`… or a range starting with one). */
function namesBook(piece: Piece): boolean {
  const kind = piece.type === 'range' ? piece.start.type : piece.type
  return kind !== undefined && kind.startsWith('b')
}

/** `Rom.8.28,Rom.8.31-Rom.8.39` as id ranges; pieces that do not convert are dropped. */
function osisRanges(osis: string): IdRange[] {
  const ranges: IdRange[] = []
  for (const piece of osis.split(',')) {
    const [first = '', last = first] = piece.split('-')
    const start = osisVerseId(first)
    const end = osisVerseId(last)
    if (start !== undefined && end !== undefined) ranges.push({ start, end })
  }
  return ranges
}

function osisVerseId(osis: string): number | undefined {
  const match = /^([1-3]?[A-Za-z]+)\.(\d+)\.(\d+)$/.exec(osis)
  if (match === null) return undefined
  const book = findBook(match[1] ?? '')
  return book === undefined ? undefined : verseId(book.position, Number(match[2]), Number(match[3]))
}
