// How Postgres values become JSON, chosen to lose nothing (docs/actions-database.md, "Types"):
// exact numbers stay exact, timestamps keep their microseconds, bytes become base64. Installed per
// pool (never on pg's global table, which the durable store shares).
import pg from 'pg';

type Parser = (text: string) => unknown;

/** int8: a number while it is exact, else its digits as text. */
export const int8 = (t: string): number | string => {
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : t;
};

/** float4/float8: NaN and ±Infinity have no JSON number, so they stay text. */
const float = (t: string): number | string => {
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
};

/** timestamp (no zone): ISO 8601 without a zone, every fractional digit kept. */
const timestamp = (t: string): string => (/^\d{4}-/.test(t) ? t.replace(' ', 'T') : t);

/** timestamptz: ISO 8601 in UTC with a Z, whatever the session's TimeZone; every digit kept. */
export const timestamptz = (t: string): string => {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(\.\d+)?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?$/.exec(t);
  if (!m) return t; // infinity, BC dates, years past 9999: Postgres's own text
  const [, y, mo, d, h, mi, s, frac, sign, oh, om, os] = m;
  const offset = (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om ?? 0) * 60 + Number(os ?? 0)) * 1000;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offset;
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  return `${iso.slice(0, 19)}${frac ?? ''}Z`;
};

/** bytea in hex output ("\x0a1b"): base64 of the bytes. */
const bytea = (t: string): string => Buffer.from(t.startsWith('\\x') ? t.slice(2) : t, 'hex').toString('base64');

const text: Parser = (t) => t;

const SCALARS: Record<number, Parser> = {
  20: int8, 700: float, 701: float,
  1700: text, // numeric: exact decimal text
  1082: text, 1083: text, 1266: text, 1186: text, // date, time, timetz, interval: Postgres's text
  1114: timestamp, 1184: timestamptz, 17: bytea,
  790: text, // money
};

// Array types of the scalars above: element oid by array oid.
const ARRAYS: Record<number, number> = { 1016: 20, 1021: 700, 1022: 701, 1231: 1700, 1182: 1082, 1183: 1083, 1270: 1266, 1187: 1186, 1115: 1114, 1185: 1184, 1001: 17, 791: 790 };

const arrayOf = (p: Parser): Parser => (t) => pg.types.arrayParser(t, (e: string | null) => (e === null ? null : p(e)));

const OWN: Record<number, Parser> = {
  ...SCALARS,
  ...Object.fromEntries(Object.entries(ARRAYS).map(([arr, el]) => [arr, arrayOf(SCALARS[el]!)])),
};

/** The `types` option of a pg pool: ours first, pg's defaults (json, int4, bool, ...) otherwise. */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    return (format ?? 'text') === 'text' && OWN[oid] ? OWN[oid] : pg.types.getTypeParser(oid, format as 'text');
  },
};
