// The CLI runs dist/ only when it is at least as new as every source under runtime/, compiler/ and
// cli/ (bin/pipewright.mjs); otherwise it runs the TypeScript through tsx, which slows `check` and
// `compile` and adds tsx to the fast way's process (its RSS). A source saved after the build — even
// a `git checkout` of an unchanged file — made a whole run measure that silently: the bench builds
// dist/ first when it is stale, and says so at the end if a source changed during the run.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './paths.ts';
import { distIsCurrent as current } from '../bin/dist-current.mjs';

/** True when the CLI runs dist/ (bin/dist-current.mjs, as bin/pipewright.mjs decides). */
export const distIsCurrent = (): boolean => current(`${root}/`);

/** Builds dist/ (npm run build) when it is older than the sources. */
export function ensureFreshDist(): void {
  if (distIsCurrent()) return;
  process.stderr.write('bench: dist/ is older than the sources: building it first (npm run build)\n');
  execFileSync(process.execPath, [join(root, 'scripts', 'build-dist.mjs')], { stdio: 'inherit' });
}
