// `email` action: one message through nodemailer over SMTP (./settings.ts). A transport per message,
// closed afterwards, so nothing stays connected; its socket goes through the outbound policy
// (./socket.ts). Data: { message_id, accepted, rejected, response }.
// A message some recipients refused is still sent (data lists them in `rejected`; a retry would send
// it again to the others); every recipient refused, a refused login or an unreachable server fails.
import nodemailer, { type Transporter } from 'nodemailer';
import type { ActionKind, ActionOutcome } from '../types.ts';
import { mailOf } from './message.ts';
import { smtpOptions, SmtpSettingsError } from './settings.ts';
import { policedSocket } from './socket.ts';
import { Refused } from '../../refused.ts';

const CONNECT_CODES = new Set(['ECONNECTION', 'EDNS', 'ESOCKET', 'ETLS']);

export const email: ActionKind = async (config, ctx) => {
  const c = (config ?? {}) as Record<string, unknown>;
  const env = ctx.scope.env;
  let transport: Transporter | undefined;
  const onAbort = () => transport?.close();
  let options: ReturnType<typeof smtpOptions>;
  let mail: ReturnType<typeof mailOf>;
  // A config that names its server never falls back to the service-wide one (an unset secret fails).
  const own = Object.hasOwn(c, 'smtp');
  try {
    if (own && (typeof c.smtp !== 'string' || !c.smtp)) throw new SmtpSettingsError('email.smtp is empty (is its secret set?)');
    options = smtpOptions(own ? (c.smtp as string) : env.env('SERVICE__SMTP_URL'), env.env('SERVICE__SMTP_CA'));
    mail = mailOf(c, env.env('SERVICE__SMTP_FROM'));
  } catch (e) {
    // Settings and message checks: nothing was sent. (Message errors name their field: email.to …)
    const msg = (e as Error).message;
    if (e instanceof Refused) return { ok: false, error: msg, failure: { kind: 'refused', status: e.status } };
    return { ok: false, error: e instanceof SmtpSettingsError ? `email: ${msg}` : msg, failure: { kind: 'other' } };
  }
  try {
    if (ctx.signal?.aborted) return { ok: false, error: 'email: not sent: the action timed out or the run was cancelled', failure: { kind: 'transport', cls: 'timeout' } };
    // SERVICE__SMTP_URL is the operator's own destination (runtime/network/dialer.ts, Chooser).
    transport = nodemailer.createTransport({ ...options, getSocket: policedSocket(ctx.signal, own ? undefined : 'SERVICE__SMTP_URL') });
    ctx.signal?.addEventListener('abort', onAbort, { once: true });
    const info = await transport.sendMail(mail);
    return { ok: true, data: { message_id: info.messageId, accepted: (info.accepted ?? []).map(String), rejected: (info.rejected ?? []).map(String), response: info.response } };
  } catch (e) {
    return failed(e, ctx.signal?.aborted === true);
  } finally {
    ctx.signal?.removeEventListener('abort', onAbort);
    transport?.close();
  }
};

function failed(e: unknown, aborted: boolean): ActionOutcome {
  const err = e as Error & { code?: string; rejected?: unknown[] };
  if (aborted) return { ok: false, error: 'email: stopped: the action timed out or the run was cancelled', failure: { kind: 'transport', cls: 'timeout' } };
  if (e instanceof Refused) return { ok: false, error: e.message, failure: { kind: 'refused', status: e.status } };
  const msg = `email: not sent: ${err.message ?? String(e)}`;
  if (err.code === 'ETIMEDOUT') return { ok: false, error: msg, failure: { kind: 'transport', cls: 'timeout' } };
  if (err.code && CONNECT_CODES.has(err.code)) return { ok: false, error: msg, failure: { kind: 'transport', cls: 'connect' } };
  return { ok: false, error: msg, failure: { kind: 'other' }, ...(Array.isArray(err.rejected) ? { data: { rejected: err.rejected.map(String) } } : {}) };
}
