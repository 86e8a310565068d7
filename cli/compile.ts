// `pipewright compile <config.yaml>... [--out DIR] [--no-bundle] [--one-server] [--inspector] [--tracing]`:
// DIR/<name>/<name>.ts, openapi.json and server.mjs per config; with --one-server, one DIR/server.mjs
// serving every config (as `serve a.yaml b.yaml` does: routes two configs share are an error) instead
// of one per config; with --inspector, the server holds the inspector page (GET /_ap/ui); with
// --tracing, the OpenTelemetry tracer (pipewright-tracing.cjs) beside each server.mjs (without it, a
// server started with OTEL_EXPORTER_OTLP_ENDPOINT set refuses to start).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateModule, bundleServer, compileConfig, openApiDocument, type Compiled } from '../compiler/index.ts';
import { loadConfigs } from './configs.ts';
import { printDiagnostics } from './diagnostics.ts';
import { err, paint, progress } from './output.ts';

interface CompileOptions { out?: string; 'no-bundle'?: boolean; 'one-server'?: boolean; inspector?: boolean; tracing?: boolean }

export async function compile(files: string[], o: CompileOptions): Promise<number> {
  const outDir = o.out ?? 'out';
  if (o.tracing && o['no-bundle']) { err('--tracing writes the tracer beside server.mjs: it cannot go with --no-bundle'); return 2; }
  if (o.inspector && o['no-bundle']) { err('--inspector puts the page in the server: it cannot go with --no-bundle'); return 2; }
  if (o['one-server']) return oneServer(files, outDir, o);
  let failed = 0;
  for (const [n, file] of files.entries()) {
    progress(n + 1, files.length, `compiling ${file}`);
    const c = compileConfig(file);
    printDiagnostics(c);
    if (!c.ok || !c.ir) { failed++; continue; }
    const moduleFile = await writeConfig(c as Compiled & { ir: NonNullable<Compiled['ir']> }, outDir);
    if (!o['no-bundle']) await bundleServer(moduleFile, join(outDir, c.name, 'server.mjs'), { inspector: o.inspector === true, tracing: o.tracing === true });
  }
  err(failed ? paint.red(`${failed} of ${files.length} configs failed to compile`) : paint.green(`compiled ${files.length} config${files.length === 1 ? '' : 's'} into ${outDir}/`));
  return failed ? 1 : 0;
}

/** All configs or none: one with errors, or two serving the same route, stops the build. */
async function oneServer(files: string[], outDir: string, o: CompileOptions): Promise<number> {
  if (o['no-bundle']) { err('--one-server writes a server: it cannot go with --no-bundle'); return 2; }
  const all = loadConfigs(files);
  if (!all) { err(paint.red('nothing written: fix the configs above')); return 1; }
  const twice = all.find((c, i) => all.findIndex((d) => d.name === c.name) !== i);
  if (twice) { err(paint.red(`two configs are named ${twice.name} (${all.filter((c) => c.name === twice.name).map((c) => c.file).join(', ')}): their files in ${outDir}/ would collide; rename one`)); return 1; }
  const modules: string[] = [];
  for (const c of all) modules.push(await writeConfig(c, outDir));
  await bundleServer(modules, join(outDir, 'server.mjs'), { inspector: o.inspector === true, tracing: o.tracing === true });
  err(paint.green(`compiled ${files.length} config${files.length === 1 ? '' : 's'} into one server: ${join(outDir, 'server.mjs')}`));
  return 0;
}

/** DIR/<name>/<name>.ts and openapi.json; the module's path. */
async function writeConfig(c: Compiled & { ir: NonNullable<Compiled['ir']> }, outDir: string): Promise<string> {
  const dir = join(outDir, c.name);
  mkdirSync(dir, { recursive: true });
  const moduleFile = join(dir, `${c.name}.ts`);
  writeFileSync(moduleFile, await generateModule(c.ir));
  writeFileSync(join(dir, 'openapi.json'), `${JSON.stringify(openApiDocument(c.name, c.ir.interfaces, { network: c.ir.settings.network }), null, 2)}\n`);
  return moduleFile;
}
