// jq's @formats (f_format in jq 1.8's builtin.c): @text @json @csv @tsv @html @uri @sh @base64.
import { fail1 } from './errors.ts';
import { tojson, tostring, utf8 } from './text.ts';

function row(v: unknown, sep: string, str: (s: string) => string, what: string): string {
  if (!Array.isArray(v)) fail1(v, `cannot be ${what}-formatted, only array`);
  return v.map((x) => {
    if (x === null) return '';
    if (typeof x === 'boolean') return String(x);
    if (typeof x === 'number') return x !== x ? '' : tojson(x);
    if (typeof x === 'string') return str(x);
    return fail1(x, 'is not valid in a csv row');
  }).join(sep);
}

const TSV: Record<string, string> = { '\t': '\\t', '\r': '\\r', '\n': '\\n', '\\': '\\\\' };
const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&apos;', '"': '&quot;' };
const UNRESERVED = /[A-Za-z0-9\-_.~]/;

export const atText = tostring;
export const atJson = tojson;
export const atCsv = (v: unknown): string => row(v, ',', (s) => `"${s.replace(/"/g, '""')}"`, 'csv');
export const atTsv = (v: unknown): string => row(v, '\t', (s) => s.replace(/[\t\r\n\\]/g, (c) => TSV[c]), 'tsv');
export const atHtml = (v: unknown): string => tostring(v).replace(/[&<>'"]/g, (c) => HTML[c]);

export function atUri(v: unknown): string {
  let r = '';
  for (const ch of tostring(v)) {
    if (UNRESERVED.test(ch)) r += ch;
    else for (const b of utf8.encode(ch)) r += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return r;
}

export function atSh(v: unknown): string {
  return (Array.isArray(v) ? v : [v]).map((x) => {
    if (typeof x === 'string') return `'${x.replace(/'/g, "'\\''")}'`;
    if (x === null || typeof x === 'boolean' || typeof x === 'number') return tojson(x);
    return fail1(x, 'can not be escaped for shell');
  }).join(' ');
}

export const atBase64 = (v: unknown): string => Buffer.from(utf8.encode(tostring(v))).toString('base64');
