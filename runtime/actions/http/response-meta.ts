// Response headers and Retry-After as the action outcome exposes them.
import { plainStrings } from '../../values/string-map.ts';

/** Lowercase keys; repeated headers joined with ", " (RFC 9110 §5.3), except set-cookie, whose
 *  values may themselves contain commas (Expires dates), so they are joined with "\n" instead. */
export function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  // undici's usual headers (each name once, in lower case, as a string) copied in one step.
  if (plainStrings(h, isLower)) return { ...h } as Record<string, string>;
  const out: Record<string, string> = {};
  for (const k of Object.keys(h)) { // not Object.entries: no pair array per header
    const v = h[k];
    if (v === undefined) continue;
    const key = lower(k);
    const value = Array.isArray(v) ? v.join(key === 'set-cookie' ? '\n' : ', ') : String(v);
    out[key] = key in out ? `${out[key]}${key === 'set-cookie' ? '\n' : ', '}${value}` : value;
  }
  return out;
}

const isLower = (k: string): boolean => lower(k) === k;

/** undici names headers in lower case already: no new string (toLowerCase scans and copies) then. */
function lower(k: string): string {
  for (let i = 0; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a) || c >= 0x80) return k.toLowerCase(); // A-Z, or beyond ASCII
  }
  return k;
}

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // Only the date forms Date.parse reads reliably; a bare number with a fraction or sign is invalid.
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
