// Recognises the JSONPaths that compile to plain member access; everything else goes to jsonpath-rfc9535.

export type Step = { name: string } | { index: number } | { wildcard: true };

/** A path's steps: `$` queries of names, indices and wildcards, or a dotted path; null otherwise. */
export type Simple = { kind: 'jsonpath'; steps: Step[] } | { kind: 'dotted'; segs: string[] };

// RFC 9535 member-name-shorthand (name-first: ALPHA / "_" / non-ASCII; then also DIGIT).
const SHORTHAND = /\.([A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)/y;
const INDEX = /\[(-?(?:0|[1-9][0-9]*))\]/y;
const WILDCARD = /(?:\.\*|\[\*\])/y;
const QUOTED = /\[(?:'((?:[^'\\\u0000-\u001f]|\\.)*)'|"((?:[^"\\\u0000-\u001f]|\\.)*)")\]/y;
const ESC: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', '/': '/', '\\': '\\', "'": "'", '"': '"' };

function unescape(s: string, quote: string): string | null {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\') {
      out += s[i];
      continue;
    }
    const e = s[++i];
    if (e === 'u') return null; // \u escapes (and surrogate rules) are left to the library
    if (!(e in ESC) || (e === "'" && quote !== "'") || (e === '"' && quote !== '"')) return null;
    out += ESC[e];
  }
  return out;
}

export function parseSimple(src: string): Simple | null {
  if (!src.startsWith('$')) {
    const body = src.startsWith('.') ? src.slice(1) : src;
    return { kind: 'dotted', segs: body === '' ? [] : body.split('.') };
  }
  if (/[\ud800-\udfff]/.test(src)) return null; // surrogate pairs: leave to the library
  const steps: Step[] = [];
  let i = 1;
  while (i < src.length) {
    let m: RegExpExecArray | null;
    for (const re of [WILDCARD, SHORTHAND, INDEX, QUOTED]) re.lastIndex = i;
    if ((m = WILDCARD.exec(src))) steps.push({ wildcard: true });
    else if ((m = SHORTHAND.exec(src))) steps.push({ name: m[1] });
    else if ((m = INDEX.exec(src))) {
      const n = Number(m[1]);
      if (!Number.isSafeInteger(n) || m[1] === '-0') return null;
      steps.push({ index: n });
    } else if ((m = QUOTED.exec(src))) {
      const name = m[1] !== undefined ? unescape(m[1], "'") : unescape(m[2], '"');
      if (name === null) return null;
      steps.push({ name });
    } else return null;
    i += m[0].length;
  }
  return { kind: 'jsonpath', steps };
}
