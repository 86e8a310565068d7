// The inspector page's files in a bundle (runtime/server/inspector/assets.ts reads them from its own
// folder, which a bundle does not have): their text embedded when the page is wanted (`serve`,
// `compile --inspector`), and nothing at all otherwise, so a server compiled without the flag is not
// one byte larger for it (GET /_ap/ui then answers a 404 saying how to get the page).
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';
import type { RuntimeTree } from './slim.ts';

const NS = 'pipewright-inspector';

export function inspectorPlugin(tree: RuntimeTree, include: boolean): Plugin {
  const folder = join(tree.dir, 'server', 'inspector');
  const assetsFile = join(folder, `assets${tree.ext}`);
  return {
    name: 'pipewright-inspector',
    setup(b) {
      b.onResolve({ filter: /\/assets\.[jt]s$/ }, (a) => (join(dirname(a.importer), a.path) === assetsFile ? { path: basename(assetsFile), namespace: NS } : undefined));
      b.onLoad({ filter: /.*/, namespace: NS }, () => {
        if (!include) return { loader: 'js', contents: 'export const inspectorAssets = () => undefined;\n' };
        const text = (name: string) => JSON.stringify(readFileSync(join(folder, name), 'utf8'));
        return { loader: 'js', contents: `const assets = { html: ${text('index.html')}, js: ${text('app.js')}, css: ${text('app.css')} };\nexport const inspectorAssets = () => assets;\n`, watchFiles: ['index.html', 'app.js', 'app.css'].map((f) => join(folder, f)) };
      });
    },
  };
}
