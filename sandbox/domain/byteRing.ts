/**
 * A ring of text records kept as UTF-8 bytes in one buffer: the newest `maxRecords`, within
 * `maxBytes`. Pushing overwrites the oldest records when either bound is reached.
 *
 * Why bytes and not strings: a record kept for a while and then overwritten (the request log's
 * rows, docs/sandbox.md "Request log") outlives the young generation, so V8 promotes it and it
 * dies in the old one, which a busy sandbox then lets grow to a multiple of what it really holds
 * before collecting it. Written into a buffer, the record's string dies young, and what is kept
 * costs its bytes, outside the heap, with nothing left to collect.
 *
 * The buffer is a resizable ArrayBuffer: `maxBytes` of address space reserved, memory committed
 * only as it grows, in place (no copy left behind for a collector), GROWTH_STEP bytes at a time
 * and only when a record would otherwise overwrite one the bounds keep.
 */
const GROWTH_STEP = 16 * 1024;

/** ES2024's resizable ArrayBuffer (every Node this package supports), beyond the ES2023 lib's types. */
interface ResizableArrayBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}
const ResizableArrayBuffer = ArrayBuffer as unknown as new (
  byteLength: number,
  options: { maxByteLength: number },
) => ResizableArrayBuffer;

export class ByteRing {
  readonly #memory: ResizableArrayBuffer;
  /** A view of all of #memory, made again whenever it grows. */
  #bytes: Buffer;
  /** Per slot: where its record starts, how many bytes it has, and the caller's tag for it. */
  readonly #starts: Int32Array;
  readonly #lengths: Int32Array;
  readonly #tags: Float64Array;
  /** The slot of the oldest record. */
  #first = 0;
  #count = 0;
  /** Where the next record goes; records from here to the buffer's end are the oldest, if any. */
  #writeAt = 0;

  readonly maxRecords: number;
  readonly maxBytes: number;

  constructor(maxRecords: number, maxBytes: number, initialBytes = Math.min(maxBytes, GROWTH_STEP)) {
    this.maxRecords = maxRecords;
    this.maxBytes = maxBytes;
    if (maxRecords < 1 || maxBytes < 1)
      throw new RangeError("a ByteRing holds at least one record of one byte");
    this.#memory = new ResizableArrayBuffer(Math.min(initialBytes, maxBytes), { maxByteLength: maxBytes });
    this.#bytes = Buffer.from(this.#memory);
    this.#starts = new Int32Array(maxRecords);
    this.#lengths = new Int32Array(maxRecords);
    this.#tags = new Float64Array(maxRecords);
  }

  get size(): number {
    return this.#count;
  }

  /** Bytes the ring holds now, used or not: what it costs. */
  get capacityBytes(): number {
    return this.#bytes.length;
  }

  push(text: string, tag: number): void {
    const length = Buffer.byteLength(text, "utf8");
    if (length === 0 || length > this.maxBytes)
      throw new RangeError(`a record must have 1 to ${this.maxBytes} bytes; this one has ${length}`);
    if (this.#count === this.maxRecords) this.#evictOldest();
    // Grow rather than overwrite while the bound allows it: records go only by the bounds.
    while (!this.#fitsWithoutEviction(length) && this.#bytes.length < this.maxBytes) this.#grow(length);
    if (this.#writeAt + length > this.#bytes.length) {
      // Wrap: the records between here and the end are the oldest; they go first.
      while (this.#count > 0 && this.#startOf(this.#first) >= this.#writeAt) this.#evictOldest();
      this.#writeAt = 0;
    }
    while (this.#count > 0 && this.#oldestOverlaps(this.#writeAt, length)) this.#evictOldest();
    this.#bytes.write(text, this.#writeAt, length, "utf8");
    const slot = (this.#first + this.#count) % this.maxRecords;
    this.#starts[slot] = this.#writeAt;
    this.#lengths[slot] = length;
    this.#tags[slot] = tag;
    this.#count += 1;
    this.#writeAt += length;
  }

  /** The records, newest first, with their tags. */
  *newestFirst(): Generator<{ text: string; tag: number }> {
    for (let back = this.#count - 1; back >= 0; back -= 1) {
      const slot = (this.#first + back) % this.maxRecords;
      yield { text: this.#textOf(slot), tag: this.#tags[slot]! };
    }
  }

  /** The newest record of this tag, or undefined. */
  find(tag: number): string | undefined {
    for (let back = this.#count - 1; back >= 0; back -= 1) {
      const slot = (this.#first + back) % this.maxRecords;
      if (this.#tags[slot] === tag) return this.#textOf(slot);
    }
    return undefined;
  }

  #textOf(slot: number): string {
    const start = this.#starts[slot]!;
    return this.#bytes.toString("utf8", start, start + this.#lengths[slot]!);
  }

  #startOf(slot: number): number {
    return this.#starts[slot]!;
  }

  #oldestOverlaps(start: number, length: number): boolean {
    const oldestStart = this.#startOf(this.#first);
    return oldestStart < start + length && oldestStart + this.#lengths[this.#first]! > start;
  }

  #fitsWithoutEviction(length: number): boolean {
    if (this.#count === 0) return length <= this.#bytes.length;
    const oldestStart = this.#startOf(this.#first);
    // Records in the buffer's tail, from #writeAt on, are the previous lap's and the oldest.
    const hasTail = oldestStart >= this.#writeAt;
    if (this.#writeAt + length <= this.#bytes.length)
      return !hasTail || oldestStart >= this.#writeAt + length;
    return !hasTail && length <= oldestStart;
  }

  #evictOldest(): void {
    this.#first = (this.#first + 1) % this.maxRecords;
    this.#count -= 1;
    if (this.#count === 0) {
      this.#first = 0;
      this.#writeAt = 0;
    }
  }

  /**
   * Commits at least `length` more bytes, in place. A wrapped ring's previous lap (the tail, from
   * #writeAt to where that lap ended) moves to the new end, so that the room grown lies between
   * the newest record and the oldest.
   */
  #grow(length: number): void {
    const oldLength = this.#bytes.length;
    const size = Math.min(this.maxBytes, Math.ceil((oldLength + length) / GROWTH_STEP) * GROWTH_STEP);
    this.#memory.resize(size);
    this.#bytes = Buffer.from(this.#memory);
    if (this.#count === 0 || this.#startOf(this.#first) < this.#writeAt) return;
    let tailSlots = 0;
    let lapEnd = 0;
    while (tailSlots < this.#count) {
      const slot = (this.#first + tailSlots) % this.maxRecords;
      if (this.#startOf(slot) < this.#writeAt) break;
      lapEnd = this.#startOf(slot) + this.#lengths[slot]!;
      tailSlots += 1;
    }
    const shift = size - lapEnd;
    this.#bytes.copyWithin(this.#startOf(this.#first) + shift, this.#startOf(this.#first), lapEnd);
    for (let back = 0; back < tailSlots; back += 1) {
      const slot = (this.#first + back) % this.maxRecords;
      this.#starts[slot] = this.#startOf(slot) + shift;
    }
  }
}
