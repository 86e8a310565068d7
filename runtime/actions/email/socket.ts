// The SMTP server's socket, opened here rather than by nodemailer so it goes through the outbound
// policy (SERVICE__OUTBOUND_ALLOW/DENY, managed mode): the same vetted lookup as HTTP and SFTP, and
// an IP-literal host checked before connecting. nodemailer then speaks SMTP over it, upgrading it to
// TLS itself (smtps:// from the first byte, smtp:// with STARTTLS). A denied server fails with a
// Refused (403, never retried) and is never connected to.
import type { Socket } from 'node:net';
import type { SMTPTransportOptions } from 'nodemailer/lib/smtp-transport';
import { dial } from '../../network/dialer.ts';
import { Refused } from '../../refused.ts';

type Callback = (err: Error | null, socketOptions?: { connection: Socket }) => void;

export function policedSocket(signal?: AbortSignal, setting?: string) {
  return (options: SMTPTransportOptions, callback: Callback): void => {
    const host = options.host ?? 'localhost';
    const port = Number(options.port) || (options.secure ? 465 : 587);
    let sock: Socket;
    try { sock = dial(host, port, setting); } catch (e) { return callback(e as Error); }
    let done = false;
    const finish = (err: Error | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      sock.off('error', finish);
      if (!err) return callback(null, { connection: sock });
      sock.destroy();
      // nodemailer's own codes, so the action classifies them as it does nodemailer's errors.
      callback(err instanceof Refused ? err : Object.assign(new Error(err.message), { code: (err as { code?: string }).code === 'ETIMEDOUT' ? 'ETIMEDOUT' : 'ECONNECTION' }));
    };
    const timer = setTimeout(() => finish(Object.assign(new Error(`no connection to ${host}:${port} within ${options.connectionTimeout} ms`), { code: 'ETIMEDOUT' })), options.connectionTimeout ?? 10_000);
    const abort = () => finish(new Error('cancelled'));
    // Connected, the socket is nodemailer's, which knows nothing of the signal: destroyed on abort,
    // the send fails at once (else it waits out nodemailer's own greeting or socket timeout).
    sock.once('connect', () => {
      finish(null);
      if (!signal) return;
      const cut = () => sock.destroy();
      signal.addEventListener('abort', cut, { once: true });
      sock.once('close', () => signal.removeEventListener('abort', cut));
    });
    sock.once('error', finish);
    signal?.addEventListener('abort', abort, { once: true });
  };
}
