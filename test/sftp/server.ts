// A real SFTP server in process (ssh2's Server) over a temp directory, with a generated host key: the
// password and public-key checks of a real server, the SFTP requests the action sends, and a count
// of connections still open (a test fails when a run leaves one behind).
import { closeSync, fstatSync, lstatSync, mkdirSync, mkdtempSync, openSync, readSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeSync, existsSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import ssh2 from 'ssh2';

const { Server, utils } = ssh2;
const { STATUS_CODE } = utils.sftp;

export interface TestSftpServer {
  port: number;
  root: string;
  /** `SHA256:…` of the host key, as ssh-keygen -lf prints it. */
  fingerprint: string;
  user: string;
  password: string;
  /** An OpenSSH private key the server accepts for `user` (encrypted with `passphrase`). */
  privateKey: string;
  passphrase: string;
  /** Connections accepted so far, and those not yet closed. */
  connections: () => number;
  open: () => number;
  /** Answer no request at all (the idle-limit test). */
  setStalled: (on: boolean) => void;
  close: () => Promise<void>;
}

/** An ed25519 key pair and its parsed public key. ssh2's keygen strips every leading zero byte of the
 *  public key, so about one pair in 256 is one its own parseKey refuses ("Malformed OpenSSH public
 *  key"): such a pair is drawn again (the tests failed at random once in a few hundred runs). */
function parsedKeyPair(o?: { passphrase: string; cipher: string; rounds: number }) {
  for (let i = 0; ; i++) {
    const pair = o ? utils.generateKeyPairSync('ed25519', o) : utils.generateKeyPairSync('ed25519');
    const parsed = utils.parseKey(pair.public);
    if (!(parsed instanceof Error)) return [pair, Array.isArray(parsed) ? parsed[0]! : parsed] as const;
    if (i === 20) throw parsed;
  }
}

export async function startSftpServer(): Promise<TestSftpServer> {
  const root = mkdtempSync(join(tmpdir(), 'pw-sftp-'));
  const [host, hostPublic] = parsedKeyPair();
  const fingerprint = `SHA256:${createHash('sha256').update(hostPublic.getPublicSSH()).digest('base64').replace(/=+$/, '')}`;
  const passphrase = 'correct horse battery';
  // 2 bcrypt rounds: an encrypted key all the same (ssh-keygen's 16 cost seconds to make and to parse).
  const [userKey, userPublic] = parsedKeyPair({ passphrase, cipher: 'aes256-ctr', rounds: 2 });
  const user = 'deploy', password = 'pa55-w0rd-for-tests';
  let connections = 0, open = 0, stalled = false;
  const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
  const local = (p: string) => {
    const rel = normalize(`/${p}`);
    return join(root, rel);
  };

  const server = new Server({ hostKeys: [host.private] }, (client) => {
    connections++;
    open++;
    // Answers go out at once, not after the client's delayed ACK: the server's latency is not under test.
    (client as unknown as { setNoDelay(on: boolean): void }).setNoDelay(true); // ssh2 has it, its types do not
    client.on('close', () => open--);
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      if (ctx.username !== user) return ctx.reject();
      if (ctx.method === 'password' && same(Buffer.from(ctx.password), Buffer.from(password))) return ctx.accept();
      if (ctx.method === 'publickey' && ctx.key.algo === userPublic.type && same(ctx.key.data, userPublic.getPublicSSH())) {
        if (!ctx.signature || !ctx.blob) return ctx.accept();
        return userPublic.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true ? ctx.accept() : ctx.reject();
      }
      return ctx.reject(['publickey', 'password']);
    });
    client.on('ready', () => client.on('session', (accept) => accept().on('sftp', (acceptSftp) => serveSftp(acceptSftp(), local, () => stalled))));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port, root, fingerprint, user, password, passphrase, privateKey: userKey.private,
    connections: () => connections, open: () => open, setStalled: (on) => { stalled = on; },
    close: () => new Promise<void>((r) => { server.close(() => r()); rmSync(root, { recursive: true, force: true }); }),
  };
}

type Events = { on(event: string, f: (id: number, ...a: any[]) => void): void };

function serveSftp(sftp: ssh2.SFTPWrapper, local: (p: string) => string, stalled: () => boolean): void {
  const handles = new Map<number, { fd?: number; dir?: string; listed?: boolean }>();
  let next = 0;
  const handle = (h: { fd?: number; dir?: string }) => { const b = Buffer.alloc(4); b.writeUInt32BE(next, 0); handles.set(next++, h); return b; };
  const get = (b: Buffer) => handles.get(b.readUInt32BE(0));
  // The messages OpenSSH's sftp-server sends.
  const fail = (id: number, e: unknown) => ((e as NodeJS.ErrnoException).code === 'ENOENT' ? sftp.status(id, STATUS_CODE.NO_SUCH_FILE, 'No such file') : sftp.status(id, STATUS_CODE.FAILURE, 'Failure'));
  const attrs = (s: Stats) => ({ mode: s.mode, uid: s.uid, gid: s.gid, size: s.size, atime: Math.floor(s.atimeMs / 1000), mtime: Math.floor(s.mtimeMs / 1000) });
  const on = (event: string, f: (id: number, ...a: any[]) => void) => (sftp as unknown as Events).on(event, (id, ...a) => {
    if (stalled()) return;
    try { f(id, ...a); } catch (e) { fail(id, e); }
  });
  on('OPEN', (id, path: string, flags: number) => sftp.handle(id, handle({ fd: openSync(local(path), utils.sftp.flagsToString(flags)!) })));
  on('READ', (id, h: Buffer, offset: number, length: number) => {
    const buf = Buffer.alloc(length);
    const n = readSync(get(h)!.fd!, buf, 0, length, offset);
    if (n === 0) sftp.status(id, STATUS_CODE.EOF); else sftp.data(id, buf.subarray(0, n));
  });
  on('WRITE', (id, h: Buffer, offset: number, data: Buffer) => { writeSync(get(h)!.fd!, data, 0, data.length, offset); sftp.status(id, STATUS_CODE.OK); });
  on('CLOSE', (id, h: Buffer) => { const x = get(h); if (x?.fd !== undefined) closeSync(x.fd); handles.delete(h.readUInt32BE(0)); sftp.status(id, STATUS_CODE.OK); });
  on('FSTAT', (id, h: Buffer) => sftp.attrs(id, attrs(fstatSync(get(h)!.fd!))));
  on('STAT', (id, path: string) => sftp.attrs(id, attrs(statSync(local(path)))));
  on('LSTAT', (id, path: string) => sftp.attrs(id, attrs(lstatSync(local(path)))));
  on('REALPATH', (id, path: string) => sftp.name(id, [{ filename: normalize(`/${path}`), longname: '', attrs: {} as never }]));
  on('OPENDIR', (id, path: string) => { statSync(local(path)); sftp.handle(id, handle({ dir: local(path) })); });
  on('READDIR', (id, h: Buffer) => {
    const x = get(h)!;
    if (x.listed) return sftp.status(id, STATUS_CODE.EOF);
    x.listed = true;
    const names = ['.', '..', ...readdirSync(x.dir!)];
    sftp.name(id, names.map((n) => ({ filename: n, longname: n, attrs: attrs(statSync(join(x.dir!, n))) })));
  });
  on('MKDIR', (id, path: string) => { mkdirSync(local(path)); sftp.status(id, STATUS_CODE.OK); });
  on('RMDIR', (id, path: string) => { rmdirSync(local(path)); sftp.status(id, STATUS_CODE.OK); });
  on('REMOVE', (id, path: string) => { unlinkSync(local(path)); sftp.status(id, STATUS_CODE.OK); });
  // SFTP v3 rename: an existing target is an error (as OpenSSH's server answers).
  on('RENAME', (id, from: string, to: string) => {
    if (existsSync(local(to))) return sftp.status(id, STATUS_CODE.FAILURE, 'target exists');
    renameSync(local(from), local(to));
    sftp.status(id, STATUS_CODE.OK);
  });
}
