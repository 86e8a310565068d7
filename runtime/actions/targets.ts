// Channel and topic lists of the publishing kinds: a string, a list, or a marker resolving to either.
export function nameList(v: unknown, what: string): string[] | string {
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : undefined;
  if (!list || !list.length) return `"${what}" must be a name or a non-empty list of names`;
  const names = list.map((x) => (typeof x === 'number' ? String(x) : x));
  const bad = names.find((x) => typeof x !== 'string' || x === '' || x.length > 200);
  if (bad !== undefined) return `"${what}" holds ${JSON.stringify(bad)}: each must be text of 1 to 200 characters`;
  return [...new Set(names as string[])];
}

/** `retain`-style flags that may arrive as markers: true, "true" and 1 are on. */
export const flagOn = (v: unknown): boolean => v === true || v === 'true' || v === 1 || v === '1';
