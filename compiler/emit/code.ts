// A typed code builder in the manner of ajv's codegen: the `_` template turns every plain value into
// a JSON literal and lets only Code (validated names and code built by this module) through raw.
// User strings therefore reach generated code only as escaped literals.

/** A plain JS identifier: what may be inlined raw as a name, a bare key or a `.member`. */
const IDENT = /^[A-Za-z_$][\w$]*$/;

export class Code {
  constructor(readonly text: string) {}
  toString(): string { return this.text; }
}

/** An identifier we made: validated, so it can be inlined raw. */
export class Name extends Code {
  constructor(text: string) {
    if (!IDENT.test(text)) throw new Error(`invalid identifier: ${text}`);
    super(text);
  }
}

export type Arg = Code | string | number | boolean | null | undefined | readonly unknown[] | { readonly [k: string]: unknown };

export function _(strs: TemplateStringsArray, ...args: Arg[]): Code {
  let out = strs[0]!;
  for (let i = 0; i < args.length; i++) out += lit(args[i]) + strs[i + 1]!;
  return new Code(out);
}

/** Joins code with a separator. */
export function join(items: Code[], sep = ', '): Code {
  return new Code(items.map((c) => c.text).join(sep));
}

/** A JSON string literal safe inside JS source (U+2028/U+2029 escaped). */
export function str(s: string): string {
  return JSON.stringify(s).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Any value as a JS literal; Code passes through; object keys are always quoted, `__proto__` computed. */
export function lit(v: unknown): string {
  if (v instanceof Code) return v.text;
  if (v === undefined) return 'undefined';
  if (typeof v === 'string') return str(v);
  if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : String(v)) : 'null';
  if (v === null || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(lit).join(', ')}]`;
  if (typeof v === 'object') {
    const props = Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => `${key(k)}: ${lit(x)}`);
    return props.length ? `{ ${props.join(', ')} }` : '{}';
  }
  throw new Error(`cannot emit a ${typeof v} as a literal`);
}

/** A property key: bare when a plain identifier, quoted otherwise, computed for `__proto__`. */
export function key(k: string): string {
  if (k === '__proto__') return `[${str(k)}]`;
  return IDENT.test(k) ? k : str(k);
}

/** Text for a `//` comment: no line terminators or control characters can leave the comment. */
export function comment(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Property access: `.name` for plain identifiers, `["…"]` otherwise. */
export function member(k: string): string {
  return IDENT.test(k) ? `.${k}` : `[${str(k)}]`;
}
