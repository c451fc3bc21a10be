/**
 * Files derived from the database into a folder that processes may share (the content pack, the
 * verse file): each written under a unique temporary name, flushed, then renamed into place, so
 * that a reader finds a whole file or none; concurrent writers of the same name write the same
 * bytes, so either rename is right. Once a file is in place, the other files of its family (older
 * revisions) and crashed writers' temporary files are removed.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/** A temporary file left this long by a writer is a crashed writer's. */
const STALE_TEMPORARY_MS = 10 * 60_000

/** The files one kind of derived file is named with: `<prefix><revision><suffix>`. */
export interface DerivedFileFamily {
  readonly prefix: string
  readonly suffix: string
}

/** A unique temporary path for writing `name` in `dir` (this process, a random part). */
export function temporaryPathFor(dir: string, name: string): string {
  return join(dir, `${name}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`)
}

/** Writes all of `bytes` at `position`, however many writes that takes. */
export function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, position + done)
}

/**
 * Renames a written and flushed temporary file to `name` in `dir`, makes the rename durable, and
 * removes the family's other files (a process still reading one keeps its open file) and
 * temporary files older than a crashed writer's could be.
 */
export function publishDerivedFile(temporary: string, dir: string, name: string, family: DerivedFileFamily): void {
  renameSync(temporary, join(dir, name))
  syncFolder(dir)
  const now = Date.now()
  for (const entry of readdirSync(dir)) {
    if (!entry.startsWith(family.prefix) || entry === name) continue
    const path = join(dir, entry)
    try {
      if (entry.endsWith(family.suffix)) unlinkSync(path)
      // Another writer's temporary file is its own until it renames it; only a crashed writer's is removed.
      else if (entry.endsWith('.tmp') && now - statSync(path).mtimeMs > STALE_TEMPORARY_MS) unlinkSync(path)
    } catch (error) {
      // Another process removed it first.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
}

/** Makes a rename in `dir` durable. */
function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
