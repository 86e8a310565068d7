// The stdout logger batches lines (runtime/log/logger.ts); once it has ended (pino's exit hook, a
// shutdown) nothing hands a batch over any more, so a line logged then must not wait in memory: it
// is written at once (before, it was kept forever and never written).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

it('lines logged after the logger ended are written, not kept', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', resolve('test/log/after-end-node.ts')], { encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  const msgs = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { msg: string }).msg);
  expect(msgs).toEqual(['before end', 'while closing', 'after end 0', 'after end 1', 'after end 2']);
}, 40_000);
