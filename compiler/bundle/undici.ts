// The runtime uses four of undici's classes, but undici's entry loads all of it (fetch, websockets,
// mocks, caches: half a megabyte minified). In a bundle, the runtime's `undici` imports resolve to
// those classes' own modules instead. A runtime file importing anything else from undici fails the
// bundle build ("No matching export"), so this list cannot silently fall behind.
import type { Plugin } from 'esbuild';

// Two entries: the pools, which every server builds at start, and the fetch classes that only
// multipart encoding uses (runtime/actions/http/multipart.ts imports them on first use, so the
// bundle evaluates undici's fetch layer only then).
const POOL = `
import Pool from 'undici/lib/dispatcher/pool.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
export { Pool, ProxyAgent };
`;
const FETCH = `
import { FormData } from 'undici/lib/web/fetch/formdata.js';
import { Response } from 'undici/lib/web/fetch/response.js';
export { FormData, Response };
`;

export function undiciPlugin(runtimeDir: string, nodeModulesParent: string): Plugin {
  return {
    name: 'pipewright-undici',
    setup(b) {
      b.onResolve({ filter: /^undici$/ }, (a) => {
        if (!a.importer.startsWith(runtimeDir)) return undefined;
        return { path: a.importer.endsWith('multipart.ts') ? 'undici-fetch' : 'undici-pool', namespace: 'pipewright-undici' };
      });
      b.onLoad({ filter: /.*/, namespace: 'pipewright-undici' }, (a) => ({ contents: a.path === 'undici-fetch' ? FETCH : POOL, loader: 'js', resolveDir: nodeModulesParent }));
    },
  };
}
