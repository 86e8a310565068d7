// An esbuild plugin that leaves out of a bundle the runtime parts its config does not use: every
// transform the generated module does not call (the registry gets a stub that fails clearly if
// ever reached) and the jq engine (wasm, ~1 MB) when no program needs it. Heavy libraries (the
// spreadsheet and PDF readers, the HTML parser) are only reached through their transforms, so they
// go with them.
import type { Plugin } from 'esbuild';
import { dirname, join } from 'node:path';
import type { RuntimeUses } from './uses.ts';

const NS = 'pipewright-absent';

export function slimPlugin(uses: RuntimeUses, runtimeDir: string): Plugin {
  const registry = join(runtimeDir, 'transforms', 'index.ts');
  const jqEngine = join(runtimeDir, 'jq', 'engine.ts');
  const typesFile = join(runtimeDir, 'transforms', 'types.ts');
  const jqErrors = join(runtimeDir, 'jq', 'errors.ts');
  return {
    name: 'pipewright-slim',
    setup(b) {
      if (uses.all) return;
      b.onResolve({ filter: /^\.\/[a-z0-9_]+\.ts$/ }, (a) => {
        if (a.importer !== registry) return undefined;
        const name = a.path.slice(2, -3);
        // The registry's own tables (specs, types) are not transforms: they always stay.
        if (name === 'specs' || name === 'types') return undefined;
        return uses.transforms.has(name) ? undefined : { path: name, namespace: NS, pluginData: 'transform' };
      });
      b.onResolve({ filter: /\/engine\.ts$/ }, (a) => {
        if (uses.jqEngine || join(dirname(a.importer), a.path) !== jqEngine) return undefined;
        return { path: 'jq-engine', namespace: NS, pluginData: 'jq' };
      });
      b.onLoad({ filter: /.*/, namespace: NS }, (a) => ({
        loader: 'ts',
        resolveDir: runtimeDir,
        contents: a.path === 'jq-engine'
          ? `import { JqError } from ${JSON.stringify(jqErrors)};\nexport { JqError };\n` +
            `export async function initJq() {}\n` +
            `export function jqAll() { throw new JqError("the jq engine is not in this bundle (no program of its config needs it)"); }\n`
          : `import { TransformError } from ${JSON.stringify(typesFile)};\n` +
            `export function run() { throw new TransformError(${JSON.stringify(`${a.path} is not in this bundle (its config does not use it)`)}); }\n`,
      }));
    },
  };
}
