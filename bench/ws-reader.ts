// A lean WebSocket client for the fanout benchmark: a plain TCP socket that does the RFC 6455
// handshake (checking Sec-WebSocket-Accept), sends masked text frames, answers pings, and splits
// what it reads into whole frames itself. What it leaves out, next to `ws`: the stream machinery
// (Node's readable stream, ws's Receiver, a Buffer per read), UTF-8 validation, closing handshakes
// and fragmented messages (continuation frames are skipped: the server sends every message whole). Reads land in one buffer shared by every socket of the process (`onread`): each read
// is split into frames before the next one, and only a frame cut across reads is copied.
// Every frame is still read and delimited by its header, so a receipt is the whole frame's bytes.
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const READ = Buffer.allocUnsafe(256 * 1024);

export interface Reader {
  /** Sends a masked text frame. */
  send(text: string): void;
  close(): void;
}

/** A client frame: FIN, the opcode, the mask bit and a fresh key (RFC 6455 §5.3). */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(head + 4 + n);
  out[0] = 0x80 | opcode;
  if (n < 126) out[1] = 0x80 | n;
  else if (n < 65536) { out[1] = 0x80 | 126; out.writeUInt16BE(n, 2); }
  else { out[1] = 0x80 | 127; out.writeBigUInt64BE(BigInt(n), 2); }
  const key = randomBytes(4);
  key.copy(out, head);
  for (let i = 0; i < n; i++) out[head + 4 + i] = payload[i]! ^ key[i & 3]!;
  return out;
}

/** Opens `url` (ws://host:port/path); `onFrame` gets each text or binary frame's payload (a view
 *  valid only during the call: the read buffer is reused). Resolves once the handshake is done. */
export function openReader(url: string, onFrame: (payload: Buffer) => void): Promise<Reader> {
  const u = new URL(url);
  const key = randomBytes(16).toString('base64');
  const accept = createHash('sha1').update(key + GUID).digest('base64');
  let pending: Buffer | undefined; // bytes of a frame (or of the handshake) cut across reads
  let open = false;
  let socket: Socket;

  return new Promise((resolve, reject) => {
    const fail = (e: Error) => { socket.destroy(); reject(e); };
    const reader: Reader = {
      send: (text) => socket.write(clientFrame(1, Buffer.from(text))),
      close: () => socket.destroy(),
    };
    /** Consumes whole frames from `b`; returns where the unconsumed rest starts. */
    const frames = (b: Buffer): number => {
      let at = 0;
      while (b.length - at >= 2) {
        const opcode = b[at]! & 0x0f;
        let len = b[at + 1]! & 0x7f, head = 2;
        if (len === 126) { if (b.length - at < 4) break; len = b.readUInt16BE(at + 2); head = 4; }
        else if (len === 127) { if (b.length - at < 10) break; len = Number(b.readBigUInt64BE(at + 2)); head = 10; }
        if (b.length - at < head + len) break;
        const payload = b.subarray(at + head, at + head + len);
        at += head + len;
        if (opcode === 1 || opcode === 2) onFrame(payload);
        else if (opcode === 9) socket.write(clientFrame(10, Buffer.from(payload)));
        else if (opcode === 8) { socket.end(); return b.length; }
      }
      return at;
    };
    const handshake = (b: Buffer): number => {
      const end = b.indexOf('\r\n\r\n');
      if (end < 0) return 0;
      const head = b.toString('latin1', 0, end);
      if (!/^HTTP\/1\.1 101 /.test(head)) { fail(new Error(`handshake refused: ${head.split('\r\n')[0]}`)); return b.length; }
      if (!new RegExp(`^sec-websocket-accept: *${accept.replace(/[+/]/g, '\\$&')}\\s*$`, 'im').test(head)) { fail(new Error('handshake: wrong Sec-WebSocket-Accept')); return b.length; }
      open = true;
      resolve(reader);
      return end + 4 + frames(b.subarray(end + 4));
    };
    socket = connect({
      host: u.hostname, port: Number(u.port), noDelay: true,
      onread: {
        buffer: READ,
        callback: (n: number, buf: Uint8Array) => {
          let b = Buffer.from(buf.buffer, buf.byteOffset, n);
          if (pending) { b = Buffer.concat([pending, b]); pending = undefined; }
          const used = open ? frames(b) : handshake(b);
          if (used < b.length) pending = Buffer.from(b.subarray(used));
          return true;
        },
      },
    });
    socket.once('error', fail);
    socket.once('connect', () => socket.write(
      `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`));
  });
}
