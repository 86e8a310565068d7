// One SSH connection with its SFTP session per attempt, closed whatever happens: the socket goes
// through the outbound policy (the same vetted lookup as HTTP), the server's key is checked against
// host_key, and the private key is offered before the password (spec Authentication 2).
import { Client, type AnyAuthMethod, type SFTPWrapper } from 'ssh2';
import { dial } from '../../network/dialer.ts';
import { Refused } from '../../refused.ts';
import { fingerprint } from './fingerprint.ts';
import { privateKeyOf } from './private-key.ts';
import { SftpConfigError, type SftpSettings } from './settings.ts';
import { SftpError } from './errors.ts';

export interface Session {
  sftp: SFTPWrapper;
  /** Ends the connection and waits until the socket is closed. */
  close(): Promise<void>;
}

/** How long close() waits for the server's side before dropping the socket. */
const CLOSE_WAIT_MS = 2000;

export async function openSession(s: SftpSettings, signal?: AbortSignal): Promise<Session> {
  const where = `${s.user}@${s.host}:${s.port}`;
  // A denied IP literal throws here, before anything is opened (the policy's refusal comes first).
  const sock = dial(s.host, s.port);
  // Nagle off: an SFTP request is a small packet written after another the server has not yet
  // acknowledged (the channel's window adjust, the previous request), and held back until the peer's
  // delayed ACK (~40 ms on Linux) each time: every operation paid it once per round trip.
  sock.setNoDelay(true);
  // The key first, then the password. The key is parsed once per key text (privateKeyOf; given as
  // `privateKey`, ssh2 would parse it on every connect); one that cannot be used fails the attempt
  // before the SSH client starts (the socket is dropped at once, nothing to wait for).
  const auth: AnyAuthMethod[] = [];
  if (s.privateKey) {
    try {
      auth.push({ type: 'publickey', username: s.user, key: privateKeyOf(s.privateKey, s.passphrase) });
    } catch (e) {
      sock.destroy();
      // ssh2's message never contains the key.
      throw new SftpConfigError(`sftp: "private_key" could not be used: ${(e as Error).message}`);
    }
  }
  if (s.password) auth.push({ type: 'password', username: s.user, password: s.password });
  const client = new Client();
  // Errors after the handshake (a reset socket) reach the pending SFTP request as its failure; an
  // 'error' event without a listener would crash the process.
  client.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
  const close = async () => {
    client.end();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise<void>((r) => { timer = setTimeout(() => { client.destroy(); r(); }, CLOSE_WAIT_MS); })]);
    clearTimeout(timer);
  };
  let seen: string | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', (e: Error & { level?: string }) => reject(connectError(e, s, where, seen)));
    client.once('close', () => reject(new SftpError(`sftp ${where}: the connection closed before it was ready`, 'connect')));
  });
  ready.catch(() => undefined);
  const abort = () => client.destroy();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    try {
      client.connect({
        sock, username: s.user, readyTimeout: s.timeoutMs, authHandler: auth,
        hostVerifier: (key: Buffer) => { seen = fingerprint(key); return s.hostKey === undefined || seen === s.hostKey; },
      });
    } catch (e) {
      sock.destroy();
      // ssh2 checks its settings synchronously (the key was checked above).
      throw new SftpConfigError(`sftp: the connection settings were refused: ${(e as Error).message}`);
    }
    await ready;
    const sftp = await new Promise<SFTPWrapper>((resolve, reject) => client.sftp((e, w) => (e ? reject(new SftpError(`sftp ${where}: the server refused the SFTP subsystem: ${e.message}`, 'connect')) : resolve(w))));
    sftp.on('error', () => undefined);
    return { sftp, close };
  } catch (e) {
    await close();
    if (signal?.aborted) throw new SftpError(`sftp ${where}: abandoned when the action's timeout passed`, 'timeout');
    throw e;
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

function connectError(e: Error & { level?: string }, s: SftpSettings, where: string, seen: string | undefined): Error {
  if (e instanceof Refused) return e;
  if (e.level === 'client-timeout') return new SftpError(`sftp ${where}: no SSH handshake within ${s.timeoutMs} ms`, 'timeout');
  if (e.level === 'client-authentication') return new SftpError(`sftp ${where}: authentication failed (tried ${[s.privateKey && 'private_key', s.password && 'password'].filter(Boolean).join(', ')})`, 'connect');
  if (seen !== undefined && s.hostKey !== undefined && seen !== s.hostKey)
    return new SftpError(`sftp ${where}: the server's host key ${seen} does not match host_key ${s.hostKey}; the connection was refused`, 'connect');
  return new SftpError(`sftp ${where}: could not connect: ${e.message}`, 'connect');
}
