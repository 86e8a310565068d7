// Addresses of an email (from, to, cc, bcc, reply_to). Each entry must be exactly ONE address, with
// no CR, LF or NUL: a request value can fill an address but never add a recipient or a header.
// Several recipients are written as a list (a marker resolving to an array works). A value refused here
// is the request's to fix (400), as a config's literal is refused at `check`.
import addressparser from 'nodemailer/lib/addressparser';
import { text } from '../../values/text.ts';
import { Refused } from '../../refused.ts';

export interface Mailbox { name: string; address: string }

/** Recipients of one message, all fields together (SMTP servers commonly allow 100). */
export const MAX_RECIPIENTS = 100;

export function oneAddress(value: unknown, field: string): Mailbox {
  const s = text(value).trim();
  if (/[\r\n\0]/.test(s)) throw new Refused(`email.${field} contains a line break or NUL byte, which could add headers: refused`, 400);
  const parsed = addressparser(s, { flatten: true }) as Array<Partial<Mailbox>>;
  const m = parsed[0];
  if (parsed.length !== 1 || !m?.address || !/^[^@\s]+@[^@\s]+$/.test(m.address)) {
    throw new Refused(`email.${field} must be exactly one address (write several as a list), got ${JSON.stringify(s.slice(0, 200))}`, 400);
  }
  return { name: m.name ?? '', address: m.address };
}

/** One address or a list of them; empty and null entries are dropped. */
export function addressList(value: unknown, field: string): Mailbox[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v) => v !== null && v !== undefined && text(v).trim() !== '').map((v, i) => oneAddress(v, Array.isArray(value) ? `${field}[${i}]` : field));
}
