// `tonumber`: jq parses the string with its JSON parser, so its error texts come from that parser.
// Numbers and the common failures are reproduced here; rarer malformed input gets a close message.
import { JqError } from './errors.ts';
import { dump, type, utf8 } from './text.ts';

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPECIAL = /^[+-]?(?:nan|inf|infinity)$/i; // jq's strtod accepts these
const WS = /[ \t\r\n]/;
const DELIM = /[ \t\r\n"[\],{}:]/;

function literal(token: string): number | 'value' | string {
  if (NUMBER.test(token)) return Number(token);
  // jq prints these computed infinities as ±DBL_MAX (an overflowing literal like 1e400 stays infinite).
  if (SPECIAL.test(token)) return /nan/i.test(token) ? NaN : token.startsWith('-') ? -Number.MAX_VALUE : Number.MAX_VALUE;
  if (token[0] === 't' || token[0] === 'f' || (token[0] === 'n' && token[1] === 'u')) {
    return token === 'true' || token === 'false' || token === 'null' ? 'value' : 'Invalid literal';
  }
  return 'Invalid numeric literal';
}

const bytes = (s: string): number => utf8.encode(s).length;

export function tonumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') throw new JqError(`${type(v)} (${dump(v)}) cannot be parsed as a number`);
  const trimmed = v.trim();
  if (NUMBER.test(trimmed) && !/[^ \t\r\n]/.test(v.replace(trimmed, ''))) return Number(trimmed);
  return slowPath(v);
}

function slowPath(v: string): number {
  const s = v.includes('\0') ? v.slice(0, v.indexOf('\0')) : v; // jq passes a C string
  const fail = (msg: string): never => { throw new JqError(`${msg} (while parsing '${s}')`); };
  let line = 1;
  let lineStart = 0;
  let i = 0;
  let values = 0;
  let result = NaN;
  while (true) {
    while (i < s.length && WS.test(s[i])) {
      if (s[i] === '\n') { line++; lineStart = i + 1; }
      i++;
    }
    if (i >= s.length) break;
    if (DELIM.test(s[i])) {
      // Structured JSON: only "valid but not a number" is reproduced exactly.
      try { JSON.parse(s); } catch { fail('Cannot parse as JSON'); }
      break;
    }
    const start = i;
    while (i < s.length && !DELIM.test(s[i])) i++;
    const r = literal(s.slice(start, i));
    if (typeof r === 'string' && r !== 'value') {
      const atEof = i >= s.length;
      const column = bytes(s.slice(lineStart, atEof ? i : i + 1));
      fail(`${r} ${atEof ? 'at EOF ' : ''}at line ${line}, column ${column}`);
    }
    if (++values > 1) fail('Unexpected extra JSON values');
    result = r === 'value' ? NaN : (r as number);
    if (r === 'value') values = 2; // a literal that is valid JSON but not a number
  }
  if (values === 0 && !/[[{"]/.test(s)) fail('Expected JSON value');
  if (values !== 1) throw new JqError(`string (${dump(v)}) cannot be parsed as a number`);
  return result;
}
