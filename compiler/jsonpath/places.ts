// The JSONPath forms the compiler walks itself instead of asking json-p3 at run time: member names
// (RFC 9535 member-name-shorthand, ASCII letters, digits and `_` only) and wildcards (`.*`, `[*]`).
// The `target` places of emit-node.ts; anything else keeps the engine. (Which array a target names,
// whatever its spelling, is records.ts's normal form.)

/** `$.a`, `$.a.b`, `$.a[*].b`, `$.*`: the steps (a name, or null for a wildcard); undefined otherwise. */
export function placeSteps(src: string): Array<string | null> | undefined {
  if (!src.startsWith('$') || src.length < 2) return undefined;
  const step = /\.([A-Za-z_][A-Za-z0-9_]*)|\.\*|\[\*\]/y;
  const out: Array<string | null> = [];
  step.lastIndex = 1;
  while (step.lastIndex < src.length) {
    const m = step.exec(src);
    if (!m) return undefined;
    out.push(m[1] ?? null);
  }
  return out;
}

/** `$.a.b…`: member names only; undefined otherwise. */
export function memberNames(src: string): string[] | undefined {
  const steps = placeSteps(src);
  return steps && steps.every((s): s is string => s !== null) ? steps : undefined;
}
