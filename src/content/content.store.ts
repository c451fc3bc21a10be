/**
 * The derived texts (styles) of every verse, held in memory, with the precedence rule:
 * curated over generated over modernized.
 */

export type Style = 'faithful' | 'casual'
export type ContentMethod = 'curated' | 'generated' | 'modernized'

/** One stored piece of content for a verse and style, with its provenance. */
export interface StyleContent {
  readonly verseId: number
  readonly style: Style
  readonly method: ContentMethod
  readonly model: string | null
  readonly promptVersion: string
  readonly simplifiedText: string | null
  readonly bottomLine: string | null
  readonly historicalContext: string | null
  readonly practicalReflection: string | null
}

/** Content as written to the database: with the hash of its text. */
export interface StoredContent extends StyleContent {
  readonly contentHash: string
}

/**
 * The prompt versions of the content the team writes and ships in `db/content/verses/`
 * (db/content/EDITORIAL.md): `generated` rows whose prompt version starts with this prefix
 * belong to the seed, like curated rows, and an operator's `content generate` never replaces them.
 */
export const SHIPPED_PROMPT_PREFIX = 'editorial-'

/** Whether a row is shipped with the repository (and so owned by the seed). */
export function isShipped(row: Pick<StyleContent, 'method' | 'promptVersion'>): boolean {
  return row.method === 'curated' || (row.method === 'generated' && row.promptVersion.startsWith(SHIPPED_PROMPT_PREFIX))
}

/** Lower rank wins. */
const PRECEDENCE: Readonly<Record<ContentMethod, number>> = { curated: 0, generated: 1, modernized: 2 }

/** Whether content made by `method` wins over content made by `other`: curated, then generated, then modernized. */
export function outranks(method: ContentMethod, other: ContentMethod): boolean {
  return PRECEDENCE[method] < PRECEDENCE[other]
}

/** Immutable index of the effective content of each verse and style. */
export class ContentStore {
  private readonly effective: ReadonlyMap<string, StyleContent>

  /** @param rows every stored row; several per verse and style are resolved by precedence. */
  constructor(rows: Iterable<StyleContent>) {
    const effective = new Map<string, StyleContent>()
    for (const row of rows) {
      const key = `${row.verseId}:${row.style}`
      const current = effective.get(key)
      if (current === undefined || outranks(row.method, current.method)) effective.set(key, row)
    }
    this.effective = effective
  }

  /** The content that wins for this verse and style, if any. */
  get(verseId: number, style: Style): StyleContent | undefined {
    return this.effective.get(`${verseId}:${style}`)
  }

  /** Number of verse-and-style pairs that have content. */
  get size(): number {
    return this.effective.size
  }
}
