// A standalone server: the generated module plus the runtime and its packages in one ESM file.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { slimPlugin, TRACING_CHUNK, type RuntimeTree } from './bundle/slim.ts';
import { tracingWanted } from '../runtime/trace/settings.ts';
import { runtimeUses } from './bundle/uses.ts';
import { undiciPlugin } from './bundle/undici.ts';
import { nativeAddonPlugin } from './bundle/native.ts';
import { startupPatchPlugin } from './bundle/patches.ts';
import { lazyPlugin } from './bundle/lazy.ts';
import { inspectorPlugin } from './bundle/inspector.ts';
import { serverFile } from './bundle/loader.ts';
import { writeCodeCache } from './bundle/code-cache.ts';

// The runtime a server bundles: its TypeScript sources when the compiler runs from them (a checkout),
// dist/runtime's JavaScript when it runs from dist/compiler/ (what the npm package ships: no sources).
const fromDist = import.meta.url.endsWith('.js');
const root = fileURLToPath(new URL(fromDist ? '../../' : '../', import.meta.url));
export const runtimeTree: RuntimeTree = { dir: join(root, fromDist ? 'dist/runtime' : 'runtime'), ext: fromDist ? '.js' : '.ts' };

/** `outFile` (server.mjs: bundle/loader.ts) serving the plans of `moduleFiles` (one config, or several
 *  as one service: `compile --one-server`), and beside it V8's code cache of it (`outFile`.cache),
 *  unless `codeCache` is false; the inspector page's files only with `inspector` (`compile --inspector`);
 *  with `tracing` the tracer's file (else one left by an earlier build is removed: this bundle never
 *  reads it). Returns esbuild's metafile: which inputs the bundle holds. */
export async function bundleServer(moduleFiles: string | string[], outFile: string, o: { codeCache?: boolean; inspector?: boolean; tracing?: boolean } = {}): Promise<Metafile> {
  const files = typeof moduleFiles === 'string' ? [moduleFiles] : moduleFiles;
  const plans = files.map((_, i) => `p${i}`).join(', ');
  const entry = `${importPlans(files, dirname(outFile))}import { main, warmUp } from "pipewright/runtime";\nexport const run = () => main([${plans}]);\nexport const warm = () => warmUp([${plans}]);\n`;
  const tracing = o.tracing === true;
  const { text, metafile } = await bundle(entry, dirname(outFile), files, outFile, { script: true, inspector: o.inspector === true, tracing });
  writeFileSync(outFile, serverFile(text));
  if (o.codeCache !== false) await writeCodeCache(outFile);
  // The tracer (~490 KB) only when asked for; started with OTEL_EXPORTER_OTLP_ENDPOINT set, a bundle
  // without it refuses to start, saying to compile with --tracing (bundle/slim.ts, NO_TRACER).
  if (tracing) await bundleTracing(dirname(outFile));
  else rmSync(join(dirname(outFile), TRACING_CHUNK), { force: true });
  return metafile;
}

/** `import { plan as p<i> }` of each module, by its path from `dir` (where the entry resolves). */
function importPlans(moduleFiles: string[], dir: string): string {
  return moduleFiles.map((f, i) => `import { plan as p${i} } from ${JSON.stringify(`./${relative(dir, f).split(sep).join('/')}`)};\n`).join('');
}

/** The tracer and its OpenTelemetry packages as one CommonJS file in `dir` (runtime/trace/otel.ts): a
 *  bundle requires it from its own folder only when tracing is on (bundle/slim.ts, TRACING_CHUNK). */
export async function bundleTracing(dir: string): Promise<void> {
  writeFileSync(join(dir, TRACING_CHUNK), await (tracingText ??= buildTracing()));
}

// The same for every config: built once per process (compiling several configs, tests).
let tracingText: Promise<string> | undefined;
async function buildTracing(): Promise<string> {
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [join(runtimeTree.dir, 'trace', `otel${runtimeTree.ext}`)], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    write: false, outfile: TRACING_CHUNK, nodePaths: [`${root}node_modules`], logLevel: 'silent', legalComments: 'none', minify: true,
  });
  return out.outputFiles[0]!.text;
}

/** For `serve`: one module exporting the plans of `moduleFiles` and the runtime's `listen` (and
 *  `prepareGeneration`: a reload's new bundle makes its generation with its own runtime), bundled
 *  like a server (only what the configs use) but not minified, so stack traces stay readable.
 *  Importing it gives the serving process the slim runtime instead of the whole one. */
export async function bundleForServe(moduleFiles: string[], outFile: string): Promise<void> {
  // The tracer beside it only when this serve will trace (its environment: OTEL_EXPORTER_OTLP_ENDPOINT).
  const tracing = tracingWanted(process.env);
  if (tracing) await bundleTracing(dirname(outFile));
  const entry = `${importPlans(moduleFiles, dirname(moduleFiles[0]!))}export const plans = [${moduleFiles.map((_, i) => `p${i}`).join(', ')}];\nexport { listen, prepareGeneration, StartupError } from "pipewright/runtime";\n`;
  // `serve` always has the inspector page (behind SERVICE__ADMIN_TOKEN, like the runs API it shows).
  writeFileSync(outFile, (await bundle(entry, dirname(moduleFiles[0]!), moduleFiles, outFile, { script: false, inspector: true, tracing })).text);
}

/** The bundle's text: for a server (minified), a CommonJS script for loader.ts; for `serve`, an ES module. */
async function bundle(entry: string, resolveDir: string, moduleFiles: string[], outFile: string, { script, inspector, tracing }: { script: boolean; inspector: boolean; tracing: boolean }): Promise<{ text: string; metafile: Metafile }> {
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
    alias: { 'pipewright/runtime': join(runtimeTree.dir, `index${runtimeTree.ext}`) },
    // Some bundled CommonJS packages call require() or read __dirname (ssh2's poly1305 loader); give
    // the bundle both (the bundle's own folder). The script gets them, and import.meta.url, from its loader.
    ...(script ? {} : { banner: { js: "import { createRequire as __pwCreateRequire } from 'node:module';\nconst require = __pwCreateRequire(import.meta.url);\nconst __pwFilename = new URL(import.meta.url).pathname;\nconst __pwDirname = __pwFilename.slice(0, __pwFilename.lastIndexOf('/'));" } }),
    define: { __dirname: '__pwDirname', __filename: '__pwFilename', ...(script ? { 'import.meta.url': '__pwUrl' } : {}) },
    logLevel: 'silent',
    legalComments: 'none',
    // Only what the config uses (bundle/slim.ts).
    plugins: [slimPlugin(uses, runtimeTree, tracing), inspectorPlugin(runtimeTree, inspector), undiciPlugin(runtimeTree, root, uses), lazyPlugin(runtimeTree.dir, root), nativeAddonPlugin, startupPatchPlugin],
    // The MySQL driver (and its charset tables) is loaded on first use of a MySQL database: a config
    // with no database action or log never reaches it, so its bundle leaves it out.
    external: uses.databases ? [] : ['mysql2', 'mysql2/*'],
    minify: script,
    metafile: true,
  });
  return { text: out.outputFiles[0]!.text, metafile: out.metafile };
}
