#!/usr/bin/env node
// The CLI runs the JavaScript built into dist/ (scripts/build-dist.mjs, on `prepare`) when it is
// at least as new as every TypeScript source, so an edited source is never shadowed by an old
// build; otherwise (or with PIPEWRIGHT_FROM_SOURCE=1) the TypeScript sources through tsx's loader.
import { distIsCurrent } from './dist-current.mjs';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);

/** dist/ unless asked for the sources, or it is older than they are (bin/dist-current.mjs). */
function useDist() {
  if (process.env.PIPEWRIGHT_FROM_SOURCE === '1') return false;
  // gen-types writes into the source tree next to itself: it always runs from source.
  if (argv[0] === 'gen-types') return false;
  return distIsCurrent(root);
}

let main;
if (useDist()) {
  // Generated modules are TypeScript: only the commands that import one need the hooks.
  if (['run', 'test'].includes(argv[0] ?? '')) (await import('node:module')).register('./dist-hooks.mjs', import.meta.url);
  ({ main } = await import('../dist/cli/main.js'));
} else if (!existsSync(new URL('../cli/main.ts', import.meta.url))) {
  // An installed package ships dist/ only: without it there is nothing to run.
  process.stderr.write(argv[0] === 'gen-types'
    ? 'pipewright: gen-types rewrites the TypeScript sources: run it in a checkout\n'
    : 'pipewright: dist/ is missing from this package (reinstall it, or run `npm run build` in a checkout)\n');
  process.exit(1);
} else {
  (await import('tsx/esm/api')).register();
  ({ main } = await import('../cli/main.ts'));
}
const code = await main(argv);
// Pooled upstream connections would keep the process alive: leave once stdout is flushed.
process.stdout.write('', () => process.exit(code));
