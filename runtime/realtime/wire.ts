// The bytes of a WebSocket text frame, built once and written as they are to every subscribed
// socket: a fan-out to 1,000 sockets then costs each socket one plain write of shared bytes, with
// no per-socket framing (ws's `send` builds a header and writes header and payload as a writev).
// Server frames are never masked (RFC 6455 §5.1) and permessage-deflate is off (ws-server.ts), so
// the bytes are the same for every socket.
import * as ws from 'ws';

// ws exports its framing (`import { Sender } from 'ws'`); @types/ws does not declare it.
interface FrameOptions { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }
const { Sender } = ws as unknown as { Sender: { frame(data: Buffer, o: FrameOptions): Buffer[] } };

export function textFrame(text: string): Buffer {
  return Buffer.concat(Sender.frame(Buffer.from(text), { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }));
}
