// The inspector page in a bundle. runtime/server/inspector/assets.ts reads the page's files from its
// own folder, which a bundle does not have: with the page (`serve`, `compile --inspector`) their text
// is embedded in its place; without it, routes.ts is replaced by one route answering a 404 that says
// how to get the page, so a server compiled without the flag carries none of it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';
import type { RuntimeTree } from './slim.ts';

const NS = 'pipewright-inspector';

/** What stands for routes.ts without the page: GET /_ap/ui on the same gate surface, a 404 that says why. */
const ABSENT = `export function registerInspector(app) {
  app.get('/_ap/ui', { config: { pipewrightSurface: { kind: 'process', name: 'inspector' } } }, async (_req, reply) => reply.code(404).send({ error: { status: 404,
    message: 'the inspector page is not in this server: compile it with --inspector (pipewright serve always has it)' } }));
}\n`;

export function inspectorPlugin(tree: RuntimeTree, include: boolean): Plugin {
  const folder = join(tree.dir, 'server', 'inspector');
  const replaced = join(folder, `${include ? 'assets' : 'routes'}${tree.ext}`);
  return {
    name: 'pipewright-inspector',
    setup(b) {
      b.onResolve({ filter: include ? /\/assets\.[jt]s$/ : /\/routes\.[jt]s$/ }, (a) => (join(dirname(a.importer), a.path) === replaced ? { path: replaced, namespace: NS } : undefined));
      b.onLoad({ filter: /.*/, namespace: NS }, () => {
        if (!include) return { loader: 'js', contents: ABSENT };
        const text = (name: string) => JSON.stringify(readFileSync(join(folder, name), 'utf8'));
        return { loader: 'js', contents: `const assets = { html: ${text('index.html')}, js: ${text('app.js')}, css: ${text('app.css')} };\nexport const inspectorAssets = () => assets;\n` };
      });
    },
  };
}
