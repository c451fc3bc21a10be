/**
 * The rules of stored content: the JSONL exchange format (import and export), validation of
 * every line, all-or-nothing writes, content hashes, and the modernized faithful text that
 * every verse gets when nothing better exists.
 */
import { createHash } from 'node:crypto'
import { parseVerseSlug, verseSlug } from '../../verses/slug.js'
import { bookAt } from '../../verses/books.js'
import type { VerseStore } from '../../verses/verse.store.js'
import type { ContentRepository } from '../content.repository.js'
import type { ContentMethod, Style, StoredContent, StyleContent } from '../content.store.js'
import { modernize } from './modernizer.js'
import { importAllOrNothing, parseJsonlLines, type ImportReport, type RejectedLine } from './jsonl.js'
import { formatIssue } from '../../text/issues.js'
import { parseProvenance } from './provenance.js'
import { STYLE_FIELDS, validateContent, type ValidationLevel } from './validation.js'

export type { ImportReport, RejectedLine }

/** Version of the deterministic modernizer; bump it when its output changes. */
export const MODERNIZER_VERSION = 'modernizer-4'

/** One line of the exchange format. */
export interface ContentLine {
  readonly slug: string
  readonly style: Style
  readonly simplified_text: string
  readonly bottom_line: string
  readonly historical_context?: string
  readonly practical_reflection?: string
  readonly provenance: { readonly method: ContentMethod; readonly model: string | null; readonly prompt_version: string }
}

const IMPORTABLE_METHODS: readonly ContentMethod[] = ['curated', 'generated']

/** The hash that identifies a piece of content's text. */
export function contentHash(fields: {
  simplifiedText: string | null
  bottomLine: string | null
  historicalContext: string | null
  practicalReflection: string | null
}): string {
  return createHash('sha256')
    .update(JSON.stringify([fields.simplifiedText, fields.bottomLine, fields.historicalContext, fields.practicalReflection]))
    .digest('hex')
}

/** Content import, export and derivation. */
export class ContentService {
  constructor(
    private readonly repository: ContentRepository,
    private readonly verses: VerseStore,
  ) {}

  /**
   * Parses and validates JSONL text; every line is checked, and problems are reported by line.
   * @param options.level the rules to apply (see ValidationLevel): `storage` by default, the
   *   rules of the seed and of imports; the shipped-content test asks for `editorial`.
   */
  parse(text: string, options: { readonly level?: ValidationLevel } = {}): { rows: StoredContent[]; rejected: RejectedLine[]; lines: number } {
    const level = options.level ?? 'storage'
    return parseJsonlLines(
      text,
      (raw) => this.parseLine(raw, level),
      (row) => `${row.verseId}:${row.style}:${row.method}`,
      'verse, style and method',
    )
  }

  /** Imports JSONL text: all lines or none; idempotent (the same line twice changes nothing). */
  async import(text: string, options: { dryRun: boolean }): Promise<ImportReport> {
    return importAllOrNothing(this.parse(text), options.dryRun, (rows) => this.repository.transaction((repository) => repository.upsertMany(rows)))
  }

  /** Stored curated and generated content as JSONL lines, in canonical order. */
  async export(style: Style | undefined): Promise<string[]> {
    const rows = await this.repository.listByMethod(IMPORTABLE_METHODS, style)
    return rows.map((row) => JSON.stringify(this.toLine(row)))
  }

  /** Stores one validated piece of generated content. */
  async storeGenerated(verseId: number, style: Style, fields: Record<string, string>, model: string, promptVersion: string): Promise<void> {
    const row = this.toRow(verseId, style, fields, 'generated', model, promptVersion)
    await this.repository.upsertMany([row])
  }

  /** The modernized faithful text of every verse (method `modernized`). */
  modernizedRows(): StoredContent[] {
    const rows: StoredContent[] = []
    for (const verse of this.verses.all()) {
      rows.push(this.toRow(verse.id, 'faithful', { simplified_text: modernize(verse.text) }, 'modernized', null, MODERNIZER_VERSION))
    }
    return rows
  }

  private parseLine(raw: string, level: ValidationLevel): StoredContent | string {
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      return 'not valid JSON'
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object'
    const { slug, style, provenance, ...fields } = value as Record<string, unknown>
    if (typeof slug !== 'string') return 'slug is missing'
    const address = parseVerseSlug(slug)
    const verse = address && this.verses.get(address.book.position, address.chapter, address.verse)
    if (verse === undefined) return `slug ${JSON.stringify(slug.slice(0, 60))} names no verse`
    if (style !== 'faithful' && style !== 'casual') return 'style must be faithful or casual'
    const origin = parseProvenance(provenance)
    if (typeof origin === 'string') return origin
    const issues = validateContent(style, fields, verse.text, { level })
    if (issues.length > 0) return issues.map(formatIssue).join('; ')
    return this.toRow(verse.id, style, fields as Record<string, string>, origin.method, origin.model, origin.promptVersion)
  }

  private toRow(
    verseId: number,
    style: Style,
    fields: Record<string, string>,
    method: ContentMethod,
    model: string | null,
    promptVersion: string,
  ): StoredContent {
    const text = (name: string): string | null => (typeof fields[name] === 'string' ? (fields[name] as string).trim() : null)
    const body = {
      simplifiedText: text('simplified_text'),
      bottomLine: text('bottom_line'),
      historicalContext: style === 'faithful' ? text('historical_context') : null,
      practicalReflection: style === 'faithful' ? text('practical_reflection') : null,
    }
    return { verseId, style, method, model, promptVersion, ...body, contentHash: contentHash(body) }
  }

  private toLine(row: StyleContent): ContentLine {
    const verse = this.verses.byVerseId(row.verseId)
    const book = verse === undefined ? undefined : bookAt(verse.book)
    if (verse === undefined || book === undefined) throw new Error(`content for unknown verse ${row.verseId}`)
    const fields: Record<string, string> = {}
    for (const name of STYLE_FIELDS[row.style]) {
      const value = {
        simplified_text: row.simplifiedText,
        bottom_line: row.bottomLine,
        historical_context: row.historicalContext,
        practical_reflection: row.practicalReflection,
      }[name]
      if (value !== null && value !== undefined) fields[name] = value
    }
    return {
      slug: verseSlug(book, verse.chapter, verse.verse),
      style: row.style,
      ...(fields as Pick<ContentLine, 'simplified_text' | 'bottom_line'>),
      provenance: { method: row.method, model: row.model, prompt_version: row.promptVersion },
    }
  }
}
