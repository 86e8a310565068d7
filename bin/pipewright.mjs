#!/usr/bin/env node
// The CLI runs the TypeScript sources directly through tsx's loader (no build step to forget).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
const code = await main(process.argv.slice(2));
// Pooled upstream connections would keep the process alive: leave once stdout is flushed.
process.stdout.write('', () => process.exit(code));
