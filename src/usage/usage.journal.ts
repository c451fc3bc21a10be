/**
 * The usage journal: an append-only file in DATA_DIR where every counted query is written,
 * synchronously, before its 200 is sent. Lines appended in one turn of the event loop are
 * written by one write(2) at its end (group commit), and the responses they hold are sent
 * right after it in the same turn: the process never sits idle waiting for the disk (the
 * write only reaches the kernel), no request pays for a system call of its own, and a
 * response never leaves before its query is journalled. A flusher adds journal entries to the database
 * ledger in batches, recording the last sequence number it applied in the same transaction.
 * So a counted query survives SIGTERM and `kill -9` (the write reached the kernel before the
 * response left), and is never applied twice (entries at or below the applied sequence are
 * skipped on replay).
 *
 * Line format: `seq<TAB>keyId<TAB>period<TAB>endpoint<TAB>style<LF>`, or for a query with an
 * attribution (a counted MCP tool call) the same followed by `<TAB>client<TAB>tool<TAB>verseIds`
 * (verse ids comma-separated, possibly none); lines of the shorter form, written before
 * attributions existed, still read. A torn last line (a crash mid-write) is ignored, which is
 * safe because its response was never sent.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'

/** Who a counted MCP tool call served and with what: the AI client, the tool, the verses. */
export interface UsageAttribution {
  /** `name/version`, a User-Agent or `unknown`; control characters are replaced on write. */
  readonly client: string
  readonly tool: string
  /** Every verse the call served (book * 1,000,000 + chapter * 1,000 + verse), possibly none. */
  readonly verseIds: readonly number[]
}

/** Told once a query is journalled (no argument) or could not be (the write's error). */
export type Journalled = (error?: Error) => void

/** One counted query. */
export interface UsageEntry {
  readonly seq: number
  readonly keyId: string
  readonly period: string
  readonly endpoint: string
  readonly style: string
  readonly attribution?: UsageAttribution
}

/**
 * Rewrite the file once it holds this many bytes. Compaction runs on the event loop, so it is
 * kept rare: at 10,000 counted queries a second this is about once every ten seconds.
 */
const COMPACT_AT_BYTES = 4 * 1024 * 1024

/** An instance's journal file and the entries not yet applied to the ledger. */
export class UsageJournal {
  /** Stable per DATA_DIR: names this instance's journal in the ledger bookkeeping. */
  readonly journalId: string
  private readonly path: string
  private fd: number
  private seq: number
  private pending: UsageEntry[] = []
  private bytes: number
  private batch: UsageEntry[] = []
  private waiters: Array<{ entry: UsageEntry; resolve: (entry: UsageEntry) => void; reject: (error: Error) => void }> = []
  /** Callbacks of the hot path, called once the batch holding their queries is written. */
  private callbacks: Journalled[] = []
  private scheduled = false

  /**
   * Opens (or creates) the journal in `dir`. Entries already in the file are returned by
   * `pendingEntries()` until `markApplied()` covers them.
   */
  constructor(dir: string) {
    mkdirSync(dir, { recursive: true })
    const idFile = join(dir, 'instance-id')
    if (!existsSync(idFile)) writeFileSync(idFile, `${randomUUID()}\n`, { flag: 'wx' })
    this.journalId = readFileSync(idFile, 'utf8').trim()
    this.path = join(dir, 'usage.journal')
    const existing = existsSync(this.path) ? readFileSync(this.path, 'utf8') : ''
    this.pending = parseJournal(existing)
    this.seq = this.pending.reduce((max, e) => Math.max(max, e.seq), 0)
    // Rewrite without a torn tail, so that new lines never append to half a line.
    this.bytes = this.rewrite(this.pending)
    this.fd = openSync(this.path, 'a')
  }

  /** Raises the sequence so that new entries follow those the ledger has already applied. */
  continueAfter(appliedSeq: number): void {
    this.seq = Math.max(this.seq, appliedSeq)
  }

  /**
   * Appends one counted query; resolves once the write has reached the kernel (for callers
   * that await, e.g. an MCP tool call; the hot path uses `appendThen`).
   */
  append(keyId: string, period: string, endpoint: string, style: string, attribution?: UsageAttribution): Promise<UsageEntry> {
    const entry = this.enqueue(keyId, period, endpoint, style, attribution)
    return new Promise((resolve, reject) => this.waiters.push({ entry, resolve, reject }))
  }

  /**
   * Appends one counted query and calls `journalled` once its line has reached the kernel, at
   * the end of this turn of the event loop with every other line appended in it: the hot
   * path's form of `append`, without a promise per query.
   */
  appendThen(keyId: string, period: string, endpoint: string, style: string, journalled: Journalled): void {
    this.enqueue(keyId, period, endpoint, style, undefined)
    this.callbacks.push(journalled)
  }

  /** Resolves once every line appended so far has been written (or failed to be). */
  written(): Promise<void> {
    const last = this.batch[this.batch.length - 1]
    if (last === undefined) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push({ entry: last, resolve: () => resolve(), reject: () => resolve() }))
  }

  private enqueue(keyId: string, period: string, endpoint: string, style: string, attribution: UsageAttribution | undefined): UsageEntry {
    const entry: UsageEntry =
      attribution === undefined
        ? { seq: ++this.seq, keyId, period, endpoint, style }
        : { seq: ++this.seq, keyId, period, endpoint, style, attribution: journalSafe(attribution) }
    this.batch.push(entry)
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => this.writeBatch())
    }
    return entry
  }

  private writeBatch(): void {
    this.scheduled = false
    const { batch, waiters, callbacks } = this
    this.batch = []
    this.waiters = []
    this.callbacks = []
    if (batch.length === 0) return
    try {
      const text = batch.map(line).join('')
      writeSync(this.fd, text)
      this.bytes += text.length
      // Only written entries become pending: the ledger never holds a query that was not journalled.
      for (const entry of batch) this.pending.push(entry)
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error))
      for (const waiter of waiters) waiter.reject(failure)
      for (const journalled of callbacks) journalled(failure)
      return
    }
    for (const waiter of waiters) waiter.resolve(waiter.entry)
    for (const journalled of callbacks) journalled()
  }

  /** Entries not yet marked applied, oldest first. */
  pendingEntries(): readonly UsageEntry[] {
    return this.pending
  }

  /** Forgets entries up to `seq` (they are in the ledger) and compacts the file when it is large. */
  markApplied(seq: number): void {
    this.pending = this.pending.filter((e) => e.seq > seq)
    if (this.bytes >= COMPACT_AT_BYTES) {
      // Synchronous from here to the reopen: no append can interleave in this single thread.
      // The new file is complete before the old descriptor is given up, so a failed rewrite
      // leaves the journal as it was.
      const bytes = this.rewrite(this.pending)
      closeSync(this.fd)
      this.fd = openSync(this.path, 'a')
      this.bytes = bytes
    }
  }

  /** Writes what is queued, flushes to disk and closes the file. */
  close(): void {
    this.writeBatch()
    fsyncSync(this.fd)
    closeSync(this.fd)
  }

  // Like every append, the rewrite reaches the kernel before it returns, which is what survives
  // a killed process; no fsync, which would stall the event loop for a disk round trip.
  private rewrite(entries: readonly UsageEntry[]): number {
    const text = entries.map(line).join('')
    const temporary = `${this.path}.tmp`
    writeFileSync(temporary, text)
    renameSync(temporary, this.path)
    return text.length
  }
}

function line(e: UsageEntry): string {
  const base = `${e.seq}\t${e.keyId}\t${e.period}\t${e.endpoint}\t${e.style}`
  const a = e.attribution
  return a === undefined ? `${base}\n` : `${base}\t${a.client}\t${a.tool}\t${a.verseIds.join(',')}\n`
}

/** Text fields cannot hold the separators (tab, line feed) or any other control character. */
function journalSafe(a: UsageAttribution): UsageAttribution {
  const clean = (text: string): string => text.replace(/[\u0000-\u001f\u007f]/g, ' ')
  return { client: clean(a.client), tool: clean(a.tool), verseIds: a.verseIds.filter((id) => Number.isSafeInteger(id) && id >= 0) }
}

/** Parses journal text, ignoring a torn last line and anything malformed. */
export function parseJournal(text: string): UsageEntry[] {
  const complete = text.endsWith('\n') ? text : text.slice(0, text.lastIndexOf('\n') + 1)
  const entries: UsageEntry[] = []
  for (const line of complete.split('\n')) {
    const fields = line.split('\t')
    if (fields.length !== 5 && fields.length !== 8) continue
    const [seq = '', keyId = '', period = '', endpoint = '', style = '', client, tool, verses] = fields
    if (!/^\d+$/.test(seq)) continue
    if (client === undefined || tool === undefined || verses === undefined) {
      entries.push({ seq: Number(seq), keyId, period, endpoint, style })
      continue
    }
    if (!/^(\d+(,\d+)*)?$/.test(verses)) continue
    const verseIds = verses === '' ? [] : verses.split(',').map(Number)
    entries.push({ seq: Number(seq), keyId, period, endpoint, style, attribution: { client, tool, verseIds } })
  }
  return entries
}
