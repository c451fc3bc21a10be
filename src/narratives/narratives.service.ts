/** The rules of the narratives: listing with filters and cursors, and the full narrative. */
import type { components } from '../../generated/api-types.js'
import { AppError } from '../errors.js'
import type { StyleSelector, VersesService } from '../verses/verses.service.js'
import type { Gospel, NarrativeRecord, NarrativeStore } from './narrative.store.js'

export type NarrativeList = components['schemas']['NarrativeList']
export type Narrative = components['schemas']['Narrative']
type NarrativeStyle = components['schemas']['NarrativeStyle']

/** A narrative's own content in one style, with its provenance. */
export interface NarrativeContent {
  readonly summary: string
  readonly bottomLine: string
  readonly method: 'curated' | 'generated'
  readonly model: string | null
  readonly promptVersion: string
}

/** What a list request asks for. */
export interface ListQuery {
  readonly gospel?: Gospel
  readonly q?: string
  readonly limit: number
  readonly cursor?: string
}

/** Listing and reading narratives. */
export class NarrativesService {
  constructor(
    private readonly store: NarrativeStore,
    private readonly verses: VersesService,
    private readonly content: ReadonlyMap<string, NarrativeContent>,
  ) {}

  /**
   * One page of narratives in canonical order.
   * @throws AppError invalid_parameter for a cursor this service did not issue.
   */
  list(query: ListQuery): NarrativeList {
    const words = (query.q ?? '')
      .toLowerCase()
      .split(/[^a-z0-9']+/)
      .filter((w) => w !== '')
    const matching = this.store.all.filter(
      (n) => (query.gospel === undefined || n.gospel === query.gospel) && words.every((w) => n.title.toLowerCase().includes(w)),
    )
    const after = query.cursor === undefined ? -1 : decodeCursor(query.cursor)
    const rest = matching.filter((n) => n.index > after)
    const page = rest.slice(0, query.limit)
    const last = page[page.length - 1]
    return {
      total: matching.length,
      data: page.map((n) => ({
        slug: n.slug,
        title: n.title,
        gospel: n.gospel,
        reference: n.reference,
        order: n.order,
        verse_count: n.verseCount,
        parallels: [...n.parallels],
      })),
      next_cursor: rest.length > page.length && last !== undefined ? encodeCursor(last.index) : null,
    }
  }

  /** The narrative with this slug, if any. */
  find(slug: string): NarrativeRecord | undefined {
    return this.store.get(slug.toLowerCase())
  }

  /** The error for an unknown slug. */
  notFound(slug: string): AppError {
    return new AppError('narrative_not_found', `No narrative has the slug "${slug.slice(0, 100)}"; list them at /api/v1/narratives.`)
  }

  /** The full narrative with the styles the selector asks for. */
  toResource(narrative: NarrativeRecord, style: StyleSelector): Narrative {
    const styleContent = (name: 'faithful' | 'casual'): NarrativeStyle => {
      const c = this.content.get(`${narrative.slug}:${name}`)
      return c === undefined
        ? { summary: null, bottom_line: null, provenance: null }
        : { summary: c.summary, bottom_line: c.bottomLine, provenance: { method: c.method, model: c.model, prompt_version: c.promptVersion } }
    }
    return {
      slug: narrative.slug,
      title: narrative.title,
      gospel: narrative.gospel,
      reference: narrative.reference,
      order: narrative.order,
      verse_count: narrative.verseCount,
      content: {
        ...(style === 'casual' ? {} : { faithful: styleContent('faithful') }),
        ...(style === 'faithful' ? {} : { casual: styleContent('casual') }),
      },
      verses: narrative.verseIds.map((id) => this.verses.toResource(this.verses.byId(id), style)),
      parallels: narrative.parallels.flatMap((slug) => {
        const other = this.store.get(slug)
        return other === undefined ? [] : [{ slug: other.slug, title: other.title, reference: other.reference }]
      }),
    }
  }
}

// Cursors are opaque to clients: a version letter and the last position served, base64url.
function encodeCursor(index: number): string {
  return Buffer.from(`n1:${index}`).toString('base64url')
}

function decodeCursor(cursor: string): number {
  const match = /^n1:(\d{1,4})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (match === null)
    throw new AppError('invalid_parameter', 'cursor is not one this API issued; pass next_cursor from the previous page.', {
      errors: [{ location: 'querystring/cursor', message: 'is not a cursor this API issued' }],
    })
  return Number(match[1])
}
