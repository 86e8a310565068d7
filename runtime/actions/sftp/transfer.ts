// get and put: a file read or written in chunks (each chunk one SFTP request under the idle limit),
// bounded in size, as UTF-8 text or base64. A file read as text must be text: valid UTF-8 with no NUL
// byte (the test git and grep use for "binary"); anything else fails and names encoding: base64.
import type { SFTPWrapper } from 'ssh2';
import type { Ask } from './requests.ts';
import { isDir, stat } from './requests.ts';
import { SftpError } from './errors.ts';
import type { SftpSettings } from './settings.ts';

/** Bound: a get reads and a put writes at most this many bytes (documented in docs/guide.md). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
const CHUNK = 32 * 1024;

export async function getFile(ask: Ask, sftp: SFTPWrapper, s: SftpSettings, where: string) {
  const attrs = await stat(ask, sftp, s.path);
  if (isDir(attrs)) throw new SftpError(`sftp ${where}: get ${s.path}: is a directory (use operation: list)`, 'operation');
  if (attrs.size > MAX_FILE_BYTES) throw new SftpError(`sftp ${where}: get ${s.path}: ${attrs.size} bytes is over the ${MAX_FILE_BYTES}-byte limit`, 'operation');
  const handle = await ask<Buffer>(`open ${s.path}`, (cb) => sftp.open(s.path, 'r', cb));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const buf = Buffer.alloc(CHUNK);
      const n = await ask<number>(`read ${s.path}`, (cb) => sftp.read(handle, buf, 0, CHUNK, size, (e, bytes) => cb(e, bytes)));
      if (!n) break;
      size += n;
      if (size > MAX_FILE_BYTES) throw new SftpError(`sftp ${where}: get ${s.path}: grew past the ${MAX_FILE_BYTES}-byte limit while being read`, 'operation');
      chunks.push(buf.subarray(0, n));
    }
  } finally {
    await ask(`close ${s.path}`, (cb) => sftp.close(handle, cb)).catch(() => undefined);
  }
  const bytes = Buffer.concat(chunks, size);
  return { path: s.path, size, modified: attrs.mtime, encoding: s.encoding, content: s.encoding === 'base64' ? bytes.toString('base64') : asText(bytes, s.path, where) };
}

export async function putFile(ask: Ask, sftp: SFTPWrapper, s: SftpSettings, where: string) {
  const bytes = s.encoding === 'base64' ? fromBase64(s.content!, where) : Buffer.from(s.content!, 'utf8');
  if (bytes.length > MAX_FILE_BYTES) throw new SftpError(`sftp ${where}: put ${s.path}: ${bytes.length} bytes is over the ${MAX_FILE_BYTES}-byte limit`, 'operation');
  const handle = await ask<Buffer>(`open ${s.path}`, (cb) => sftp.open(s.path, 'w', cb));
  try {
    for (let at = 0; at < bytes.length; at += CHUNK) {
      const n = Math.min(CHUNK, bytes.length - at);
      await ask(`write ${s.path}`, (cb) => sftp.write(handle, bytes, at, n, at, cb));
    }
  } finally {
    await ask(`close ${s.path}`, (cb) => sftp.close(handle, cb));
  }
  return { path: s.path, size: bytes.length };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function asText(bytes: Buffer, path: string, where: string): string {
  let text: string | undefined;
  if (!bytes.includes(0)) try { text = utf8.decode(bytes); } catch { /* binary */ }
  if (text === undefined) throw new SftpError(`sftp ${where}: get ${path}: the file is binary (not UTF-8 text); read it with encoding: base64`, 'operation');
  return text;
}

function fromBase64(content: string, where: string): Buffer {
  const clean = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) throw new SftpError(`sftp ${where}: put: "content" is not base64 (encoding: base64)`, 'operation');
  return Buffer.from(clean, 'base64');
}
