// Channel and topic lists of the publishing kinds: a string, a list, or a marker resolving to either.
export function nameList(v: unknown, what: string): string[] | string {
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : undefined;
  if (!list || !list.length) return `"${what}" must be a name or a non-empty list of names`;
  const names = list.map((x) => (typeof x === 'number' ? String(x) : x));
  const bad = names.find((x) => typeof x !== 'string' || x === '' || x.length > 200);
  if (bad !== undefined) return `"${what}" holds ${JSON.stringify(bad)}: each must be text of 1 to 200 characters`;
  return [...new Set(names as string[])];
}

/** Flags that may arrive as markers (retain, accept_any_host_key, ready_only): true, "true", 1 and "1"
 *  are on, any other value off; unset (undefined, null) is the flag's default. */
export const flagOn = (v: unknown, unset = false): boolean => (v === undefined || v === null ? unset : v === true || v === 'true' || v === 1 || v === '1');
