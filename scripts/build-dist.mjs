#!/usr/bin/env node
// Builds dist/: the CLI, compiler and runtime as JavaScript, one file per TypeScript source (same
// tree, relative imports rewritten .ts → .js), plus the JSON and vendored .mjs files they read.
// Run by `npm run build`, on `prepare` with --if-stale (`npm install` in a clone) and on `prepack`
// with --types (`npm pack`, `npm publish`: the package ships dist/, never the sources).
// bin/pipewright.mjs runs dist/ when it is at least as new as the sources.
//   --types     also the .d.ts declarations of pipewright/runtime (tsc, a devDependency), beside the .js
//   --if-stale  nothing when dist/ is current, with its declarations if --types is asked too (prepare
//               runs right after prepack on `npm pack`; a second `npm pack` of the same sources builds nothing)
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distIsCurrent } from '../bin/dist-current.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const DIRS = ['runtime', 'compiler', 'cli'];

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

const args = process.argv.slice(2);
const typesAsked = args.includes('--types');
if (args.includes('--if-stale') && distIsCurrent(root) && (!typesAsked || existsSync(join(dist, 'runtime', 'index.d.ts')))) process.exit(0);

const all = DIRS.flatMap((d) => files(join(root, d)));
const sources = all.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
// The inspector page's files (runtime/server/inspector/assets.ts reads them from beside itself).
const assets = all.filter((f) => /\.(json|mjs)$/.test(f) || (/\/runtime\/server\/inspector\/[^/]+\.(html|js|css)$/.test(f)));

const t0 = performance.now();
rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: sources,
  outdir: dist,
  outbase: root,
  bundle: true, // only to rewrite imports: every import stays external (below)
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [{
    name: 'keep-relative-imports',
    setup(b) {
      // JSON modules are inlined (an external one would lose its `with { type: 'json' }`).
      b.onResolve({ filter: /^\.\.?\// }, (a) => (a.kind === 'entry-point' || a.path.endsWith('.json') ? undefined : { path: a.path.replace(/\.ts$/, '.js'), external: true }));
    },
  }],
});
for (const f of assets) {
  const to = join(dist, relative(root, f));
  mkdirSync(dirname(to), { recursive: true });
  cpSync(f, to);
}
// The config schema's pass/fail validator as standalone code (compiling the schema at every start
// dominated `check`); dist/compiler/schema/ajv.js loads it, the sources compile the schema instead.
{
  const { withKeywords, configSchema, STANDALONE_OPTIONS, STANDALONE_FILE } = await import(join(dist, 'compiler', 'schema', 'ajv.js'));
  const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
  const a = withKeywords(STANDALONE_OPTIONS);
  writeFileSync(join(dist, 'compiler', 'schema', STANDALONE_FILE), standaloneCode(a, a.compile(configSchema)));
}
if (typesAsked) writeTypes();
// Written last: its time is what "dist is up to date" is measured against.
writeFileSync(join(dist, '.built'), `${new Date().toISOString()}\n`);
process.stderr.write(`pipewright: built dist/ (${sources.length} modules) in ${Math.round(performance.now() - t0)} ms\n`);

/** dist/runtime/**.d.ts for the `pipewright/runtime` export, by tsc from the sources; their relative
 *  imports name the .js files (tsc keeps the sources' .ts in declarations). */
function writeTypes() {
  const t = performance.now();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, 'runtime/index.ts', '--declaration', '--emitDeclarationOnly', '--outDir', 'dist', '--rootDir', '.',
    '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'Bundler', '--allowImportingTsExtensions', '--strict',
    '--esModuleInterop', '--skipLibCheck', '--resolveJsonModule', '--isolatedModules', '--verbatimModuleSyntax', '--types', 'node', '--lib', 'ES2023'],
  { cwd: root, stdio: 'inherit' });
  const decls = files(join(dist, 'runtime')).filter((f) => f.endsWith('.d.ts'));
  for (const f of decls) {
    const text = readFileSync(f, 'utf8');
    writeFileSync(f, text.replace(/((?:from|import\()\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2'));
  }
  process.stderr.write(`pipewright: wrote ${decls.length} declarations in ${Math.round(performance.now() - t)} ms\n`);
}
