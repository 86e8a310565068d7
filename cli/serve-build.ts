// `serve`'s compile step as a process of its own (started by cli/serve.ts): parsing, lowering, code
// generation and esbuild leave tens of MB resident and a grown heap behind, and the serving process
// must not carry them. Arguments: <folder> <fast|ir> <config.yaml>...; writes <folder>/serve.mjs (the
// fast path's bundle) or <folder>/ir.bin (the configs' IR, v8-serialised, for the interpreter).
// Diagnostics go to the inherited stderr exactly as in-process; exit 1 when a config has errors.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { bundleForServe, generateModule } from '../compiler/index.ts';
import { loadConfigs } from './configs.ts';

// A SIGHUP sent to serve's process group (a terminal's hang-up, `timeout`, a supervisor) is serve's
// reload request: it must not end the compile serving the previous one.
process.on('SIGHUP', () => {});

const [dir, mode, ...files] = process.argv.slice(2) as [string, 'fast' | 'ir', ...string[]];
const all = loadConfigs(files);
if (!all) process.exitCode = 1;
else if (mode === 'ir') {
  // Structured-clone serialisation, not JSON: the IR's values keep undefined, NaN and ±Infinity.
  writeFileSync(join(dir, 'ir.bin'), serialize(all.map((c) => c.ir)));
} else {
  const modules: string[] = [];
  for (const [i, c] of all.entries()) {
    modules.push(join(dir, `m${i}_${c.name}.ts`));
    writeFileSync(modules[i]!, await generateModule(c.ir, { format: false }));
  }
  await bundleForServe(modules, join(dir, 'serve.mjs'));
}
