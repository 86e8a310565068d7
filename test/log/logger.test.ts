// The stdout logger batches lines (runtime/log/logger.ts); once it has ended (pino's exit hook, a
// shutdown) nothing hands a batch over any more, so a line logged then must not wait in memory: it
// is written at once (before, it was kept forever and never written).
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

it('lines logged after the logger ended are written, not kept', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', resolve('test/log/after-end-node.ts')], { encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  const msgs = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { msg: string }).msg);
  expect(msgs).toEqual(['before end', 'while closing', 'after end 0', 'after end 1', 'after end 2']);
}, 40_000);

it('batches lines as UTF-8 bytes: every line whole and in order, a quiet line within the flush interval', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve('test/log/batched-node.ts')]);
  const out: Buffer[] = [];
  let atPause = -1, quietSeenAt = -1;
  child.stdout.on('data', (b: Buffer) => { out.push(b); if (quietSeenAt < 0 && Buffer.concat(out).includes('"msg":"quiet"')) quietSeenAt = Date.now(); });
  child.stderr.on('data', (b: Buffer) => { if (b.toString().includes('paused')) atPause = Date.now(); });
  const code = await new Promise((r) => child.on('close', r));
  expect(code).toBe(0);
  const lines = Buffer.concat(out).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { msg: string; i?: number; text?: string; long?: string });
  const texts = ['é', '漢字', '😀', '\ufffd', 'x'];
  expect(lines.slice(0, 3000).map((l) => [l.msg, l.text])).toEqual(Array.from({ length: 3000 }, (_, i) => [`line ${i}`, texts[i % 5]!.repeat(i % 97)]));
  expect(lines[3000]!.long).toBe('ü'.repeat(40_000));
  expect(lines.slice(3001).map((l) => l.msg)).toEqual(['quiet']);
  // Written by the flush timer (100 ms) while the process still waits, not by its exit 1.5 s later.
  expect(quietSeenAt - atPause).toBeLessThan(1000);
}, 40_000);
