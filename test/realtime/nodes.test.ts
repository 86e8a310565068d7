// Two server processes on one Postgres: a ws_publish on node A reaches a socket on node B, small
// payloads through NOTIFY and large ones (over NOTIFY's 8000 bytes) through the table.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, dropSchema, schemaName } from '../durable/helpers.ts';
import { config, open } from './helpers.ts';

const children: ChildProcess[] = [];
const schema = schemaName('wsnodes');
const dir = mkdtempSync(join(tmpdir(), 'pw-wsnodes-'));
const configFile = join(dir, 'rt.yaml');
writeFileSync(configFile, config);

afterAll(async () => { for (const c of children) c.kill('SIGKILL'); await dropSchema(schema); });

function node(): Promise<string> {
  const child = spawn(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', configFile, '--port', '0'], {
    env: { ...process.env, SERVICE__DATABASE_URL: DATABASE_URL, SERVICE__DATABASE_SCHEMA: schema },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((ok, fail) => {
    let err = '';
    child.stdout!.resume(); // the listening line is on stderr (stdout holds only JSON lines, drained)
    child.stderr!.on('data', (d) => { err += d; const m = /listening on http:\/\/(\S+)/.exec(err); if (m) ok(m[1]!); });
    child.on('exit', (c) => fail(new Error(`node exited ${c}: ${err}`)));
  });
}

describe('ws_publish across nodes', () => {
  it('reaches a socket on another node, small and large payloads, and keeps retained values in the store', async () => {
    const [a, b] = await Promise.all([node(), node()]);
    const sock = await open(`ws://${b}/ws/local/dev/echo`);
    sock.ws.send(JSON.stringify({ type: 'ap_subscribe', channel: 'cross' }));
    expect((await sock.next()).type).toBe('ap_subscribed');
    const send = (data: unknown, retain = false, channel = 'cross') => fetch(`http://${a}/announce`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ channels: [channel], data, retain }) });
    expect((await send({ hello: 'from a' })).status).toBe(200);
    expect(await sock.next()).toEqual({ type: 'ap_message', channel: 'cross', data: { hello: 'from a' } });
    const big = 'z'.repeat(20_000);
    await send({ big }, true);
    expect(await sock.next()).toEqual({ type: 'ap_message', channel: 'cross', data: { big } });
    // A socket that subscribes later, on the other node, gets the retained value from the store
    // (a channel of its own, so no live delivery still on its way can arrive first).
    expect((await send({ kept: 1 }, true, 'kept')).status).toBe(200);
    const late = await open(`ws://${b}/ws/local/dev/echo`);
    late.ws.send(JSON.stringify({ type: 'ap_subscribe', channel: 'kept' }));
    expect((await late.next()).type).toBe('ap_subscribed');
    expect(await late.next()).toEqual({ type: 'ap_message', channel: 'kept', data: { kept: 1 }, retained: true });
    sock.ws.terminate(); late.ws.terminate();
  }, 90_000);
});
