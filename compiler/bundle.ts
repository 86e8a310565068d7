// A standalone server: the generated module plus the runtime and its packages in one ESM file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { slimPlugin } from './bundle/slim.ts';
import { runtimeUses } from './bundle/uses.ts';
import { undiciPlugin } from './bundle/undici.ts';
import { nativeAddonPlugin } from './bundle/native.ts';
import { startupPatchPlugin } from './bundle/patches.ts';
import { lazyPlugin } from './bundle/lazy.ts';
import { serverFile } from './bundle/loader.ts';
import { writeCodeCache } from './bundle/code-cache.ts';

// The package root (where runtime/ and node_modules/ are), from the sources or from dist/compiler/.
const root = packageRoot(fileURLToPath(new URL('.', import.meta.url)));

function packageRoot(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json')) && existsSync(join(d, 'runtime'))) return d.endsWith(sep) ? d : d + sep;
    if (dirname(d) === d) throw new Error(`pipewright: no package root above ${dir}`);
  }
}

/** `outFile` (server.mjs: bundle/loader.ts) and beside it V8's code cache of it (`outFile`.cache),
 *  unless `codeCache` is false. */
export async function bundleServer(moduleFile: string, outFile: string, o: { codeCache?: boolean } = {}): Promise<void> {
  const entry = `import { plan } from ${JSON.stringify(`./${basename(moduleFile)}`)};\nimport { main, warmUp } from "pipewright/runtime";\nexport const run = () => main([plan]);\nexport const warm = () => warmUp([plan]);\n`;
  writeFileSync(outFile, serverFile(await bundle(entry, dirname(moduleFile), [moduleFile], outFile, true)));
  if (o.codeCache !== false) await writeCodeCache(outFile);
}

/** For `serve`: one module exporting the plans of `moduleFiles` and the runtime's `listen` (and
 *  `prepareGeneration`: a reload's new bundle makes its generation with its own runtime), bundled
 *  like a server (only what the configs use) but not minified, so stack traces stay readable.
 *  Importing it gives the serving process the slim runtime instead of the whole one. */
export async function bundleForServe(moduleFiles: string[], outFile: string): Promise<void> {
  const imports = moduleFiles.map((f, i) => `import { plan as p${i} } from ${JSON.stringify(`./${basename(f)}`)};\n`).join('');
  const entry = `${imports}export const plans = [${moduleFiles.map((_, i) => `p${i}`).join(', ')}];\nexport { listen, prepareGeneration, StartupError } from "pipewright/runtime";\n`;
  writeFileSync(outFile, await bundle(entry, dirname(moduleFiles[0]!), moduleFiles, outFile, false));
}

/** The bundle's text: for a server (minified), a CommonJS script for loader.ts; for `serve`, an ES module. */
async function bundle(entry: string, resolveDir: string, moduleFiles: string[], outFile: string, script: boolean): Promise<string> {
  // What the modules use together: the union of what each one's text asks for.
  const uses = runtimeUses(moduleFiles.map((f) => readFileSync(f, 'utf8')).join('\n'));
  // Loaded here, not at import: `check` goes through compiler/index.ts too and never bundles.
  const { build } = await import('esbuild');
  const out = await build({
    stdin: { contents: entry, resolveDir, sourcefile: 'server-entry.ts', loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: script ? 'cjs' : 'esm',
    target: 'node20',
    outfile: outFile,
    write: false,
    nodePaths: [`${root}node_modules`],
    alias: { 'pipewright/runtime': `${root}runtime/index.ts` },
    // Some bundled CommonJS packages call require() or read __dirname (ssh2's poly1305 loader); give
    // the bundle both (the bundle's own folder). The script gets them, and import.meta.url, from its loader.
    ...(script ? {} : { banner: { js: "import { createRequire as __pwCreateRequire } from 'node:module';\nconst require = __pwCreateRequire(import.meta.url);\nconst __pwFilename = new URL(import.meta.url).pathname;\nconst __pwDirname = __pwFilename.slice(0, __pwFilename.lastIndexOf('/'));" } }),
    define: { __dirname: '__pwDirname', __filename: '__pwFilename', ...(script ? { 'import.meta.url': '__pwUrl' } : {}) },
    logLevel: 'silent',
    legalComments: 'none',
    // Only what the config uses (bundle/slim.ts).
    plugins: [slimPlugin(uses, `${root}runtime`), undiciPlugin(`${root}runtime`, root), lazyPlugin(`${root}runtime`, root), nativeAddonPlugin, startupPatchPlugin],
    // The MySQL driver (and its charset tables) is loaded on first use of a MySQL database: a config
    // with no database action or log never reaches it, so its bundle leaves it out.
    external: uses.databases ? [] : ['mysql2', 'mysql2/*'],
    minify: script,
  });
  return out.outputFiles[0]!.text;
}
