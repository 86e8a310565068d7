// Compiles simple JSONPaths ($.a.b, $['x'], $.a[0], $.a[*].b) and dotted paths (items.0.name) to a JS
// function `(data) => unknown[]` using runtime/jsonpath/ops.ts as `jp`. Other paths (filters, slices,
// recursive descent...) return null: the caller uses jsonPathAll. Strings enter the code only via `lit`.
import { parseSimple } from '../../runtime/jsonpath/simple.ts';

function lit(s: string): string {
  return JSON.stringify(s).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** `single`: at most one match (no wildcard). The code is parenthesised, ready to call or cast. */
export function compileJsonPath(src: string): { code: string; single: boolean } | null {
  const p = parseSimple(src);
  if (!p) return null;
  if (p.kind === 'dotted') {
    const e = p.segs.reduce((acc, s) => `jp.dot(${acc}, ${lit(s)})`, 'data');
    return { code: `((data) => jp.one(${e}))`, single: true };
  }
  const step = (acc: string, i: number): string => {
    const s = p.steps[i] as { name: string } | { index: number };
    return 'name' in s ? `jp.prop(${acc}, ${lit(s.name)})` : `jp.at(${acc}, ${s.index})`;
  };
  if (!p.steps.some((s) => 'wildcard' in s)) {
    return { code: `((data) => jp.one(${p.steps.reduce((acc, _, i) => step(acc, i), 'data')}))`, single: true };
  }
  // One loop per wildcard; a missing member ends that branch.
  let n = 0;
  const body = (i: number, v: string, depth: string): string[] => {
    if (i === p.steps.length) return [`${depth}out.push(${v});`];
    if ('wildcard' in p.steps[i]) {
      const x = `v${++n}`;
      return [`${depth}for (const ${x} of jp.values(${v})) {`, ...body(i + 1, x, depth + '  '), `${depth}}`];
    }
    const x = `v${++n}`;
    return [`${depth}const ${x} = ${step(v, i)};`, `${depth}if (${x} !== undefined) {`, ...body(i + 1, x, depth + '  '), `${depth}}`];
  };
  const code = ['((data) => {', '  const out = new Array();', ...body(0, 'data', '  '), '  return out;', '})'].join('\n');
  return { code, single: false };
}
