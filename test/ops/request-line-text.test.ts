// The usual request line is written as text (runtime/server/request-log.ts, the interface's names
// rendered once): it must be the line pino writes for the same fields, byte for byte but the time,
// and a line with a secret anywhere (the path, the config's or interface's name) goes pino's way,
// redacted.
import { expect, it } from 'vitest';
import { buildApp } from '../../runtime/server/app.ts';
import { systemClock } from '../../runtime/services.ts';
import { createLogger } from '../../runtime/log/logger.ts';
import { redactorOf } from '../../runtime/values/redact.ts';
import { planOf } from '../support/plans.ts';
import { secretEnv } from './helpers.ts';

const CONFIG = `
interfaces:
  item:
    route: /items/:id
    actions: [{ name: A, input: { ok: true }, output: http }]
`;
const timeless = (s: string) => s.replace(/"time":"[^"]*"/, '"time":""');

async function served(mode: 'compiled' | 'interpreted', secret: string, name = 'lines') {
  // Request (and run) ids JSON must escape (a quote, a backslash) that a header may carry (x-run-id).
  let n = 0;
  const env = { ...secretEnv({}, { S: secret }), uuid: () => `id"\\${n++}` };
  const raw: string[] = [];
  const log = createLogger({ level: 'info', pretty: false }, redactorOf(env), { write: (s: string) => { raw.push(s); } });
  const app = buildApp([await planOf(`${name}.yaml`, mode, CONFIG)], { env, services: { clock: systemClock, log }, warn: () => {} });
  return { app, raw, log };
}

it.each(['compiled', 'interpreted'] as const)('%s: the line as text is the line pino writes', async (mode) => {
  const { app, raw, log } = await served(mode, 'not-in-any-line');
  // Paths as clients send them, one with non-ASCII text, and one no interface serves.
  for (const url of ['/items/a%22b', '/items/%01x', '/items/é?q=1', '/nowhere']) {
    const res = await app.inject({ url });
    expect([200, 404]).toContain(res.statusCode);
  }
  await app.close();
  const requests = raw.filter((l) => JSON.parse(l).msg === 'request');
  expect(requests).toHaveLength(4);
  for (const line of requests) {
    const { level, time, msg, ...fields } = JSON.parse(line) as Record<string, unknown>;
    const again: string[] = [];
    const pinoLog = createLogger({ level: 'info', pretty: false }, redactorOf(secretEnv({}, { S: 'not-in-any-line' })), { write: (s: string) => { again.push(s); } });
    pinoLog[level as 'info'](fields, msg as string);
    expect(timeless(line)).toBe(timeless(again[0]!));
    void time; void log;
  }
  expect(JSON.parse(requests[0]!)).toMatchObject({ config: 'lines', interface: 'item', path: '/items/a%22b', status: 200, req_id: 'id"\\0' });
  expect(JSON.parse(requests[3]!)).not.toHaveProperty('config');
});

it.each(['compiled', 'interpreted'] as const)('%s: a secret in the path or in the names is redacted', async (mode) => {
  const inPath = await served(mode, 'hunter2');
  await inPath.app.inject({ url: '/items/hunter2' });
  await inPath.app.close();
  const pathLine = inPath.raw.find((l) => l.includes('"request"'))!;
  expect(pathLine).not.toContain('hunter2');
  expect(JSON.parse(pathLine).path).toBe('/items/[redacted]');

  // The secret is the config's name: rendered once for the interface, and never written.
  const inName = await served(mode, 'linesecret', 'linesecret');
  await inName.app.inject({ url: '/items/1' });
  await inName.app.inject({ url: '/items/2' });
  await inName.app.close();
  const nameLines = inName.raw.filter((l) => l.includes('"request"'));
  expect(nameLines).toHaveLength(2);
  for (const l of nameLines) {
    expect(l).not.toContain('linesecret');
    expect(JSON.parse(l).config).toBe('[redacted]');
  }
});
