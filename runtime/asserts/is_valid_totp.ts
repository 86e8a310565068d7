// `is_valid_totp: {secret, encoding?, digits?, period?, algorithm?}`: the actual value must be the
// TOTP code (same rules and defaults as the `totp` transform) of the previous, current or next
// time step: +-1 step (RFC 6238 section 5.2's recommended allowance) absorbs clock skew and the
// seconds a user takes to type the code. A number is read with its leading zeros restored.
// Codes are compared in constant time; messages never show the secret or the expected code.
import { timingSafeEqual } from 'node:crypto';
import { nowMs } from '../transforms/util/clock.ts';
import { hotp, step, TOTP_ALGORITHMS, TOTP_ENCODINGS, totpKey, type TotpOptions } from '../transforms/util/totp.ts';
import type { AssertOp } from './types.ts';

const int = (v: unknown, d: number, lo: number, hi: number): number | undefined => {
  const n = v === undefined ? d : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= lo && n <= hi ? n : undefined;
};

function cfg(e: unknown): (TotpOptions & { key: Buffer }) | string {
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return 'is_valid_totp needs {secret}';
  const o = e as Record<string, unknown>;
  const encoding = (o.encoding ?? 'base32') as TotpOptions['encoding'], algorithm = (o.algorithm ?? 'sha1') as TotpOptions['algorithm'];
  const digits = int(o.digits, 6, 6, 10), period = int(o.period, 30, 1, 3600);
  if (typeof o.secret !== 'string') return 'is_valid_totp needs {secret}';
  if (!TOTP_ENCODINGS.includes(encoding)) return `is_valid_totp: encoding must be one of ${TOTP_ENCODINGS.join(', ')}`;
  if (!TOTP_ALGORITHMS.includes(algorithm)) return `is_valid_totp: algorithm must be one of ${TOTP_ALGORITHMS.join(', ')}`;
  if (digits === undefined || period === undefined) return 'is_valid_totp: digits must be 6 to 10 and period 1 to 3600 seconds';
  const key = totpKey(o.secret, encoding);
  return typeof key === 'string' ? `is_valid_totp: ${key}` : { key, encoding, algorithm, digits, period };
}

export const op: AssertOp = {
  check(a, e) {
    const c = cfg(e);
    if (typeof c === 'string') return false;
    const code = typeof a === 'number' && Number.isInteger(a) && a >= 0 ? String(a).padStart(c.digits, '0') : typeof a === 'string' ? a.trim() : '';
    if (code.length !== c.digits) return false;
    const now = step(nowMs(), c.period);
    let ok = false; // every window is compared, so timing does not reveal which one matched
    for (const s of [now - 1, now, now + 1]) ok = timingSafeEqual(Buffer.from(hotp(c.key, s, c)), Buffer.from(code)) || ok;
    return ok;
  },
  explain(a, e) {
    const c = cfg(e);
    if (typeof c === 'string') return c;
    return `the value is not the current ${c.digits}-digit TOTP code (+-1 step of ${c.period} s)`;
  },
};
