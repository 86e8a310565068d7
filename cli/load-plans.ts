// Configs → runnable plans for `run` and `test`: the fast path compiles each config to a module in a
// temp folder and imports it; the interpreter builds closures from the same IR. Both share the
// CLI's runtime instance.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Plan, interpretConfig, initJq } from '../runtime/index.ts';
import { generateModule } from '../compiler/index.ts';
import { loadConfigs } from './configs.ts';

export { fastpathDisabled } from './fastpath.ts';

const runtimeEntry = pathToFileURL(fileURLToPath(new URL('../runtime/index.ts', import.meta.url))).href;

/** Loads every config; prints diagnostics and returns null when any has errors. */
export async function loadPlans(files: string[], interpreted: boolean): Promise<Plan[] | null> {
  await initJq();
  const all = loadConfigs(files);
  if (!all) return null;
  if (interpreted) return all.map((c) => interpretConfig(c.ir));
  const plans: Plan[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'pipewright-'));
  try {
    for (const c of all) {
      const target = join(dir, `${c.name}.mts`);
      writeFileSync(target, await generateModule(c.ir, { runtime: runtimeEntry, format: false }));
      plans.push(((await import(pathToFileURL(target).href)) as { plan: Plan }).plan);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true }); // imported modules live on in memory
  }
  return plans;
}
