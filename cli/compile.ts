// `pipewright compile <config.yaml>... [--out DIR] [--no-bundle]`: DIR/<name>/<name>.ts, openapi.json and server.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateModule, bundleServer, compileConfig, openApiDocument } from '../compiler/index.ts';
import { printDiagnostics } from './diagnostics.ts';
import { err, paint, progress } from './output.ts';

export async function compile(files: string[], o: { out?: string; 'no-bundle'?: boolean }): Promise<number> {
  const outDir = o.out ?? 'out';
  let failed = 0;
  for (const [n, file] of files.entries()) {
    progress(n + 1, files.length, `compiling ${file}`);
    const c = compileConfig(file);
    printDiagnostics(c);
    if (!c.ok || !c.ir) { failed++; continue; }
    const dir = join(outDir, c.name);
    mkdirSync(dir, { recursive: true });
    const moduleFile = join(dir, `${c.name}.ts`);
    writeFileSync(moduleFile, await generateModule(c.ir));
    writeFileSync(join(dir, 'openapi.json'), `${JSON.stringify(openApiDocument(c.name, c.ir.interfaces, { network: c.ir.settings.network }), null, 2)}\n`);
    if (!o['no-bundle']) await bundleServer(moduleFile, join(dir, 'server.mjs'));
  }
  err(failed ? paint.red(`${failed} of ${files.length} configs failed to compile`) : paint.green(`compiled ${files.length} config${files.length === 1 ? '' : 's'} into ${outDir}/`));
  return failed ? 1 : 0;
}
