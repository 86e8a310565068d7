// Module hooks for the built CLI (dist/) when it imports generated TypeScript (run, test on
// the fast path): the generated module is transpiled with esbuild, and its import of the runtime's
// TypeScript sources is pointed at dist/, so the CLI and the plan share one runtime instance.
import { transform } from 'esbuild';
import { readFile } from 'node:fs/promises';

const root = new URL('..', import.meta.url).href;
// A runtime or compiler source, named from the sources or (by a built module's relative URL) from dist/.
const SOURCE = new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:dist/)?(runtime|compiler)/(.*)\\.ts$`);

export async function resolve(specifier, context, next) {
  let url;
  try { url = new URL(specifier, context.parentURL).href; } catch { return next(specifier, context); }
  const m = /^(file:|\.{0,2}\/)/.test(specifier) ? SOURCE.exec(url) : null;
  return m ? { url: `${root}dist/${m[1]}/${m[2]}.js`, format: 'module', shortCircuit: true } : next(specifier, context);
}

export async function load(url, context, next) {
  if (!/\.m?ts$/.test(new URL(url).pathname)) return next(url, context);
  const source = await readFile(new URL(url), 'utf8');
  const out = await transform(source, { loader: 'ts', format: 'esm', target: 'node20', sourcefile: url });
  return { format: 'module', source: out.code, shortCircuit: true };
}
