// JSON.stringify without recursion, for values nested deeper than the JS stack (jq allows 10,000 levels).
// Same text as JSON.stringify for JSON data: leaves go through JSON.stringify, undefined members are
// left out, undefined array items are null.

type Frame = { close: string; items: Array<[string, unknown]>; i: number };

export function stringifyDeep(v: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = (x: unknown, prefix: string): void => {
    out.push(prefix);
    if (Array.isArray(x)) {
      out.push('[');
      stack.push({ close: ']', items: x.map((e) => ['', e === undefined ? null : e]), i: 0 });
    } else if (typeof x === 'object' && x !== null) {
      out.push('{');
      const items = Object.entries(x).filter(([, e]) => e !== undefined).map(([k, e]) => [`${JSON.stringify(k)}:`, e] as [string, unknown]);
      stack.push({ close: '}', items, i: 0 });
    } else out.push(JSON.stringify(x) ?? 'null');
  };
  open(v, '');
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.i === top.items.length) {
      out.push(top.close);
      stack.pop();
      continue;
    }
    const [key, x] = top.items[top.i];
    open(x, (top.i++ > 0 ? ',' : '') + key);
  }
  return out.join('');
}
