/**
 * The usage journal: append-only files in DATA_DIR where every counted query is written,
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
 * Written queries are summed into tallies (usage.tally.ts) as they are written, not kept one
 * object each: the flusher applies whole tallies. Lines go to `usage.journal`; once it is
 * large, a flush renames it to a segment, `usage.journal.<last seq in it>`, and starts a new
 * one (a rename, never a rewrite of the entries), and a segment is deleted once the ledger
 * holds its last sequence. At opening every segment and `usage.journal` are read, and the
 * entries the ledger does not hold yet (`markApplied`) are replayed.
 *
 * Line format: `seq<TAB>keyId<TAB>period<TAB>endpoint<TAB>style<LF>`, or for a query with an
 * attribution (a counted MCP tool call) the same followed by `<TAB>client<TAB>tool<TAB>verseIds`
 * (verse ids comma-separated, possibly none); lines of the shorter form, written before
 * attributions existed, still read. A torn last line (a crash mid-write) is ignored, which is
 * safe because its response was never sent; the file holding it is never appended to again.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlink, writeFileSync, writeSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { UsageTally } from './usage.tally.js'

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

/** One counted query, as a journal line holds it. */
export interface UsageEntry {
  readonly seq: number
  readonly keyId: string
  readonly period: string
  readonly endpoint: string
  readonly style: string
  readonly attribution?: UsageAttribution
}

/**
 * Start a new segment at a flush once the current file holds this many bytes: at 40,000
 * counted queries a second, a rename about every two seconds, and a few segments at most.
 */
const ROTATE_AT_BYTES = 4 * 1024 * 1024

/** Fields queued per query until the end of the turn: keyId, period, endpoint, style, attribution. */
const QUEUED_FIELDS = 5

const FILE = 'usage.journal'
const SEGMENT = /^usage\.journal\.(\d+)$/

/** An instance's journal files and the tallies of what is not yet applied to the ledger. */
export class UsageJournal {
  /** Stable per DATA_DIR: names this instance's journal in the ledger bookkeeping. */
  readonly journalId: string
  private readonly dir: string
  private readonly path: string
  private fd: number
  private seq: number
  /** Bytes in the current file. */
  private bytes = 0
  /** Sequence of the last line written to the current file (0: none yet). */
  private writtenSeq = 0
  /** Earlier files, each named by the last sequence it holds. */
  private segments: Array<{ readonly path: string; readonly last: number }> = []
  /** Segment deletions under way (markApplied), so that a caller can wait for them. */
  private readonly deleting = new Set<Promise<void>>()
  /** Entries read at opening, until `markApplied` says which of them the ledger holds. */
  private recovered: UsageEntry[] | undefined
  /** Tallies a flush took (`seal`) and the ledger does not hold yet, oldest first. */
  private sealed: UsageTally[] = []
  /** Where written queries are summed until the next `seal`. */
  private open = new UsageTally()
  /** Queries appended in this turn, QUEUED_FIELDS slots each (no object per query). */
  private queued: Array<string | UsageAttribution | undefined> = []
  private waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = []
  /** Callbacks of the hot path, called once the batch holding their queries is written. */
  private callbacks: Journalled[] = []
  private scheduled = false
  private readonly rotateAtBytes: number

  /**
   * Opens (or creates) the journal in `dir`. Entries already in its files count in
   * `backlog()`, and join `pending()` once `markApplied()` has said which the ledger holds.
   * @param options.rotateAtBytes size of the current file from which a flush starts a new segment.
   */
  constructor(dir: string, options: { readonly rotateAtBytes?: number } = {}) {
    this.rotateAtBytes = options.rotateAtBytes ?? ROTATE_AT_BYTES
    mkdirSync(dir, { recursive: true })
    this.dir = dir
    const idFile = join(dir, 'instance-id')
    if (!existsSync(idFile)) writeFileSync(idFile, `${randomUUID()}\n`, { flag: 'wx' })
    this.journalId = readFileSync(idFile, 'utf8').trim()
    this.path = join(dir, FILE)
    // Left by the compaction of earlier versions when it was cut short; the file it was to replace is whole.
    rmSync(`${this.path}.tmp`, { force: true })
    const recovered: UsageEntry[] = []
    for (const segment of this.readSegments()) {
      this.segments.push(segment)
      for (const entry of parseJournal(readFileSync(segment.path, 'utf8'))) recovered.push(entry)
    }
    const current = existsSync(this.path) ? parseJournal(readFileSync(this.path, 'utf8')) : []
    for (const entry of current) recovered.push(entry)
    this.recovered = recovered
    this.seq = recovered.reduce((max, e) => Math.max(max, e.seq), 0)
    // New lines never follow what the last run left, which may end in a torn line: that file
    // becomes a segment (or goes, when it holds no whole line), and a new file starts.
    if (current.length > 0) {
      const last = current.reduce((max, e) => Math.max(max, e.seq), 0)
      const segment = { path: `${this.path}.${last}`, last }
      renameSync(this.path, segment.path)
      this.segments.push(segment)
    } else {
      rmSync(this.path, { force: true })
    }
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
  append(keyId: string, period: string, endpoint: string, style: string, attribution?: UsageAttribution): Promise<void> {
    this.enqueue(keyId, period, endpoint, style, attribution === undefined ? undefined : journalSafe(attribution))
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }))
  }

  /**
   * Appends one counted query and calls `journalled` once its line has reached the kernel, at
   * the end of this turn of the event loop with every other line appended in it: the hot
   * path's form of `append`, without a promise or an object per query.
   */
  appendThen(keyId: string, period: string, endpoint: string, style: string, journalled: Journalled): void {
    this.enqueue(keyId, period, endpoint, style, undefined)
    this.callbacks.push(journalled)
  }

  /** Resolves once every line appended so far has been written (or failed to be). */
  written(): Promise<void> {
    if (this.queued.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push({ resolve, reject: () => resolve() }))
  }

  private enqueue(keyId: string, period: string, endpoint: string, style: string, attribution: UsageAttribution | undefined): void {
    this.queued.push(keyId, period, endpoint, style, attribution)
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => this.writeBatch())
    }
  }

  private writeBatch(): void {
    this.scheduled = false
    const { queued, waiters, callbacks } = this
    if (queued.length === 0) return
    this.queued = []
    this.waiters = []
    this.callbacks = []
    const first = this.seq + 1
    this.seq += queued.length / QUEUED_FIELDS
    try {
      let text = ''
      forEachQueued(queued, first, (seq, keyId, period, endpoint, style, attribution) => (text += line(seq, keyId, period, endpoint, style, attribution)))
      writeSync(this.fd, text)
      this.bytes += text.length
      this.writtenSeq = this.seq
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error))
      for (const waiter of waiters) waiter.reject(failure)
      for (const journalled of callbacks) journalled(failure)
      return
    }
    // Only written queries are tallied: the ledger never holds a query that was not journalled.
    const open = this.open
    forEachQueued(queued, first, (seq, keyId, period, endpoint, style, attribution) => open.add(seq, keyId, period, endpoint, style, attribution))
    for (const waiter of waiters) waiter.resolve()
    for (const journalled of callbacks) journalled()
  }

  /** Queries journalled and not yet marked applied. */
  backlog(): number {
    let queries = this.open.queries + (this.recovered?.length ?? 0)
    for (const tally of this.sealed) queries += tally.queries
    return queries
  }

  /** Tallies of the queries not yet marked applied, oldest first (see the constructor for those read at opening). */
  pending(): readonly UsageTally[] {
    return this.open.queries === 0 ? this.sealed : [...this.sealed, this.open]
  }

  /**
   * Closes the tally written queries are summed in (a flush applies it) and returns every
   * tally not yet marked applied, oldest first; queries written from now on go to a new one.
   */
  seal(): readonly UsageTally[] {
    if (this.open.queries > 0) {
      this.sealed.push(this.open)
      this.open = new UsageTally()
    }
    return this.sealed
  }

  /**
   * Forgets what the ledger holds, up to `seq`: the entries read at opening up to it, and the
   * tallies ending at or before it (the ledger holds whole tallies, so `seq` is the end of one);
   * deletes the segments it covers.
   */
  markApplied(seq: number): void {
    if (this.recovered !== undefined) {
      const replay = new UsageTally()
      for (const e of this.recovered) if (e.seq > seq) replay.add(e.seq, e.keyId, e.period, e.endpoint, e.style, e.attribution)
      this.recovered = undefined
      if (replay.queries > 0) this.sealed.unshift(replay)
    }
    this.sealed = this.sealed.filter((tally) => tally.last > seq)
    if (this.open.queries > 0 && this.open.last <= seq) this.open = new UsageTally()
    const [done, kept] = partition(this.segments, (segment) => segment.last <= seq)
    this.segments = kept
    for (const segment of done) {
      // Off the event loop; a segment that could not go is listed again and tried at a later flush.
      const deletion = new Promise<void>((resolve) =>
        unlink(segment.path, (error) => {
          if (error !== null && error.code !== 'ENOENT') this.segments.push(segment)
          this.deleting.delete(deletion)
          resolve()
        }),
      )
      this.deleting.add(deletion)
    }
  }

  /** Resolves once every segment deletion started so far has ended (deleted, or listed again to retry). */
  async deletionsSettled(): Promise<void> {
    await Promise.all([...this.deleting])
  }

  /**
   * Starts a new segment when the current file is large (a flush calls this once it has
   * applied a batch): the file is renamed, never rewritten, and goes once the ledger holds
   * its last line.
   */
  rotateIfLarge(): void {
    if (this.bytes >= this.rotateAtBytes) this.rotate()
  }

  /** Writes what is queued, flushes to disk and closes the file. */
  close(): void {
    this.writeBatch()
    fsyncSync(this.fd)
    closeSync(this.fd)
  }

  /** Renames the current file to a segment and opens a new one; nothing queued is in between (one thread). */
  private rotate(): void {
    const segment = { path: `${this.path}.${this.writtenSeq}`, last: this.writtenSeq }
    renameSync(this.path, segment.path)
    let fd: number
    try {
      fd = openSync(this.path, 'a')
    } catch (error) {
      // Keep writing where the lines were going; the next flush tries again.
      renameSync(segment.path, this.path)
      throw error
    }
    closeSync(this.fd)
    this.fd = fd
    this.bytes = 0
    this.segments.push(segment)
  }

  /** The segments in `dir`, oldest first. */
  private readSegments(): Array<{ path: string; last: number }> {
    return readdirSync(this.dir)
      .map((name) => SEGMENT.exec(name))
      .filter((match) => match !== null)
      .map((match) => ({ path: join(this.dir, match[0]), last: Number(match[1]) }))
      .sort((a, b) => a.last - b.last)
  }
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = []
  const no: T[] = []
  for (const item of items) (test(item) ? yes : no).push(item)
  return [yes, no]
}

/**
 * Calls `visit` with each query of a turn's queue (QUEUED_FIELDS slots each) and the sequence
 * it gets, counting from `first`.
 */
function forEachQueued(
  queued: ReadonlyArray<string | UsageAttribution | undefined>,
  first: number,
  visit: (seq: number, keyId: string, period: string, endpoint: string, style: string, attribution: UsageAttribution | undefined) => void,
): void {
  for (let i = 0, seq = first; i < queued.length; i += QUEUED_FIELDS, seq++) {
    visit(seq, queued[i] as string, queued[i + 1] as string, queued[i + 2] as string, queued[i + 3] as string, queued[i + 4] as UsageAttribution | undefined)
  }
}

function line(seq: number, keyId: string, period: string, endpoint: string, style: string, a: UsageAttribution | undefined): string {
  const base = `${seq}\t${keyId}\t${period}\t${endpoint}\t${style}`
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
