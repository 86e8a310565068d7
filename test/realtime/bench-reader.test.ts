// The fanout benchmark's lean WebSocket client (bench/ws-reader.ts) against a `ws` server over a
// real socket: its receipts are the latency figures, so every frame must come out whole, once, in
// order, however the server's writes are cut into reads.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { openReader } from '../../bench/ws-reader.ts';

let wss: WebSocketServer | undefined;
afterEach(() => { for (const c of wss?.clients ?? []) c.terminate(); wss?.close(); });

async function serve(): Promise<{ url: string; peer: Promise<WebSocket> }> {
  wss = new WebSocketServer({ port: 0, perMessageDeflate: false });
  await once(wss, 'listening');
  const peer = once(wss, 'connection').then(([ws]) => ws as WebSocket);
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/feed`, peer };
}

test('frames come out whole and in order: small, 16-bit and 64-bit lengths, several per write, one cut across writes', async () => {
  const { url, peer } = await serve();
  const got: string[] = [];
  const reader = await openReader(url, (p) => got.push(p.toString()));
  const ws = await peer;
  const big = 'x'.repeat(70_000);
  ws.send('a');
  ws.send('b'.repeat(300));
  ws.send(big);
  // Two frames in one TCP write, then a frame whose bytes arrive in two writes.
  const tcp = (ws as unknown as { _socket: { write(b: Buffer): boolean } })._socket;
  tcp.write(Buffer.from([0x81, 1, 0x63, 0x81, 1, 0x64]));
  tcp.write(Buffer.from([0x81, 3, 0x65]));
  await new Promise((r) => setTimeout(r, 20));
  tcp.write(Buffer.from([0x65, 0x65]));
  await expect.poll(() => got.length).toBe(6);
  expect(got).toEqual(['a', 'b'.repeat(300), big, 'c', 'd', 'eee']);
  reader.close();
});

test('sends masked text frames the server reads, and answers pings', async () => {
  const { url, peer } = await serve();
  const reader = await openReader(url, () => {});
  const ws = await peer;
  const message = once(ws, 'message');
  reader.send('{"type":"ap_subscribe"}');
  expect(String((await message)[0])).toBe('{"type":"ap_subscribe"}');
  const pong = once(ws, 'pong');
  ws.ping('are you there');
  expect(String((await pong)[0])).toBe('are you there');
  reader.close();
});

test('a refused handshake rejects', async () => {
  const { url } = await serve();
  wss!.options.verifyClient = () => false;
  await expect(openReader(url, () => {})).rejects.toThrow(/handshake refused: HTTP\/1.1 401/);
});
