/**
 * Where the coverage report's figures come from: the content files shipped in the
 * repository, or a database's content tables. Both are turned into the same input for
 * {@link contentCoverage}, so the two reports differ only by what each source holds.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { StructuredVerse } from '../verses/verse.store.js'
import { parseVerseSlug } from '../verses/slug.js'
import type { StoredNarrativeContent } from '../narratives/narrative-content.repository.js'
import type { StyleContent } from './content.store.js'
import { filledFields, type CoverageInput, type CoverageLine, type NarrativeCoverageLine } from './coverage.js'

/** The shipped files the report reads, as absolute paths. */
export interface ShippedFiles {
  /** db/content/verses: one JSONL file per chapter. */
  readonly verseDir: string
  /** db/narratives/narratives.json: every narrative's slug. */
  readonly narratives: string
  /** db/content/narratives.jsonl. */
  readonly narrativeContent: string
}

/** The slugs of db/narratives/narratives.json. */
function narrativeSlugs(path: string): string[] {
  const table = JSON.parse(readFileSync(path, 'utf8')) as Array<{ slug: string }>
  return table.map((narrative) => narrative.slug)
}

/** The non-blank lines of a JSONL file, parsed. */
function jsonLines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

/** The style of a parsed line, or undefined for anything else. */
function styleOf(value: unknown): 'faithful' | 'casual' | undefined {
  return value === 'faithful' || value === 'casual' ? value : undefined
}

/** A string field of a parsed line, or undefined. */
function text(line: Record<string, unknown>, name: string): string | undefined {
  const value = line[name]
  return typeof value === 'string' ? value : undefined
}

/**
 * The coverage input of the shipped files, with the KJV's verses for the totals. A line
 * whose slug names no verse or whose style is unknown is skipped: the seed and the tests
 * reject such files, and the report only counts.
 */
export function shippedCoverageInput(verses: readonly StructuredVerse[], files: ShippedFiles): CoverageInput {
  const lines: CoverageLine[] = []
  for (const name of readdirSync(files.verseDir)
    .filter((file) => file.endsWith('.jsonl'))
    .sort()) {
    for (const line of jsonLines(join(files.verseDir, name))) {
      const address = parseVerseSlug(text(line, 'slug') ?? '')
      const style = styleOf(line.style)
      if (address === undefined || style === undefined) continue
      const fields = filledFields({
        simplified_text: text(line, 'simplified_text'),
        bottom_line: text(line, 'bottom_line'),
        historical_context: text(line, 'historical_context'),
        practical_reflection: text(line, 'practical_reflection'),
      })
      lines.push({ book: address.book.position, chapter: address.chapter, verse: address.verse, style, fields })
    }
  }
  const narrativeLines: NarrativeCoverageLine[] = []
  for (const line of jsonLines(files.narrativeContent)) {
    const style = styleOf(line.style)
    const narrative = text(line, 'narrative')
    if (style === undefined || narrative === undefined) continue
    narrativeLines.push({ narrative, style, summary: (text(line, 'summary') ?? '').trim() !== '', bottomLine: (text(line, 'bottom_line') ?? '').trim() !== '' })
  }
  return { verseBooks: verses.map((verse) => verse.book), lines, narratives: narrativeSlugs(files.narratives), narrativeLines }
}

/**
 * The coverage input of a database's content tables, as its repositories list them:
 * curated and generated rows (the modernized rows every verse has are left out), with the
 * KJV's verses to place them.
 */
export function databaseCoverageInput(
  rows: readonly StyleContent[],
  narrativeRows: readonly StoredNarrativeContent[],
  verses: readonly StructuredVerse[],
  narrativesFile: string,
): CoverageInput {
  const byId = new Map(verses.map((verse) => [verse.id, verse]))
  const lines: CoverageLine[] = []
  for (const row of rows) {
    const verse = byId.get(row.verseId)
    if (row.method === 'modernized' || verse === undefined) continue
    const fields = filledFields({
      simplified_text: row.simplifiedText,
      bottom_line: row.bottomLine,
      historical_context: row.historicalContext,
      practical_reflection: row.practicalReflection,
    })
    lines.push({ book: verse.book, chapter: verse.chapter, verse: verse.verse, style: row.style, fields })
  }
  const narrativeLines = narrativeRows.map((row) => ({
    narrative: row.slug,
    style: row.style,
    summary: row.summary.trim() !== '',
    bottomLine: row.bottomLine.trim() !== '',
  }))
  return { verseBooks: verses.map((verse) => verse.book), lines, narratives: narrativeSlugs(narrativesFile), narrativeLines }
}
