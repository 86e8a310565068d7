// The six operations on an open session, each with the data it returns (docs/guide.md, sftp).
import { posix } from 'node:path';
import type { SFTPWrapper } from 'ssh2';
import { exists, isDir, readdir, stat, type Ask } from './requests.ts';
import { getFile, putFile } from './transfer.ts';
import { SftpError } from './errors.ts';
import type { SftpSettings } from './settings.ts';

/** Bounds: entries a list returns, directory levels a mkdir creates. */
export const MAX_LIST_ENTRIES = 10_000;
const MAX_DEPTH = 64;

export async function runOperation(ask: Ask, sftp: SFTPWrapper, s: SftpSettings, where: string): Promise<unknown> {
  switch (s.operation) {
    case 'list': return list(ask, sftp, s.path, where);
    case 'get': return getFile(ask, sftp, s, where);
    case 'put': return putFile(ask, sftp, s, where);
    case 'rename':
      await ask(`rename ${s.path} to ${s.to}`, (cb) => sftp.rename(s.path, s.to!, cb));
      return { path: s.path, to: s.to };
    case 'delete': {
      // A directory is removed only when empty (SFTP's rmdir); a file or link is unlinked.
      const dir = isDir(await stat(ask, sftp, s.path));
      await ask(`delete ${s.path}`, (cb) => (dir ? sftp.rmdir(s.path, cb) : sftp.unlink(s.path, cb)));
      return { path: s.path, deleted: true };
    }
    case 'mkdir': return mkdirs(ask, sftp, s.path, where);
  }
}

async function list(ask: Ask, sftp: SFTPWrapper, path: string, where: string) {
  const entries = (await readdir(ask, sftp, path)).filter((e) => e.filename !== '.' && e.filename !== '..');
  if (entries.length > MAX_LIST_ENTRIES) throw new SftpError(`sftp ${where}: list ${path}: ${entries.length} entries is over the ${MAX_LIST_ENTRIES}-entry limit`, 'operation');
  return entries
    .map((e) => ({ name: e.filename, path: posix.join(path, e.filename), size: e.attrs.size, is_dir: isDir(e.attrs), modified: e.attrs.mtime }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Like `mkdir -p`: missing parents are created, an existing directory is success (created: false). */
async function mkdirs(ask: Ask, sftp: SFTPWrapper, path: string, where: string) {
  const parts = path.split('/').filter(Boolean);
  if (parts.length > MAX_DEPTH) throw new SftpError(`sftp ${where}: mkdir ${path}: more than ${MAX_DEPTH} levels`, 'operation');
  let at = path.startsWith('/') ? '/' : '';
  let created = false;
  for (const part of parts) {
    at = at ? posix.join(at, part) : part;
    const attrs = await exists(ask, sftp, at);
    if (attrs && !isDir(attrs)) throw new SftpError(`sftp ${where}: mkdir ${path}: ${at} exists and is not a directory`, 'operation');
    if (!attrs) { await ask(`mkdir ${at}`, (cb) => sftp.mkdir(at, cb)); created = true; }
  }
  return { path, created };
}
