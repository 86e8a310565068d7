// Texts kept by id, newest first within a count and a byte bound, as UTF-8 in one ring buffer
// outside the JS heap. The memory store keeps finished runs here: thousands of strings or objects
// kept for a while outlive the young-generation GCs and fill the old generation until a full
// collection, which under load doubled peak RSS. A text is written over by newer ones (its id is
// forgotten then); one larger than a quarter of the buffer is refused.
export class TextRing<Extra> {
  private readonly buf: Buffer;
  private head = 0; // where the next text starts
  // Slots in write order (a queue of `count` from `first`): id, offset, byte length, extra.
  private readonly ids: (string | undefined)[];
  private readonly at: Int32Array;
  private readonly len: Int32Array;
  private readonly extras: (Extra | undefined)[];
  private first = 0;
  private count = 0;
  private readonly slots = new Map<string, number>();

  constructor(private readonly maxBytes: number, private readonly maxTexts: number) {
    this.buf = Buffer.allocUnsafeSlow(maxBytes); // pages become resident as they are written
    this.ids = new Array<string | undefined>(maxTexts);
    this.extras = new Array<Extra | undefined>(maxTexts);
    this.at = new Int32Array(maxTexts);
    this.len = new Int32Array(maxTexts);
  }

  /** False when the text is empty or too large to keep. A text given in parts is stored as their
   *  concatenation, each part written where the previous ended (no joined copy made first). */
  set(id: string, text: string | readonly string[], extra: Extra): boolean {
    const parts = typeof text === 'string' ? [text] : text;
    let bytes = 0;
    for (const p of parts) bytes += Buffer.byteLength(p);
    if (bytes === 0 || bytes > this.maxBytes / 4) return false;
    let start = this.head;
    if (start + bytes > this.maxBytes) {
      this.evictOverlapping(start, this.maxBytes);
      start = 0;
    }
    this.evictOverlapping(start, start + bytes);
    if (this.count === this.maxTexts) this.evictOldest();
    let at = start;
    for (const p of parts) at += this.buf.write(p, at, 'utf8');
    const slot = (this.first + this.count) % this.maxTexts;
    this.ids[slot] = id;
    this.at[slot] = start;
    this.len[slot] = bytes;
    this.extras[slot] = extra;
    this.count++;
    this.slots.set(id, slot);
    this.head = start + bytes;
    return true;
  }

  get(id: string): { text: string; extra: Extra } | undefined {
    const slot = this.slots.get(id);
    if (slot === undefined) return undefined;
    return { text: this.buf.toString('utf8', this.at[slot]!, this.at[slot]! + this.len[slot]!), extra: this.extras[slot]! };
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  delete(id: string): void {
    this.slots.delete(id); // its bytes are reclaimed when the ring comes round
  }

  get size(): number {
    return this.slots.size;
  }

  /** The oldest texts are the ones ahead of `head`: drop them while they overlap [from, to). */
  private evictOverlapping(from: number, to: number): void {
    while (this.count > 0) {
      const s = this.first;
      if (!(this.at[s]! < to && this.at[s]! + this.len[s]! > from)) return;
      this.evictOldest();
    }
  }

  private evictOldest(): void {
    const s = this.first;
    const id = this.ids[s]!;
    if (this.slots.get(id) === s) this.slots.delete(id); // not when the id was saved again since
    this.ids[s] = undefined;
    this.extras[s] = undefined;
    this.first = (s + 1) % this.maxTexts;
    this.count--;
  }
}
