// The runtime uses five of undici's classes and its connector builder, but undici's entry loads all of it (fetch, websockets,
// mocks, caches: half a megabyte minified). In a bundle, the runtime's `undici` imports resolve to
// those classes' own modules instead. A runtime file importing anything else from undici fails the
// bundle build ("No matching export"), so this list cannot silently fall behind.
import type { Plugin } from 'esbuild';
import type { RuntimeTree } from './slim.ts';
import type { RuntimeUses } from './uses.ts';

// Two entries: the pools, made for the first outbound request to an origin (so undici is evaluated
// then, not at start: the constructors below require it when first called), and the fetch classes
// that only multipart encoding uses (runtime/actions/http/multipart.ts imports them on first use).
const POOL = `
export function Pool(...a) { return new (require('undici/lib/dispatcher/pool.js'))(...a); }
export function ProxyAgent(...a) { return new (require('undici/lib/dispatcher/proxy-agent.js'))(...a); }
export function Agent(...a) { return new (require('undici/lib/dispatcher/agent.js'))(...a); }
export function buildConnector(...a) { return require('undici/lib/core/connect.js')(...a); }
`;
const FETCH = `
import { FormData } from 'undici/lib/web/fetch/formdata.js';
import { Response } from 'undici/lib/web/fetch/response.js';
export { FormData, Response };
`;

// A config with no kind that speaks HTTP keeps the shutdown's pool and dialer code, which never made
// a pool: undici is left out, and a constructor reached anyway fails clearly.
const ABSENT = ['Pool', 'ProxyAgent', 'Agent', 'buildConnector'].map((n) => `export function ${n}() { throw new Error('undici is not in this bundle (its config has no http, agent or discover action)'); }`).join('\n');

export function undiciPlugin(tree: RuntimeTree, nodeModulesParent: string, uses: RuntimeUses): Plugin {
  return {
    name: 'pipewright-undici',
    setup(b) {
      b.onResolve({ filter: /^undici$/ }, (a) => {
        if (!a.importer.startsWith(tree.dir)) return undefined;
        return { path: a.importer.endsWith(`multipart${tree.ext}`) ? 'undici-fetch' : 'undici-pool', namespace: 'pipewright-undici' };
      });
      const pool = uses.httpClient ? POOL : ABSENT;
      b.onLoad({ filter: /.*/, namespace: 'pipewright-undici' }, (a) => ({ contents: a.path === 'undici-fetch' ? FETCH : pool, loader: 'js', resolveDir: nodeModulesParent }));
    },
  };
}
