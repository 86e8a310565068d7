// Nesting depth of JSON text, measured before parsing: JSON.parse copes with 100k levels, but every
// later walk (JSON.stringify, jq, a deep copy) recurses and would overflow the stack.
export const MAX_JSON_DEPTH = 256;

/** True when some array/object in `raw` nests deeper than `max` (brackets inside strings ignored). */
export function tooDeep(raw: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) { if (++depth > max) return true; }
    else if (c === 93 || c === 125) depth--;
  }
  return false;
}
