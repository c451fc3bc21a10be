/**
 * The derived texts (styles) of every verse, read from the content pack (content.pack.ts), with
 * the precedence rule: curated over generated over modernized.
 */
import type { ContentPack } from './content.pack.js'

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

/**
 * The effective content of each verse and style (the pack holds only the row that wins, by
 * {@link outranks}). Immutable; open until {@link ContentStore.close}.
 */
export class ContentStore {
  /** @param pack the open pack of the database's content revision; the store owns it. */
  constructor(private readonly pack: ContentPack) {}

  /** The content that wins for this verse and style, if any. */
  get(verseId: number, style: Style): StyleContent | undefined {
    return this.pack.get(verseId, style)
  }

  /** Number of verse-and-style pairs that have content. */
  get size(): number {
    return this.pack.size
  }

  /** The content revision (ContentRepository.revision) this content is: what is derived from it can be keyed by it. */
  get revision(): string {
    return this.pack.revision
  }

  /**
   * Every entry in verse order, faithful before casual within a verse, read in large chunks:
   * for work that visits every verse (the search index build) rather than one read per entry.
   */
  entries(): IterableIterator<StyleContent> {
    return this.pack.entries()
  }

  /** Closes the pack file: the store's owner calls it when it stops. */
  close(): void {
    this.pack.close()
  }
}
