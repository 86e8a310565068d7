// The package's version, from its package.json found by the package's own name (a checkout and an
// installed package alike).
import { createRequire } from 'node:module';

export function version(): string {
  return (createRequire(import.meta.url)('pipewright/package.json') as { version: string }).version;
}
