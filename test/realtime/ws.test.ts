// WebSocket interfaces and channels over real sockets (the `ws` client), in both execution paths:
// frames that run the interface, malformed frames, subscribe with and without an authorizer,
// retained values, credentials at the upgrade, slow consumers and dead sockets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../runtime/server/app.ts';
import { MemoryStore } from '../../runtime/store/index.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { DEFAULT_WS_LIMITS } from '../../runtime/realtime/limits.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { config, open } from './helpers.ts';

const GOOD = 'good-key-0123456789';

for (const mode of ['compiled', 'interpreted'] as const) {
  describe(`WebSocket interfaces (${mode})`, () => {
    let app: FastifyInstance;
    let base: string;
    let http: string;
    const sockets: WebSocket[] = [];
    const connect = async (path: string, headers: Record<string, string> = {}) => { const c = await open(base + path, headers); sockets.push(c.ws); return c; };
    beforeAll(async () => {
      const plan = await planOf('rt.yaml', mode, config);
      app = buildApp([plan], { env: testEnv(), services: { clock: systemClock, store: new MemoryStore() }, org: 'acme', environment: 'prod', inbound: { apiKeys: [GOOD] }, wsLimits: { ...DEFAULT_WS_LIMITS, maxFrameBytes: 1024, maxSubscriptions: 3 } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as AddressInfo).port;
      base = `ws://127.0.0.1:${port}`;
      http = `http://127.0.0.1:${port}`;
    });
    afterAll(async () => { for (const s of sockets) s.terminate(); await app.close(); });

    it('runs the interface for each JSON frame and answers on the socket', async () => {
      const c = await connect('/ws/acme/prod/echo?via=socket');
      c.ws.send(JSON.stringify({ type: 'ap_request', id: 'r1', body: { a: 1 } }));
      expect(await c.next()).toEqual({ type: 'ap_result', id: 'r1', status: 200, body: { got: { a: 1 }, via: 'socket' } });
      c.ws.send(JSON.stringify([1, 2]));
      expect(await c.next()).toEqual({ type: 'ap_result', status: 200, body: { got: [1, 2], via: 'socket' } });
    });

    it('answers malformed, unknown, binary and oversized frames with an error frame and keeps the socket', async () => {
      const c = await connect('/ws/acme/prod/echo');
      c.ws.send('{nope');
      expect(await c.next()).toEqual({ type: 'ap_error', status: 400, message: 'the frame is not JSON' });
      c.ws.send(JSON.stringify({ type: 'ap_dance', id: 7 }));
      expect(await c.next()).toEqual({ type: 'ap_error', id: 7, status: 400, message: 'unknown frame type "ap_dance" (ap_request, ap_subscribe, ap_unsubscribe)' });
      c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      expect((await c.next()).message).toBe('binary frames are not accepted: send JSON text');
      c.ws.send(JSON.stringify({ big: 'x'.repeat(2000) }));
      expect(await c.next()).toMatchObject({ type: 'ap_error', status: 413 });
      c.ws.send(JSON.stringify({ type: 'ap_subscribe', channel: '' }));
      expect((await c.next()).status).toBe(400);
      c.ws.send(JSON.stringify({ type: 'ap_request', id: 2, body: 'still here' }));
      expect(await c.next()).toMatchObject({ type: 'ap_result', id: 2, body: { got: 'still here' } });
    });

    it('sends a failed run as an error frame with its status', async () => {
      const c = await connect('/ws/acme/prod/strict', { 'x-api-key': GOOD });
      c.ws.send(JSON.stringify({ type: 'ap_request', id: 'x', body: { n: 0 } }));
      expect(await c.next()).toMatchObject({ type: 'ap_error', id: 'x', status: 422 });
      c.ws.send(JSON.stringify({ n: 5 }));
      expect(await c.next()).toEqual({ type: 'ap_result', status: 200, body: { n: 5 } });
    });

    it('refuses a non-public interface at the upgrade without a good credential (401/403)', async () => {
      await expect(open(base + '/ws/acme/prod/strict')).rejects.toMatchObject({ status: 401 });
      await expect(open(base + '/ws/acme/prod/strict', { 'x-api-key': 'bad' })).rejects.toMatchObject({ status: 403 });
      await expect(open(base + '/ws/acme/prod/nothing')).rejects.toMatchObject({ status: 404 });
      await expect(open(base + '/ws/other/prod/echo')).rejects.toMatchObject({ status: 404 });
    });

    it('delivers ws_publish to subscribers, and a retained value on subscribe', async () => {
      const a = await connect('/ws/acme/prod/echo');
      a.ws.send(JSON.stringify({ type: 'ap_subscribe', id: 's', channel: `prices-${mode}` }));
      expect(await a.next()).toEqual({ type: 'ap_subscribed', id: 's', channel: `prices-${mode}` });
      const res = await fetch(`${http}/announce`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': GOOD }, body: JSON.stringify({ channels: [`prices-${mode}`], data: { p: 1 }, retain: true }) });
      expect(await res.json()).toEqual({ channels: [`prices-${mode}`], retained: true });
      expect(await a.next()).toEqual({ type: 'ap_message', channel: `prices-${mode}`, data: { p: 1 } });
      const b = await connect('/ws/acme/prod/echo');
      b.ws.send(JSON.stringify({ type: 'ap_subscribe', channel: `prices-${mode}` }));
      expect(await b.next()).toEqual({ type: 'ap_subscribed', channel: `prices-${mode}` });
      expect(await b.next()).toEqual({ type: 'ap_message', channel: `prices-${mode}`, data: { p: 1 }, retained: true });
      b.ws.send(JSON.stringify({ type: 'ap_unsubscribe', channel: `prices-${mode}` }));
      expect(await b.next()).toEqual({ type: 'ap_unsubscribed', channel: `prices-${mode}` });
      await fetch(`${http}/announce`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': GOOD }, body: JSON.stringify({ channels: `prices-${mode}`, data: 2 }) });
      expect(await a.next()).toEqual({ type: 'ap_message', channel: `prices-${mode}`, data: 2 });
      await new Promise((r) => setTimeout(r, 50));
      expect(b.frames).toEqual([]);
    });

    it('asks subscribe_authorizer about each channel', async () => {
      const c = await connect('/ws/acme/prod/feed');
      c.ws.send(JSON.stringify({ type: 'ap_subscribe', id: 1, channel: 'secrets' }));
      expect(await c.next()).toEqual({ type: 'ap_error', id: 1, status: 403, message: 'subscription to "secrets" was refused' });
      c.ws.send(JSON.stringify({ type: 'ap_subscribe', id: 2, channel: 'news-today' }));
      expect(await c.next()).toEqual({ type: 'ap_subscribed', id: 2, channel: 'news-today' });
    });

    it('caps subscriptions per socket', async () => {
      const c = await connect('/ws/acme/prod/echo');
      for (const ch of ['a', 'b', 'c']) { c.ws.send(JSON.stringify({ type: 'ap_subscribe', channel: ch })); expect((await c.next()).type).toBe('ap_subscribed'); }
      c.ws.send(JSON.stringify({ type: 'ap_subscribe', channel: 'd' }));
      expect(await c.next()).toEqual({ type: 'ap_error', status: 429, message: 'too many subscriptions on this socket (limit 3)' });
    });
  });
}

describe('publishes in one turn of the event loop', () => {
  it('reach every subscribed socket once each, in publish order, with other channels interleaved', async () => {
    const plan = await planOf('rt.yaml', 'compiled', config);
    const services: Services = { clock: systemClock, store: new MemoryStore() };
    const app = buildApp([plan], { env: testEnv(), services });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const subscribe = async (channels: string[]) => {
      const c = await open(`ws://127.0.0.1:${port}/ws/local/dev/echo`);
      for (const channel of channels) { c.ws.send(JSON.stringify({ type: 'ap_subscribe', channel })); expect((await c.next()).type).toBe('ap_subscribed'); }
      return c;
    };
    const both = await subscribe(['a', 'b']);
    const onlyA = await subscribe(['a']);
    // 50 publishes without yielding: one batch, each socket's frames in one write.
    const channels = services.channels!;
    for (let n = 0; n < 50; n++) void channels.publish([n % 2 ? 'b' : 'a'], n, false);
    const take = async (c: Awaited<ReturnType<typeof subscribe>>, count: number) => { const got = []; for (let i = 0; i < count; i++) got.push(await c.next()); return got; };
    const all = Array.from({ length: 50 }, (_, n) => ({ type: 'ap_message', channel: n % 2 ? 'b' : 'a', data: n }));
    expect(await take(both, 50)).toEqual(all);
    expect(await take(onlyA, 25)).toEqual(all.filter((m) => m.channel === 'a'));
    // A batch of one channel: the same concatenated frames for every subscriber.
    for (let n = 0; n < 5; n++) void channels.publish(['a'], { n }, false);
    const five = Array.from({ length: 5 }, (_, n) => ({ type: 'ap_message', channel: 'a', data: { n } }));
    expect(await take(both, 5)).toEqual(five);
    expect(await take(onlyA, 5)).toEqual(five);
    // The sockets still work frame by frame afterwards (no cork left behind).
    both.ws.send(JSON.stringify({ x: 1 }));
    expect(await both.next()).toMatchObject({ type: 'ap_result', status: 200 });
    await new Promise((r) => setTimeout(r, 50));
    expect(onlyA.frames).toEqual([]);
    both.ws.terminate();
    onlyA.ws.terminate();
    await app.close();
  });
});

describe('publishes that keep coming', () => {
  it('reach every socket once each, in one order, as the same bytes, while flushes are held and batched', async () => {
    const plan = await planOf('rt.yaml', 'compiled', config);
    const app = buildApp([plan], { env: testEnv(), services: { clock: systemClock, store: new MemoryStore() } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const clients = await Promise.all(Array.from({ length: 40 }, async () => {
      const c = await open(`ws://127.0.0.1:${port}/ws/local/dev/echo`);
      c.ws.send(JSON.stringify({ type: 'ap_subscribe', channel: 'news' }));
      expect((await c.next()).type).toBe('ap_subscribed');
      const raw: string[] = [];
      c.ws.on('message', (d: Buffer) => raw.push(d.toString()));
      return { ...c, raw };
    }));
    // Four publishers, 60 requests each, concurrently: publishes arrive during flushes and rests.
    const publish = (n: number) => fetch(`http://127.0.0.1:${port}/announce`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ channels: 'news', data: { n, pad: 'x'.repeat(n % 7 * 40) } }) });
    await Promise.all([0, 1, 2, 3].map(async (p) => { for (let i = 0; i < 60; i++) expect((await publish(p * 60 + i)).status).toBe(200); }));
    for (let i = 0; i < 400 && clients.some((c) => c.raw.length < 240); i++) await new Promise((r) => setTimeout(r, 5));
    const first = clients[0]!.raw;
    expect(first).toHaveLength(240);
    expect(first.map((t) => JSON.parse(t).data.n).sort((x: number, y: number) => x - y)).toEqual(Array.from({ length: 240 }, (_, n) => n));
    // Each publisher's own requests were sequential, so its messages are in its order.
    for (let p = 0; p < 4; p++) { const mine = first.map((t) => JSON.parse(t).data.n).filter((n: number) => Math.floor(n / 60) === p); expect(mine).toEqual([...mine].sort((x, y) => x - y)); }
    for (const c of clients) expect(c.raw).toEqual(first);
    for (const c of clients) c.ws.terminate();
    await app.close();
  });
});

describe('slow consumers and dead sockets', () => {
  it('closes a socket that does not read with 1013 instead of buffering without bound', async () => {
    const plan = await planOf('rt.yaml', 'interpreted', config);
    const app = buildApp([plan], { env: testEnv(), services: { clock: systemClock, store: new MemoryStore() }, wsLimits: { ...DEFAULT_WS_LIMITS, maxBufferedBytes: 256 * 1024 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const c = await open(`ws://127.0.0.1:${port}/ws/local/dev/echo`);
    c.ws.send(JSON.stringify({ type: 'ap_subscribe', channel: 'firehose' }));
    expect((await c.next()).type).toBe('ap_subscribed');
    const closed = new Promise<number>((r) => c.ws.on('close', (code) => r(code)));
    (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const chunk = 'y'.repeat(60_000);
    for (let n = 0; n < 400; n++) {
      await fetch(`http://127.0.0.1:${port}/announce`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ channels: 'firehose', data: chunk }) });
      if (n % 20 === 0) await new Promise((r) => setImmediate(r));
    }
    (c.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await closed).toBe(1013);
    await app.close();
  });

  it('closes a socket that stops answering pings', async () => {
    const plan = await planOf('rt.yaml', 'interpreted', config);
    const app = buildApp([plan], { env: testEnv(), services: { clock: systemClock, store: new MemoryStore() }, wsLimits: { ...DEFAULT_WS_LIMITS, pingMs: 50 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const c = await open(`ws://127.0.0.1:${port}/ws/local/dev/echo`);
    const live = await open(`ws://127.0.0.1:${port}/ws/local/dev/echo`);
    const closed = new Promise<void>((r) => c.ws.on('close', () => r()));
    // A client that never reads never answers the server's ping.
    (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    await new Promise((r) => setTimeout(r, 300));
    (c.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    await closed;
    live.ws.send(JSON.stringify({ type: 'ap_request', id: 1, body: 1 }));
    expect((await live.next()).type).toBe('ap_result');
    live.ws.terminate();
    await app.close();
  });
});
