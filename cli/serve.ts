// `pipewright serve <config.yaml>... [--port N] [--host H] [--no-fastpath]`
// The fast path bundles the generated modules with only the runtime parts they use (as `compile`
// does for server.mjs) and serves from that bundle: the serving process never loads the runtime's
// unused engines, surfaces and drivers, nor prettier. The interpreter needs the whole runtime.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleForServe, generateModule } from '../compiler/index.ts';
import type { Plan } from '../runtime/index.ts';
import { fastpathDisabled, loadConfigs } from './configs.ts';

interface Served { plans: Plan[]; listen(plans: Plan[], o: { port: number; host: string }): Promise<unknown>; StartupError: new (m: string) => Error }

export async function serve(files: string[], o: { port?: string; host?: string; 'no-fastpath'?: boolean }): Promise<number> {
  const all = loadConfigs(files);
  if (!all) return 1;
  let served: Served;
  if (fastpathDisabled(o['no-fastpath'])) {
    const rt = await import('../runtime/index.ts');
    await rt.initJq();
    served = { plans: all.map((c) => rt.interpretConfig(c.ir)), listen: rt.listen, StartupError: rt.StartupError };
  } else {
    // The bundle is one self-contained file: once imported, its folder is removed (a restart makes a new one).
    const dir = mkdtempSync(join(tmpdir(), 'pipewright-'));
    try {
      const modules: string[] = [];
      for (const [i, c] of all.entries()) {
        modules.push(join(dir, `m${i}_${c.name}.ts`));
        writeFileSync(modules[i]!, await generateModule(c.ir, { format: false }));
      }
      const out = join(dir, 'serve.mjs');
      await bundleForServe(modules, out);
      served = (await import(pathToFileURL(out).href)) as Served;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  try {
    await served.listen(served.plans, { port: Number(o.port ?? process.env.PORT ?? 8080), host: o.host ?? '127.0.0.1' });
  } catch (e) {
    if (!(e instanceof served.StartupError)) throw e;
    process.stderr.write(`pipewright: ${e.message}\n`);
    return 1;
  }
  return await new Promise<number>(() => {});
}
