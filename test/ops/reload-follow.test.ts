// Schedules and MQTT subscriptions follow a reload (issue 31, part 5): a process serving a config with
// an every-second schedule and an MQTT trigger on the embedded broker is reloaded to one whose
// schedule calls elsewhere and whose trigger listens on another topic; the old schedule stops, the
// new one ticks, a publish to the old topic runs nothing and one to the new topic runs the new plan; a
// WebSocket client is closed with 1012 (service restart) and reconnects to the new interface.
// Both paths, side by side (each its own process, files, topics and upstream paths): most of each is
// waiting for schedule ticks.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { cleanEnv } from '../support/serve-cli.ts';
import { until } from '../durable/helpers.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pw-reload-follow-'));

const config = (tag: string) => `
interfaces:
  tick:
    schedule: { cron: "0 3 * * *", enabled: true }
    actions:
      - name: Call
        http: { url: a|var::API|/tick-${tag}, method: POST }
  ping:
    mqtt: ${tag}
    actions:
      - name: Call
        http: { url: a|var::API|/mqtt-${tag}, method: POST }
  talk:
    ws: true
    public: true
    actions:
      - name: Say
        input: { version: "${tag}" }
        output: http
`;

beforeAll(async () => { up = await countingUpstream({ '/*': (_q, res) => json(res, 200, { ok: true }) }); });
afterAll(async () => { for (const c of children) c.kill('SIGKILL'); await up.close(); });

async function publish(port: number, topics: string[]): Promise<void> {
  const client = await mqtt.connectAsync(`ws://127.0.0.1:${port}/mqtt`, { reconnectPeriod: 0 });
  for (const t of topics) await client.publishAsync(t, '{}', { qos: 1 });
  await client.endAsync();
}

/** A socket to the WebSocket interface: `ask` sends a request and resolves with the answer's body;
 *  `closed` with the close code. */
async function talk(port: number) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/local/dev/talk`);
  await new Promise((ok, fail) => { ws.once('open', ok); ws.once('error', fail); });
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  let id = 0;
  const ask = () => new Promise<unknown>((ok) => {
    const n = ++id;
    ws.on('message', (m) => { const f = JSON.parse(String(m)) as { id: number; body: unknown }; if (f.id === n) ok(f.body); });
    ws.send(JSON.stringify({ type: 'ap_request', id: n, body: {} }));
  });
  return { ask, closed };
}

describe('after a reload', () => {
  it.concurrent.each(['compiled', 'interpreted'] as const)('%s: the schedule, the MQTT trigger and the WebSocket interface are the new config\'s', async (mode) => {
    const [a, b] = [`${mode}-a`, `${mode}-b`];
    writeFileSync(join(dir, `${a}.yaml`), config(a));
    writeFileSync(join(dir, `${b}.yaml`), config(b));
    const child = spawn(process.execPath, ['--import', 'tsx', resolve('test/ops/reload-node.ts'), join(dir, `${a}.yaml`), join(dir, `${b}.yaml`), mode], {
      env: { ...cleanEnv(), SERVICE__VAR__API: up.url, SERVICE__CRON_SECONDS: '1', SERVICE__MQTT_PORT: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '', err = '';
    child.stdout!.on('data', (d) => { out += d; });
    child.stderr!.on('data', (d) => { err += d; });
    const port = Number(await until(() => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err)?.[1], 60_000).catch(() => { throw new Error(err); }));

    await until(() => up.count(`/tick-${a}`) > 0 || undefined, 20_000);
    await publish(port, [`dev/ping/${a}`]);
    await until(() => up.count(`/mqtt-${a}`) === 1 || undefined, 20_000);

    const socket = await talk(port);
    expect(await socket.ask()).toEqual({ version: a });

    child.stdin!.write('reload\n');
    await until(() => out.includes('reload done') || undefined, 30_000);
    await until(() => up.count(`/tick-${b}`) > 0 || undefined, 20_000);
    const oldTicks = up.count(`/tick-${a}`);
    await until(() => up.count(`/tick-${b}`) > 2 || undefined, 20_000);
    expect(up.count(`/tick-${a}`)).toBe(oldTicks);
    // In order on one connection: when the new topic's run has happened, the old topic's would have.
    await publish(port, [`dev/ping/${a}`, `dev/ping/${b}`]);
    await until(() => up.count(`/mqtt-${b}`) === 1 || undefined, 20_000);
    expect(up.count(`/mqtt-${a}`)).toBe(1);
    // A WebSocket client of the old config is asked to reconnect; it reconnects to the new one.
    expect(await socket.closed).toBe(1012);
    expect(await (await talk(port)).ask()).toEqual({ version: b });
  }, 120_000);
});
