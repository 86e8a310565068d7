// Shared by setup.ts (in each fork) and global.ts (in vitest's main process).
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the forks of the vitest process `mainPid` note their test file, one file per fork pid. */
export const forkNotes = (mainPid: number): string => join(tmpdir(), `pw-vitest-forks-${mainPid}`);
