/**
 * The rules of stored narrative content, mirroring ContentService for verses: the JSONL
 * exchange format (import and export), validation of every line with
 * {@link narrativeContentIssues}, all-or-nothing writes, content hashes, and the precedence
 * (curated over generated) of rows.
 */
import { createHash } from 'node:crypto'
import type { ImportReport } from './content.service.js'
import { importAllOrNothing, parseJsonlLines, type RejectedLine } from './jsonl.js'
import { parseProvenance } from './provenance.js'
import { formatIssue } from '../../text/issues.js'
import { narrativeContentIssues } from './narrative-validation.js'
import type { NarrativeContentRepository, NarrativeMethod, NarrativeStyle, StoredNarrativeContent } from '../../narratives/narrative-content.repository.js'
import type { NarrativeStore } from '../../narratives/narrative.store.js'

/** One line of the narrative exchange format (the `narrative` key tells it from a verse line). */
export interface NarrativeContentLine {
  readonly narrative: string
  readonly style: NarrativeStyle
  readonly summary: string
  readonly bottom_line: string
  readonly provenance: { readonly method: NarrativeMethod; readonly model: string | null; readonly prompt_version: string }
}

/** The hash that identifies a narrative's content text. */
export function narrativeContentHash(fields: { summary: string; bottomLine: string }): string {
  return createHash('sha256')
    .update(JSON.stringify([fields.summary, fields.bottomLine]))
    .digest('hex')
}

/** Whether a JSONL text holds narrative lines: its first non-empty line has a `narrative` key. */
export function isNarrativeJsonl(text: string): boolean {
  const first = text.split('\n').find((l) => l.trim() !== '')
  if (first === undefined) return false
  try {
    const value: unknown = JSON.parse(first)
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'narrative' in value
  } catch {
    return false
  }
}

/** Narrative content import, export and generated writes. */
export class NarrativeContentService {
  constructor(
    private readonly repository: NarrativeContentRepository,
    private readonly narratives: NarrativeStore,
  ) {}

  /** Parses and validates JSONL text; every line is checked, and problems are reported by line. */
  parse(text: string): { rows: StoredNarrativeContent[]; rejected: RejectedLine[]; lines: number } {
    return parseJsonlLines(
      text,
      (raw) => this.parseLine(raw),
      (row) => `${row.slug}:${row.style}:${row.method}`,
      'narrative, style and method',
    )
  }

  /** Imports JSONL text: all lines or none; idempotent (the same line twice changes nothing). */
  async import(text: string, options: { dryRun: boolean }): Promise<ImportReport> {
    return importAllOrNothing(this.parse(text), options.dryRun, (rows) => this.repository.transaction((repository) => repository.upsertMany(rows)))
  }

  /** Stored content (curated and generated) as JSONL lines, in canonical narrative order. */
  async export(style: NarrativeStyle | undefined): Promise<string[]> {
    const rows = (await this.repository.listAll()).filter((r) => style === undefined || r.style === style)
    const position = (slug: string): number => this.narratives.get(slug)?.index ?? Number.MAX_SAFE_INTEGER
    rows.sort(
      (a, b) => position(a.slug) - position(b.slug) || a.slug.localeCompare(b.slug) || a.style.localeCompare(b.style) || a.method.localeCompare(b.method),
    )
    return rows.map((row) => JSON.stringify(toLine(row)))
  }

  /** Stores one validated generated summary and bottom line. */
  async storeGenerated(
    slug: string,
    style: NarrativeStyle,
    fields: { summary: string; bottomLine: string },
    model: string,
    promptVersion: string,
  ): Promise<void> {
    await this.repository.upsertMany([toRow(slug, style, fields.summary, fields.bottomLine, 'generated', model, promptVersion)])
  }

  private parseLine(raw: string): StoredNarrativeContent | string {
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      return 'not valid JSON'
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object'
    const { narrative, style, summary, bottom_line: bottomLine, provenance } = value as Record<string, unknown>
    if (typeof narrative !== 'string') return 'narrative is missing'
    if (this.narratives.get(narrative) === undefined) return `narrative ${JSON.stringify(narrative.slice(0, 80))} names no narrative`
    if (style !== 'faithful' && style !== 'casual') return 'style must be faithful or casual'
    const origin = parseProvenance(provenance)
    if (typeof origin === 'string') return origin
    const issues = narrativeContentIssues(style, summary, bottomLine)
    if (issues.length > 0) return issues.map(formatIssue).join('; ')
    return toRow(narrative, style, String(summary), String(bottomLine), origin.method, origin.model, origin.promptVersion)
  }
}

function toRow(
  slug: string,
  style: NarrativeStyle,
  summary: string,
  bottomLine: string,
  method: NarrativeMethod,
  model: string | null,
  promptVersion: string,
): StoredNarrativeContent {
  const body = { summary: summary.trim(), bottomLine: bottomLine.trim() }
  return { slug, style, method, model, promptVersion, ...body, contentHash: narrativeContentHash(body) }
}

function toLine(row: StoredNarrativeContent): NarrativeContentLine {
  return {
    narrative: row.slug,
    style: row.style,
    summary: row.summary,
    bottom_line: row.bottomLine,
    provenance: { method: row.method, model: row.model, prompt_version: row.promptVersion },
  }
}
