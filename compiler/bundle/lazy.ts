// Packages a server may never reach, evaluated on first use instead of at start: in a bundle, the
// runtime's default import of one of them resolves to a stand-in whose members require the package
// when first read. The runtime reads them inside functions (a database or store opened from a
// setting, a geo database), so nothing changes but when the package is evaluated. Their code stays
// in the bundle. (undici's pools: bundle/undici.ts.)
import type { Plugin } from 'esbuild';

const NS = 'pipewright-lazy';

/** Bare specifier → the module standing in for it. `load` is the real module, required once. */
const LAZY: Record<string, string> = {
  // Default imports (\`import pg from 'pg'\`): the default is a proxy; __esModule is answered without loading.
  pg: proxy('pg'),
  maxmind: proxy('maxmind'),
};

function proxy(name: string): string {
  return `let real;
const load = () => (real ??= require(${JSON.stringify(name)}));
module.exports = new Proxy({}, {
  get: (_, k) => (k === '__esModule' ? undefined : load()[k]),
  has: (_, k) => k in load(),
});`;
}

export function lazyPlugin(runtimeDir: string, nodeModulesParent: string): Plugin {
  return {
    name: 'pipewright-lazy',
    setup(b) {
      b.onResolve({ filter: /^(pg|maxmind)$/ }, (a) => (a.importer.startsWith(runtimeDir) ? { path: a.path, namespace: NS } : undefined));
      b.onLoad({ filter: /.*/, namespace: NS }, (a) => ({ contents: LAZY[a.path]!, loader: 'js', resolveDir: nodeModulesParent }));
    },
  };
}
