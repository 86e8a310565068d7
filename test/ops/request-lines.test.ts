// One request line per answered request, whoever answers it: an interface's handler (which writes
// its own line), a route with onRequest hooks (a refusing network policy or credential gate), the
// error handler, the not-found handler, fastify's own refusals (a bad URL, a body too large) and the
// management routes; a client that goes away gets its 499 line from the abort hook only.
import { afterAll, expect, it } from 'vitest';
import { buildApp } from '../../runtime/server/app.ts';
import { systemClock } from '../../runtime/services.ts';
import { planOf } from '../support/plans.ts';
import { capturedLog, secretEnv, until } from './helpers.ts';

const CONFIG = `
interfaces:
  open:
    public: true
    actions: [{ name: A, input: { ok: true }, output: http }]
  gated:
    actions: [{ name: A, input: { ok: true }, output: http }]
  walled:
    public: true
    network: { deny_ips: [127.0.0.0/8] }
    actions: [{ name: A, input: { ok: true }, output: http }]
  failing:
    public: true
    actions: [{ name: A, input: { ok: true }, assert: { tests: [{ value: "a|body::ok|", is_equal_to: false }] }, output: http }]
`;

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => { for (const c of closers) await c(); });

it.each(['compiled', 'interpreted'] as const)('%s: exactly one line per request, with its status and a duration', async (mode) => {
  const env = secretEnv({}, {});
  const { log, lines } = capturedLog(env);
  const app = buildApp([await planOf('lines.yaml', mode, CONFIG)], { env, services: { clock: systemClock, log }, warn: () => {}, bodyLimit: 64, inbound: { apiKeys: ['a-key-of-sixteen-chars'] } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => app.close());
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const asked: Array<[string, number, RequestInit?]> = [
    ['/open', 200], ['/gated', 401], ['/walled', 403], ['/failing', 422], ['/nowhere', 404], ['/open/%zz', 400],
    ['/failing', 413, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ big: 'x'.repeat(200) }) }], ['/_ap/health', 200],
  ];
  for (const [path, status, init] of asked) expect((await fetch(url + path, init)).status, path).toBe(status);
  const requests = await until(() => { const r = lines.filter((l) => l.msg === 'request'); return r.length >= asked.length ? r : undefined; });
  await new Promise((r) => setTimeout(r, 50)); // a second line for any of them would have arrived by now
  expect(lines.filter((l) => l.msg === 'request').map((l) => [l.path, l.status])).toEqual(asked.map(([p, s]) => [p, s]));
  for (const l of requests) expect(l.duration_ms).toBeGreaterThanOrEqual(0);
  expect(requests[0]).toMatchObject({ config: 'lines', interface: 'open', method: 'GET' });
});
