/**
 * A growing list of unsigned 32-bit integers in one typed array, for the large lists built at
 * start-up (the content pack's index, the search index's word and posting lists): millions of
 * entries that as a JS array would be copied, and left behind as garbage held by the process
 * long after the build, every time it grew.
 */
export class U32List {
  private items: Uint32Array
  length = 0

  /** @param capacity the entries room is made for at first (it doubles when full). */
  constructor(capacity = 1024) {
    this.items = new Uint32Array(Math.max(1, capacity))
  }

  push(value: number): void {
    if (this.length === this.items.length) {
      const grown = new Uint32Array(this.items.length * 2)
      grown.set(this.items)
      this.items = grown
    }
    this.items[this.length++] = value
  }

  /** The value at `index` (< length). */
  get(index: number): number {
    return this.items[index] as number
  }

  /** Replaces the value at `index` (< length). */
  set(index: number, value: number): void {
    this.items[index] = value
  }

  /** The last value pushed, if any. */
  last(): number | undefined {
    return this.length === 0 ? undefined : this.items[this.length - 1]
  }

  /** Exactly the values pushed, as a view (not a copy: it changes with the list until it grows). */
  view(): Uint32Array {
    return this.items.subarray(0, this.length)
  }
}
