// Values made from a text once per distinct text (a certificate, a key, a secret, an origin), the
// newest `max` kept (oldest out first). Settings are the same on every request of an action, and
// making their values again per request showed up to milliseconds (TLS, SFTP keys, signing keys,
// HMAC keys). Bounded because a marker can vary the text. A make() that throws keeps nothing: a
// refused setting is refused every time, with its own message.
export class TextMemo<T> {
  private readonly kept = new Map<string, T>();
  constructor(private readonly max: number) {}

  get(text: string, make: () => T): T {
    const v = this.kept.get(text);
    if (v !== undefined || this.kept.has(text)) return v as T;
    const made = make();
    if (this.kept.size >= this.max) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(text, made);
    return made;
  }
}
