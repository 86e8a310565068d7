// A package-lock.json for a folder that installs only the packed pipewright tarball, made from the
// project's own lock: the packed package's dependencies and everything they need, found as Node
// finds them (the nearest node_modules up the tree), each with its registry URL and integrity. With
// it, `npm ci --offline` needs no registry metadata, only the tarballs that installing the project
// put in npm's cache (read by integrity).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface LockEntry {
  version?: string; resolved?: string; integrity?: string; dev?: boolean; devOptional?: boolean; optional?: boolean;
  dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const REGISTRY = 'https://registry.npmjs.org/';

/** `tarball`: the packed file, in the folder the lock is for. */
export function offlineLock(projectLock: string, tarball: string, pkg: { name: string; version: string; dependencies: Record<string, string>; bin?: unknown }): object {
  const lock = (JSON.parse(readFileSync(projectLock, 'utf8')) as { packages: Record<string, LockEntry> }).packages;
  const self = `node_modules/${pkg.name}`;
  const file = `file:${basename(tarball)}`;
  const packages: Record<string, object> = {
    '': { dependencies: { [pkg.name]: file } },
    [self]: { version: pkg.version, resolved: file, integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`, dependencies: pkg.dependencies, bin: pkg.bin },
  };
  const find = (from: string, name: string): string | undefined => {
    for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
      const at = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
      if (at !== `${self}/node_modules/${name}` && lock[at]) return at;
      if (!dir) return undefined;
    }
  };
  const visit = (from: string, deps: Record<string, string>, optional: (name: string) => boolean) => {
    for (const name of Object.keys(deps)) {
      const at = find(from, name);
      if (!at) { if (optional(name)) continue; throw new Error(`${name} (needed by ${from}) is not in ${projectLock}`); }
      if (packages[at]) continue;
      const { dev: _d, devOptional: _o, ...entry } = lock[at]!;
      packages[at] = { ...entry, resolved: entry.resolved ?? `${REGISTRY}${name}/-/${name.split('/').pop()}-${entry.version}.tgz` };
      const e = lock[at]!;
      visit(at, { ...e.dependencies, ...e.optionalDependencies }, (n) => n in (e.optionalDependencies ?? {}));
      visit(at, e.peerDependencies ?? {}, (n) => e.peerDependenciesMeta?.[n]?.optional === true);
    }
  };
  visit(self, pkg.dependencies, () => false);
  return { name: 'consumer', lockfileVersion: 3, requires: true, packages };
}
