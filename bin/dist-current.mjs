// Whether dist/ (scripts/build-dist.mjs) is at least as new as every TypeScript source the CLI would
// otherwise run: bin/pipewright.mjs picks dist/ or the sources by it, and `npm run bench` builds
// dist/ first when it is stale (bench/dist-check.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** `root`: the package folder, ending in '/'. */
export function distIsCurrent(root) {
  const stamp = `${root}dist/.built`;
  if (!existsSync(stamp)) return false;
  // An installed package's sources do not change; only a checkout (with .git) is walked.
  if (!existsSync(`${root}.git`)) return true;
  const built = statSync(stamp).mtimeMs;
  return ['runtime', 'compiler', 'cli'].every((d) => newestSource(`${root}${d}`) <= built);
}
