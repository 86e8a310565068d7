// Issue 30, section 4: the embedded MQTT broker's port already in use stops the start with the reason
// (it only warned, and publishes could reach another broker); with SERVICE__MQTT_PORT free it starts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, serveOutcome } from '../support/serve-cli.ts';

const stops: Array<() => unknown> = [];
afterAll(() => { for (const s of stops) s(); });

const CONFIG = `interfaces:
  sensor:
    mqtt: sensors/+
    actions:
      - name: A
        input: a|body|
`;

const serve = (file: string, env: Record<string, string>) => serveOutcome(file, [], { ...cleanEnv(), ...env }, stops);

describe('the embedded broker\'s port', () => {
  it('taken: the start stops, naming the port and the two settings that fix it; free: it starts', async () => {
    const holder: Server = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    stops.push(() => holder.close());
    const port = (holder.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'pw-broker-'));
    const file = join(dir, 'sensors.yaml');
    writeFileSync(file, CONFIG);
    const refused = await serve(file, { SERVICE__MQTT_PORT: String(port) });
    expect(refused).toMatchObject({ code: 1 });
    const err = (refused as { err: string }).err;
    expect(err).toContain(`the embedded MQTT broker cannot listen on port ${port} (EADDRINUSE)`);
    expect(err).toContain('SERVICE__MQTT_URL');
    expect(err).not.toMatch(/\n\s+at /);
    expect(await serve(file, { SERVICE__MQTT_PORT: '0' })).toBe('listening');
  }, 60_000);
});
