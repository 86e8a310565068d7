// Single SFTP requests as promises, each given the idle limit to answer: a server that stops
// answering fails the action after `timeout` however long the transfer has been running, and a
// steady transfer is never cut short (each chunk is its own request).
import type { Attributes, FileEntry, SFTPWrapper } from 'ssh2';
import { SftpError } from './errors.ts';

export type Ask = <T>(what: string, call: (cb: (e: Error | null | undefined, v?: T) => void) => void) => Promise<T>;

/** Binds requests to one session, its description (user@host:port) and the idle limit. */
export function asker(where: string, idleMs: number): Ask {
  return (what, call) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new SftpError(`sftp ${where}: ${what}: no answer within ${idleMs} ms`, 'timeout')), idleMs);
    call((e, v) => {
      clearTimeout(timer);
      if (e) reject(new SftpError(`sftp ${where}: ${what}: ${e.message}`, 'operation'));
      else resolve(v as never);
    });
  });
}

export const stat = (ask: Ask, sftp: SFTPWrapper, path: string) => ask<Attributes>(`stat ${path}`, (cb) => sftp.stat(path, cb));
export const readdir = (ask: Ask, sftp: SFTPWrapper, path: string) => ask<FileEntry[]>(`list ${path}`, (cb) => sftp.readdir(path, cb));

/** The path's attributes, or undefined when it does not exist (SFTP status 2, SSH_FX_NO_SUCH_FILE). */
export const exists = (ask: Ask, sftp: SFTPWrapper, path: string): Promise<Attributes | undefined> =>
  ask<Attributes | undefined>(`stat ${path}`, (cb) => sftp.stat(path, (e, a) => ((e as { code?: number } | undefined)?.code === 2 ? cb(null, undefined) : cb(e, a))));

/** From the mode bits (S_IFDIR), which every listing and stat carries. */
export const isDir = (a: Attributes): boolean => (a.mode & 0o170000) === 0o040000;
