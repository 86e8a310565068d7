// The usual request line is written as text (runtime/server/request-log.ts, runtime/log/text-line.ts;
// the interface's names rendered once): it must be the line pino writes for the same fields, byte
// for byte but the time, at every level; a line below the logger's level is not written; and a line
// with a secret anywhere (the path, as is or URL-encoded, the config's or interface's name) goes
// pino's way, redacted.
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
  loud:
    route: /loud
    log: { level: error }
    actions: [{ name: A, input: { ok: true }, output: http }]
`;
const timeless = (s: string) => s.replace(/"time":"[^"]*"/, '"time":""');
const requestLines = (raw: string[]) => raw.filter((l) => (JSON.parse(l) as { msg: string }).msg === 'request');

async function served(mode: 'compiled' | 'interpreted', secret: string, o: { name?: string; level?: string } = {}) {
  // Request (and run) ids JSON must escape (a quote, a backslash) that a header may carry (x-run-id).
  let n = 0;
  const env = { ...secretEnv({}, { S: secret }), uuid: () => `id"\\${n++}` };
  const raw: string[] = [];
  const log = createLogger({ level: o.level ?? 'info', pretty: false }, redactorOf(env), { write: (s: string) => { raw.push(s); } });
  const app = buildApp([await planOf(`${o.name ?? 'lines'}.yaml`, mode, CONFIG)], { env, services: { clock: systemClock, log }, warn: () => {} });
  return { app, raw };
}

it.each(['compiled', 'interpreted'] as const)('%s: the line as text is the line pino writes, at each level', async (mode) => {
  const { app, raw } = await served(mode, 'not-in-any-line');
  // Paths as clients send them, one with non-ASCII text, one no interface serves, one logged at error.
  for (const url of ['/items/a%22b', '/items/%01x', '/items/é?q=1', '/nowhere', '/loud']) {
    const res = await app.inject({ url });
    expect([200, 404]).toContain(res.statusCode);
  }
  await app.close();
  const requests = requestLines(raw);
  expect(requests).toHaveLength(5);
  for (const line of requests) {
    const { level, time: _time, msg, ...fields } = JSON.parse(line) as Record<string, unknown>;
    const again: string[] = [];
    const pinoLog = createLogger({ level: 'info', pretty: false }, redactorOf(secretEnv({}, { S: 'not-in-any-line' })), { write: (s: string) => { again.push(s); } });
    pinoLog[pinoLog.levels.labels[level as number] as 'info' | 'error'](fields, msg as string);
    expect(timeless(line)).toBe(timeless(again[0]!));
  }
  expect(JSON.parse(requests[0]!)).toMatchObject({ config: 'lines', interface: 'item', path: '/items/a%22b', status: 200, req_id: 'id"\\0' });
  expect(JSON.parse(requests[3]!)).not.toHaveProperty('config');
  expect(JSON.parse(requests[4]!)).toMatchObject({ level: 50, interface: 'loud', status: 200 });
});

it.each(['compiled', 'interpreted'] as const)('%s: a line below the logger\'s level is not written', async (mode) => {
  const { app, raw } = await served(mode, 'not-in-any-line', { level: 'warn' });
  await app.inject({ url: '/items/1' });
  await app.inject({ url: '/loud' });
  await app.close();
  expect(requestLines(raw).map((l) => JSON.parse(l) as { level: number; interface: string })).toEqual([expect.objectContaining({ level: 50, interface: 'loud' })]);
});

it.each(['compiled', 'interpreted'] as const)('%s: a secret in the path (as is or URL-encoded) or in the names is redacted', async (mode) => {
  // As is, and with a quote in the secret: the client sends it URL-encoded, and that form is a secret too.
  for (const [secret, url, part] of [['hunter2', '/items/hunter2', 'hunter2'], ['s3cr"et', '/items/s3cr%22et', 's3cr']] as const) {
    const inPath = await served(mode, secret);
    await inPath.app.inject({ url });
    await inPath.app.close();
    const pathLine = requestLines(inPath.raw)[0]!;
    expect(pathLine).not.toContain(part);
    expect(JSON.parse(pathLine).path).toBe('/items/[redacted]');
  }

  // The secret is the config's name: rendered once for the interface, and never written.
  const inName = await served(mode, 'linesecret', { name: 'linesecret' });
  await inName.app.inject({ url: '/items/1' });
  await inName.app.inject({ url: '/items/2' });
  await inName.app.close();
  const nameLines = requestLines(inName.raw);
  expect(nameLines).toHaveLength(2);
  for (const l of nameLines) {
    expect(l).not.toContain('linesecret');
    expect(JSON.parse(l).config).toBe('[redacted]');
  }
});
