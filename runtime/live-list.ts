// Entries in insertion order, for things under way that a long-lived owner must be able to list (runs
// waiting on the shutdown signal, requests in flight) while each is removed when it ends. Not a Map,
// a Set or an EventTarget's listeners: under load an entry that lived through two young collections
// reached the old generation, and once removed it still led (a removed listener's links, an
// outgrown hash table's entries) to entries added after it, whose runs then survived the next young
// collection too, and so on: every run's data was promoted and old space grew until a full GC
// (measured: ~6 KB promoted per passthrough request, ~0.3 KB without). A removed entry here forgets
// its neighbours and its value, so a dead one keeps nothing alive.
export interface LiveEntry<T> { value: T | undefined; prev: LiveEntry<T> | undefined; next: LiveEntry<T> | undefined }

export class LiveList<T> {
  private head: LiveEntry<T> | undefined;
  private tail: LiveEntry<T> | undefined;

  add(value: T): LiveEntry<T> {
    const e: LiveEntry<T> = { value, prev: this.tail, next: undefined };
    if (this.tail) this.tail.next = e; else this.head = e;
    this.tail = e;
    return e;
  }

  /** Removing an entry twice does nothing. */
  remove(e: LiveEntry<T>): void {
    if (e.value === undefined) return;
    if (e.prev) e.prev.next = e.next; else this.head = e.next;
    if (e.next) e.next.prev = e.prev; else this.tail = e.prev;
    e.prev = e.next = e.value = undefined;
  }

  /** The values, oldest first (a copy: callers may remove entries meanwhile). */
  values(): T[] {
    const out: T[] = [];
    for (let e = this.head; e; e = e.next) out.push(e.value!);
    return out;
  }
}
