/**
 * Journalled queries not yet in the ledger, summed as they are journalled: per key, period,
 * endpoint and style, and for counted MCP calls per AI client and tool and per verse served.
 * A tally covers a run of journal sequence numbers; the flusher applies whole tallies, so the
 * ledger's applied sequence is always the end of one and a tally is either in the ledger or
 * not. Summing at journalling time keeps the cost of a query constant (a few Map lookups on
 * strings the hot path reuses) and keeps no object per query alive until the flush, which
 * then walks a handful of groups instead of every query.
 */
import type { UsageAttribution } from './usage.journal.js'
import type { ClientIncrement, VerseIncrement } from './usage.repository.js'

/** A mutable count, so that adding one query is a field write once its group is found. */
interface Count {
  queries: number
}

type Mutable<T> = { -readonly [P in keyof T]: T[P] }

/** Queries of a run of journal sequence numbers, summed by group. */
export class UsageTally {
  /** Sequence of the first query (0 while empty). */
  first = 0
  /** Sequence of the last query (0 while empty). */
  last = 0
  /** Queries in this tally. */
  queries = 0
  /** keyId -> period -> endpoint -> style -> count. */
  private readonly groups = new Map<string, Map<string, Map<string, Map<string, Count>>>>()
  /** `keyId TAB period TAB client TAB tool` -> counted MCP calls. */
  private readonly clientCounts = new Map<string, Mutable<ClientIncrement>>()
  /** `keyId TAB period TAB verseId` -> serves. */
  private readonly verseCounts = new Map<string, Mutable<VerseIncrement>>()

  /** Adds one query; sequences must grow from one call to the next. */
  add(seq: number, keyId: string, period: string, endpoint: string, style: string, attribution: UsageAttribution | undefined): void {
    if (this.first === 0) this.first = seq
    this.last = seq
    this.queries++
    let byPeriod = this.groups.get(keyId)
    if (byPeriod === undefined) this.groups.set(keyId, (byPeriod = new Map()))
    let byEndpoint = byPeriod.get(period)
    if (byEndpoint === undefined) byPeriod.set(period, (byEndpoint = new Map()))
    let byStyle = byEndpoint.get(endpoint)
    if (byStyle === undefined) byEndpoint.set(endpoint, (byStyle = new Map()))
    const count = byStyle.get(style)
    if (count === undefined) byStyle.set(style, { queries: 1 })
    else count.queries++
    if (attribution !== undefined) this.attribute(keyId, period, attribution)
  }

  private attribute(keyId: string, period: string, attribution: UsageAttribution): void {
    const clientId = `${keyId}\t${period}\t${attribution.client}\t${attribution.tool}`
    const client = this.clientCounts.get(clientId)
    if (client === undefined) this.clientCounts.set(clientId, { keyId, period, client: attribution.client, tool: attribution.tool, queries: 1 })
    else client.queries++
    // A verse served twice by one call (a passage like "John 3:16, 16") is one serve.
    for (const verseId of new Set(attribution.verseIds)) {
      const verseKey = `${keyId}\t${period}\t${verseId}`
      const verse = this.verseCounts.get(verseKey)
      if (verse === undefined) this.verseCounts.set(verseKey, { keyId, period, verseId, serves: 1 })
      else verse.serves++
    }
  }

  /** Calls `visit` once per key, period, endpoint and style with its queries. */
  forEachGroup(visit: (keyId: string, period: string, endpoint: string, style: string, queries: number) => void): void {
    for (const [keyId, byPeriod] of this.groups)
      for (const [period, byEndpoint] of byPeriod)
        for (const [endpoint, byStyle] of byEndpoint) for (const [style, count] of byStyle) visit(keyId, period, endpoint, style, count.queries)
  }

  /** Calls `visit` once per endpoint and style of one key in one period with its queries. */
  forEachGroupOf(keyId: string, period: string, visit: (endpoint: string, style: string, queries: number) => void): void {
    const byEndpoint = this.groups.get(keyId)?.get(period)
    if (byEndpoint === undefined) return
    for (const [endpoint, byStyle] of byEndpoint) for (const [style, count] of byStyle) visit(endpoint, style, count.queries)
  }

  /** Queries of one key in one period. */
  total(keyId: string, period: string): number {
    let total = 0
    this.forEachGroupOf(keyId, period, (_endpoint, _style, queries) => (total += queries))
    return total
  }

  /** The periods each key has queries in. */
  *keyPeriods(): Generator<{ readonly keyId: string; readonly period: string }> {
    for (const [keyId, byPeriod] of this.groups) for (const period of byPeriod.keys()) yield { keyId, period }
  }

  /** Counted MCP calls per key, period, AI client and tool. */
  clients(): Iterable<ClientIncrement> {
    return this.clientCounts.values()
  }

  /** Serves per key, period and verse. */
  verses(): Iterable<VerseIncrement> {
    return this.verseCounts.values()
  }
}
