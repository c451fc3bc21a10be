/**
 * The part of fs-native-extensions (holepunchto) that Plainverse uses: advisory file locks
 * held by the kernel (open file description locks on Linux, flock on macOS, LockFileEx on
 * Windows), released when the descriptor is closed or the process dies. The package ships
 * no type declarations.
 */
declare module 'fs-native-extensions' {
  /** Takes an exclusive lock on the whole file without waiting; false when another descriptor holds one. */
  export function tryLock(fd: number): boolean
  /** Releases a lock taken on `fd`. */
  export function unlock(fd: number): void
}
