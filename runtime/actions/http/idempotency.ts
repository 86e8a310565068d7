// Idempotency keys (spec: Idempotency). The default key is the action's executionId: generated once
// per action execution and reused on every retry attempt, so an upstream that honours the header
// applies a retried POST once. A configured `key` is sent as given (one built from `a|uuid|` would
// change per attempt; interpolate something stable instead).
export interface IdempotencyHeader { name: string; key: string }

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** `idempotency: true` is shorthand for `{}`; false or null sends nothing. `executionId` is read only
 *  when the key is the default (the context makes the id on first read). */
export function idempotencyHeader(v: unknown, executionId: () => string): IdempotencyHeader | undefined {
  if (v === undefined || v === null || v === false || v === 'false') return undefined;
  const o = v === true || v === 'true' ? {} : v;
  if (typeof o !== 'object' || Array.isArray(o)) throw new Error('http.idempotency must be a mapping (key, header) or true');
  const { key, header } = o as { key?: unknown; header?: unknown };
  const name = header === undefined || header === null ? 'Idempotency-Key' : String(header);
  if (!TOKEN.test(name)) throw new Error(`http.idempotency.header ${JSON.stringify(name)} is not a valid header name`);
  // An explicit key that came out empty is a config mistake; silently substituting a fresh one
  // would change which requests the upstream deduplicates.
  if (key !== undefined && key !== null && String(key) === '') throw new Error('http.idempotency.key is empty');
  return { name: name.toLowerCase(), key: key === undefined || key === null ? executionId() : String(key) };
}

/** The key for page `n` (1-based) of a paginated call: the first page uses the key itself; later
 *  pages are distinct requests, so they get `<key>-<n>` (an upstream caching by key must not answer
 *  page 2 with page 1), still stable across retries of the action. */
export function pageKey(h: IdempotencyHeader, n: number): string {
  return n <= 1 ? h.key : `${h.key}-${n}`;
}
