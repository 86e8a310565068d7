// An Email config (after interpolation) → a nodemailer message. Header fields never carry a line
// break: addresses with one are refused (./addresses.ts), a subject's line breaks become spaces,
// an attachment's filename or content type with one is refused. Attachments are decoded here
// (spec: EmailAttachment: base64 by default, or utf8) so a bad one fails before anything is sent.
// A value the message cannot carry is refused with 400 (interpolated values: the request's to fix);
// a missing sender is the operator's (500).
import type { SendMailOptions } from 'nodemailer';
import { text } from '../../values/text.ts';
import { Refused } from '../../refused.ts';
import { addressList, MAX_RECIPIENTS, oneAddress } from './addresses.ts';

/** Bounds: attachments per message and their decoded bytes together. */
const MAX_ATTACHMENTS = 50;
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

export function mailOf(c: Record<string, unknown>, defaultFrom: string | undefined): SendMailOptions {
  const fromValue = c.from === undefined || c.from === null || c.from === '' ? defaultFrom : c.from;
  if (!fromValue) throw new Error('email.from is required (or set SERVICE__SMTP_FROM)');
  const to = addressList(c.to, 'to');
  const cc = addressList(c.cc, 'cc');
  const bcc = addressList(c.bcc, 'bcc');
  if (!to.length && !cc.length && !bcc.length) throw new Refused('email.to is empty: no recipient', 400);
  if (to.length + cc.length + bcc.length > MAX_RECIPIENTS) throw new Refused(`email: at most ${MAX_RECIPIENTS} recipients (to, cc and bcc together)`, 400);
  const mail: SendMailOptions = { from: oneAddress(fromValue, 'from'), to, cc, bcc, disableFileAccess: true, disableUrlAccess: true };
  if (c.reply_to !== undefined && c.reply_to !== null && c.reply_to !== '') mail.replyTo = oneAddress(c.reply_to, 'reply_to');
  if (c.subject !== undefined && c.subject !== null) mail.subject = text(c.subject).replace(/[\r\n\0]+/g, ' ');
  if (c.text !== undefined && c.text !== null) mail.text = text(c.text);
  if (c.body !== undefined && c.body !== null) mail.html = text(c.body);
  if (c.attachments !== undefined && c.attachments !== null) mail.attachments = attachments(c.attachments);
  return mail;
}

function attachments(v: unknown): NonNullable<SendMailOptions['attachments']> {
  if (!Array.isArray(v)) throw new Refused('email.attachments must be a list', 400);
  if (v.length > MAX_ATTACHMENTS) throw new Refused(`email: at most ${MAX_ATTACHMENTS} attachments`, 400);
  let total = 0;
  return v.map((a: Record<string, unknown>, i) => {
    const at = `email.attachments[${i}]`;
    if (!a || typeof a !== 'object') throw new Refused(`${at} must be an object with filename and content`, 400);
    const filename = headerText(a.filename, `${at}.filename`);
    if (!filename) throw new Refused(`${at}.filename is required`, 400);
    const contentType = a.content_type === undefined || a.content_type === null ? 'application/octet-stream' : headerText(a.content_type, `${at}.content_type`);
    const encoding = a.encoding ?? 'base64';
    if (encoding !== 'base64' && encoding !== 'utf8') throw new Refused(`${at}.encoding must be base64 or utf8`, 400);
    const raw = text(a.content);
    if (encoding === 'base64' && !BASE64.test(raw)) throw new Refused(`${at}.content is not base64 (set encoding: utf8 for text)`, 400);
    const content = Buffer.from(raw, encoding);
    total += content.length;
    if (total > MAX_ATTACHMENT_BYTES) throw new Refused(`email: attachments exceed ${MAX_ATTACHMENT_BYTES} bytes`, 400);
    return { filename, content, contentType };
  });
}

function headerText(v: unknown, at: string): string {
  const s = text(v);
  if (/[\r\n\0]/.test(s)) throw new Refused(`${at} contains a line break or NUL byte: refused`, 400);
  return s;
}
