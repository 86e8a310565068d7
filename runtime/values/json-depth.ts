// Nesting depth of JSON: JSON.parse copes with 100k levels, but every later walk (JSON.stringify,
// jq, a deep copy) recurses and would overflow the stack. Checked on the parsed value, without
// recursion: a walk over objects and arrays costs about a third of scanning the text's characters.
export const MAX_JSON_DEPTH = 256;

export class TooDeepError extends Error {
  constructor(readonly max: number) { super(`nests deeper than ${max} levels`); }
}

/** JSON.parse, refusing (TooDeepError) values whose arrays/objects nest deeper than `max`; a
 *  syntax error is JSON.parse's own. */
export function parseJsonBounded(text: string, max = MAX_JSON_DEPTH): unknown {
  let v: unknown;
  try { v = JSON.parse(text); } catch (e) { throw e instanceof RangeError ? new TooDeepError(max) : e; } // the parser's own stack ran out
  // Nesting past `max` takes more than `max` opening brackets: a shorter text needs no walk.
  if (text.length > max && nestsDeeper(v, max)) throw new TooDeepError(max);
  return v;
}

/** True when some array/object in `v` nests deeper than `max` (the top one is level 1). */
export function nestsDeeper(v: unknown, max = MAX_JSON_DEPTH): boolean {
  if (v === null || typeof v !== 'object') return false;
  const stack: object[] = [v];
  const depths: number[] = [1];
  while (stack.length) {
    const x = stack.pop()!;
    const d = depths.pop()!;
    if (d > max) return true;
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        const c: unknown = x[i];
        if (c !== null && typeof c === 'object') { stack.push(c); depths.push(d + 1); }
      }
    } else {
      for (const k in x) {
        const c: unknown = (x as Record<string, unknown>)[k];
        if (c !== null && typeof c === 'object') { stack.push(c); depths.push(d + 1); }
      }
    }
  }
  return false;
}
