// The SMTP server of an email action: the action's `smtp` URL (usually a secret marker), else the
// service-wide SERVICE__SMTP_URL. smtp:// upgrades with STARTTLS when the server offers it, smtps://
// is TLS from the first byte; credentials are the URL's user and password. Query options use
// nodemailer's own names, and only these (anything else is refused, not ignored): requireTLS,
// ignoreTLS, name (the EHLO host name), authMethod, tls.rejectUnauthorized, tls.servername,
// tls.minVersion. SERVICE__SMTP_CA adds a PEM CA certificate to trust. Timeouts are bounded.
import type { SMTPTransportOptions } from 'nodemailer/lib/smtp-transport';

const OPTIONS = new Set(['requireTLS', 'ignoreTLS', 'name', 'authMethod', 'tls.rejectUnauthorized', 'tls.servername', 'tls.minVersion']);
const BOOLEAN = new Set(['requireTLS', 'ignoreTLS', 'tls.rejectUnauthorized']);
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

export class SmtpSettingsError extends Error {}

export function smtpOptions(url: string | undefined, ca: string | undefined): SMTPTransportOptions & { host: string } {
  if (!url) throw new SmtpSettingsError('no SMTP server: set SERVICE__SMTP_URL (smtp://user:pass@host:587) or the action\'s email.smtp');
  let u: URL;
  try { u = new URL(url); } catch { throw new SmtpSettingsError('the SMTP URL is not a URL (smtp://user:pass@host:port or smtps://…)'); }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new SmtpSettingsError(`the SMTP URL must start with smtp:// or smtps://, not ${u.protocol}//`);
  if (!u.hostname) throw new SmtpSettingsError('the SMTP URL names no host');
  const o: SMTPTransportOptions & { host: string } = { host: u.hostname.replace(/^\[(.*)\]$/, '$1'), secure: u.protocol === 'smtps:', ...SMTP_TIMEOUTS };
  if (u.port) o.port = Number(u.port);
  if (u.username || u.password) o.auth = { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) };
  const tls: Record<string, unknown> = {};
  for (const [key, raw] of u.searchParams) {
    if (!OPTIONS.has(key)) throw new SmtpSettingsError(`the SMTP URL option "${key}" is not supported (supported: ${[...OPTIONS].join(', ')})`);
    let value: string | boolean = raw;
    if (BOOLEAN.has(key)) {
      if (raw !== 'true' && raw !== 'false') throw new SmtpSettingsError(`the SMTP URL option ${key} must be true or false`);
      value = raw === 'true';
    }
    if (key.startsWith('tls.')) tls[key.slice(4)] = value;
    else (o as unknown as Record<string, unknown>)[key] = value;
  }
  if (ca) tls.ca = ca;
  if (Object.keys(tls).length) o.tls = tls;
  return o;
}
