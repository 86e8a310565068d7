// The runtime uses four of undici's classes, but undici's entry loads all of it (fetch, websockets,
// mocks, caches: half a megabyte minified). In a bundle, the runtime's `undici` imports resolve to
// those classes' own modules instead. A runtime file importing anything else from undici fails the
// bundle build ("No matching export"), so this list cannot silently fall behind.
import type { Plugin } from 'esbuild';

const ENTRY = `
import Pool from 'undici/lib/dispatcher/pool.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import { FormData } from 'undici/lib/web/fetch/formdata.js';
import { Response } from 'undici/lib/web/fetch/response.js';
export { Pool, ProxyAgent, FormData, Response };
`;

export function undiciPlugin(runtimeDir: string, nodeModulesParent: string): Plugin {
  return {
    name: 'pipewright-undici',
    setup(b) {
      b.onResolve({ filter: /^undici$/ }, (a) => (a.importer.startsWith(runtimeDir) ? { path: 'undici-slim', namespace: 'pipewright-undici' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'pipewright-undici' }, () => ({ contents: ENTRY, loader: 'js', resolveDir: nodeModulesParent }));
    },
  };
}
