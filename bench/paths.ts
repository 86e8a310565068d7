// Where the benchmark finds the CLI and keeps its scratch files (bench/.build, git-ignored).
import { join } from 'node:path';

export const benchDir = import.meta.dirname;
export const root = join(benchDir, '..');
export const buildDir = join(benchDir, '.build');
export const cli = join(root, 'bin', 'pipewright.mjs');
