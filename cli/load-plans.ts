// Configs → runnable plans for `serve`, `run` and `test`: the fast path compiles each config to a
// module in a temp folder and imports it; the interpreter builds closures from the same IR.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Plan, interpretConfig, initJq } from '../runtime/index.ts';
import { generateModule, compileConfig } from '../compiler/index.ts';
import { printCrossFile, printDiagnostics } from './diagnostics.ts';

const runtimeEntry = pathToFileURL(fileURLToPath(new URL('../runtime/index.ts', import.meta.url))).href;

export function fastpathDisabled(flag: boolean | undefined): boolean {
  return flag === true || /^(1|true|yes)$/i.test(process.env.SERVICE__DISABLE_FASTPATH ?? '');
}

/** Loads every config; prints diagnostics and returns null when any has errors. */
export async function loadPlans(files: string[], interpreted: boolean): Promise<Plan[] | null> {
  await initJq();
  const plans: Plan[] = [];
  let dir: string | undefined;
  const all = files.map((file) => compileConfig(file));
  for (const c of all) printDiagnostics(c);
  if (all.some((c) => !c.ok || !c.ir) || printCrossFile(all)) return null;
  for (const c of all) {
    if (!c.ir) continue;
    if (interpreted) { plans.push(interpretConfig(c.ir)); continue; }
    dir ??= mkdtempSync(join(tmpdir(), 'pipewright-'));
    const target = join(dir, `${c.name}.mts`);
    writeFileSync(target, await generateModule(c.ir, { runtime: runtimeEntry }));
    const mod = (await import(pathToFileURL(target).href)) as { plan: Plan };
    plans.push(mod.plan);
  }
  return plans;
}
