// The request line skips pino's per-call work (writeFlatLine, runtime/log/logger.ts) but must be the
// line pino writes, byte for byte, and a line that holds a secret must come out redacted.
import { expect, it } from 'vitest';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../runtime/log/logger.ts';
import { writeFlatLine } from '../../runtime/log/text-line.ts';
import { makeRedactor } from '../../runtime/values/redact.ts';

const SECRET = 's3cr"et/x';

function lines(level = 'info') {
  const out: string[] = [];
  const dest: DestinationStream = { write: (s: string) => { out.push(s); } };
  return { out, log: createLogger({ level, pretty: false }, makeRedactor([SECRET]), dest) };
}
// The time is the only part that may differ between two lines logged one after the other.
const timeless = (s: string) => s.replace(/"time":"[^"]*"/, '"time":""');

const fields = {
  req_id: 'a"b\\c', run_id: 'r', config: 'c\u0001d', interface: undefined, method: 'GET',
  path: `/p?x=é${'y'.repeat(120)}`, status: 200, duration_ms: 1.5,
};

it('writes the line pino writes', () => {
  const { out, log } = lines();
  log.info(fields, 'request');
  writeFlatLine(log, 'info', fields, 'request');
  log.error(fields, 'request');
  writeFlatLine(log, 'error', fields, 'request');
  expect(out).toHaveLength(4);
  expect(timeless(out[1]!)).toBe(timeless(out[0]!));
  expect(timeless(out[3]!)).toBe(timeless(out[2]!));
  expect(JSON.parse(out[1]!)).toMatchObject({ level: 'info', req_id: 'a"b\\c', config: 'c\u0001d', status: 200, duration_ms: 1.5, msg: 'request' });
});

it('redacts a secret, whether it shows as is or escaped', () => {
  const { out, log } = lines();
  writeFlatLine(log, 'info', { ...fields, path: `/${SECRET}` }, 'request');
  writeFlatLine(log, 'info', { ...fields, config: `${SECRET}\u0001` }, 'request');
  expect(out).toHaveLength(2);
  for (const l of out) expect(l).not.toContain('s3cr');
  expect(JSON.parse(out[0]!).path).toBe('/[redacted]');
});

it('leaves out a line below the level', () => {
  const { out, log } = lines('warn');
  writeFlatLine(log, 'info', fields, 'request');
  writeFlatLine(log, 'warn', fields, 'request');
  expect(out.map((l) => JSON.parse(l).level)).toEqual(['warn']);
});

it('escapes a lone surrogate (valid JSON, as pino writes it through JSON.stringify) and writes a non-finite number as null', () => {
  const { out, log } = lines();
  writeFlatLine(log, 'info', { ...fields, path: '/\ud800x', duration_ms: Number.NaN }, 'request');
  expect(out[0]).toContain('"path":"/\\ud800x"');
  expect(JSON.parse(out[0]!)).toMatchObject({ path: '/\ud800x', duration_ms: null });
});
