// jq's text forms of values: type names, number format, compact JSON (tojson) and error dumps.

type Obj = Record<string, unknown>;

export function type(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean': return 'boolean';
    case 'number': return 'number';
    case 'string': return 'string';
    default: return Array.isArray(v) ? 'array' : 'object';
  }
}

/** jq's number text: shortest round-trip digits, exponent form below 1e-4 or beyond 17 digits. */
export function numStr(n: number): string {
  if (Number.isInteger(n) && n < 1e16 && n > -1e16) return n === 0 && 1 / n < 0 ? '-0' : String(n);
  if (n !== n) return 'null';
  if (n === Infinity) n = Number.MAX_VALUE;
  else if (n === -Infinity) n = -Number.MAX_VALUE;
  const [mant, exp] = Math.abs(n).toExponential().split('e');
  const digits = mant.replace('.', '');
  const e = Number(exp);
  const decpt = e + 1;
  let s: string;
  if (decpt <= -4 || decpt > digits.length + 15) {
    const ae = Math.abs(e);
    s = digits[0] + (digits.length > 1 ? '.' + digits.slice(1) : '') + (e < 0 ? 'e-' : 'e+') + (ae < 10 ? '0' : '') + ae;
  } else if (decpt <= 0) {
    s = '0.' + '0'.repeat(-decpt) + digits;
  } else if (decpt >= digits.length) {
    s = digits + '0'.repeat(decpt - digits.length);
  } else {
    s = digits.slice(0, decpt) + '.' + digits.slice(decpt);
  }
  return n < 0 ? '-' + s : s;
}

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const ESCAPES = /["\\\u0000-\u001f\u007f]/g;
const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

function quote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  return '"' + s.replace(ESCAPES, (c) => SHORT[c] ?? '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) + '"';
}

/** jq's compact JSON text (`tojson`): its number format, escapes DEL, keeps non-ASCII as is. */
export function tojson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean': return v ? 'true' : 'false';
    case 'number': return numStr(v);
    case 'string': return quote(v);
  }
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + tojson(v[i]);
    return s + ']';
  }
  let s = '{';
  let first = true;
  for (const k of Object.keys(v as Obj)) {
    s += (first ? '' : ',') + quote(k) + ':' + tojson((v as Obj)[k]);
    first = false;
  }
  return s + '}';
}

export function tostring(v: unknown): string {
  return typeof v === 'string' ? v : tojson(v);
}

export const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/**
 * jq 1.8's jv_dump_string_trunc with its 30-byte buffer: a string longer than 30 bytes is first cut to 30
 * code points; a dump longer than 29 bytes keeps its first 25 (26 without a closing delimiter) bytes, back
 * to a code point boundary, then "..." and the closing `"`, `]` or `}`.
 */
export function dump(v: unknown): string {
  const BUF = 30;
  let x = v;
  if (typeof x === 'string' && utf8.encode(x).length > BUF) x = Array.from(x).slice(0, BUF).join('');
  const s = tojson(x);
  if (s.length <= BUF - 1 && !/[^\x00-\x7f]/.test(s)) return s;
  const bytes = utf8.encode(s);
  if (bytes.length <= BUF - 1) return s;
  const delim = ({ '"': '"', '[': ']', '{': '}' } as Record<string, string>)[s[0]] ?? '';
  let l = BUF - (delim ? 5 : 4);
  while (l > 0 && (bytes[l] & 0xc0) === 0x80) l--; // back to the start of the code point at l
  return fromUtf8.decode(bytes.subarray(0, l)) + '...' + delim;
}

