/**
 * The prepared seed bundle: the verse content rows the seed would make from db/content/verses/
 * (every shipped line parsed and validated, and the modernized faithful text of every verse),
 * made once by `make build` (scripts/seed-bundle.ts) and written as JSON Lines: a header naming
 * the seed hash the rows were made for, then one row per line. The seed loads it only when that
 * hash is the one it computes from the files now, so a bundle older than the files is never used.
 */
import { once } from 'node:events'
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, readSync, renameSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import type { ContentMethod, StoredContent, Style } from '../content/content.store.js'

/** What the first line says. */
export interface ContentBundleHeader {
  readonly format: typeof BUNDLE_FORMAT
  /** The seed hash of the verse content the rows were made from (seed.service.ts contentSeedHash). */
  readonly hash: string
  /** The build's own stamp (the sources it was made with), for the build to tell it is current. */
  readonly sources: string
  readonly curated: number
  readonly generated: number
  readonly modernized: number
}

const BUNDLE_FORMAT = 'plainverse-content-bundle/1'

/** Longest header line read: the header is a few hundred bytes. */
const HEADER_BYTES = 4_096

type BundleLine = [number, Style, ContentMethod, string | null, string, string | null, string | null, string | null, string | null, string]

function isHeader(value: unknown): value is ContentBundleHeader {
  if (typeof value !== 'object' || value === null) return false
  const header = value as Record<string, unknown>
  return (
    header.format === BUNDLE_FORMAT &&
    typeof header.hash === 'string' &&
    typeof header.sources === 'string' &&
    ['curated', 'generated', 'modernized'].every((name) => Number.isInteger(header[name]))
  )
}

/**
 * The bundle's header, read from its first line alone; undefined when there is no bundle or it
 * is not one (the caller then makes the rows itself).
 */
export function readContentBundleHeader(file: string): ContentBundleHeader | undefined {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return undefined
  }
  try {
    const buffer = Buffer.alloc(HEADER_BYTES)
    const length = readSync(fd, buffer, 0, HEADER_BYTES, 0)
    const end = buffer.subarray(0, length).indexOf(0x0a)
    if (end < 0) return undefined
    const header = JSON.parse(buffer.subarray(0, end).toString('utf8')) as unknown
    return isHeader(header) ? header : undefined
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/**
 * The bundle's rows, `batchSize` at a time, read as a stream (the file is tens of megabytes: it is
 * never in memory whole).
 * @throws when the file holds another number of rows than its header says (a damaged bundle):
 *   the caller's transaction then rolls back what it wrote.
 */
export async function* readContentBundle(file: string, header: ContentBundleHeader, batchSize: number): AsyncGenerator<StoredContent[]> {
  const lines = createInterface({ input: createReadStream(file, { highWaterMark: 1 << 20 }), crlfDelay: Infinity })
  let first = true
  let count = 0
  let batch: StoredContent[] = []
  for await (const line of lines) {
    if (first) {
      first = false
      continue
    }
    if (line === '') continue
    const [verseId, style, method, model, promptVersion, simplifiedText, bottomLine, historicalContext, practicalReflection, contentHash] = JSON.parse(
      line,
    ) as BundleLine
    batch.push({ verseId, style, method, model, promptVersion, simplifiedText, bottomLine, historicalContext, practicalReflection, contentHash })
    count++
    if (batch.length === batchSize) {
      yield batch
      batch = []
    }
  }
  if (batch.length > 0) yield batch
  const expected = header.curated + header.generated + header.modernized
  if (count !== expected) throw new Error(`the seed bundle ${file} holds ${count} rows, its header says ${expected}: run make build again`)
}

/**
 * Writes a bundle: into a file beside it, renamed into place when complete, so a reader never
 * sees half a bundle.
 */
export async function writeContentBundle(file: string, header: Omit<ContentBundleHeader, 'format'>, rows: Iterable<StoredContent>): Promise<void> {
  mkdirSync(dirname(file), { recursive: true })
  const writing = `${file}.writing-${process.pid}`
  const out = createWriteStream(writing)
  try {
    const write = async (text: string): Promise<void> => {
      if (!out.write(text)) await once(out, 'drain')
    }
    await write(`${JSON.stringify({ format: BUNDLE_FORMAT, ...header })}\n`)
    for (const r of rows) {
      const line: BundleLine = [
        r.verseId,
        r.style,
        r.method,
        r.model,
        r.promptVersion,
        r.simplifiedText,
        r.bottomLine,
        r.historicalContext,
        r.practicalReflection,
        r.contentHash,
      ]
      await write(`${JSON.stringify(line)}\n`)
    }
    out.end()
    await once(out, 'close')
    renameSync(writing, file)
  } catch (error) {
    out.destroy()
    rmSync(writing, { force: true })
    throw error
  }
}
