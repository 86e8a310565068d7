// Runs in each vitest fork before its test file (vitest.config.ts setupFiles): notes which file this
// fork runs, where global.ts (in the main process) finds it if the fork dies unasked.
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { expect } from 'vitest';
import { forkNotes } from './notes.ts';

const file = expect.getState().testPath;
if (file) {
  try {
    mkdirSync(forkNotes(process.ppid), { recursive: true });
    writeFileSync(`${forkNotes(process.ppid)}/${process.pid}`, relative(process.cwd(), file));
  } catch { /* diagnostics only */ }
}
