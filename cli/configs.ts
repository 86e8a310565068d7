// Configs → their compiled IR, for the commands that run them (`serve`, `run`, `test`); diagnostics
// printed. Loads the compiler only, not the runtime.
import { compileConfig, type Compiled } from '../compiler/index.ts';
import { printCrossFile, printDiagnostics } from './diagnostics.ts';

/** Every config compiled, or null (after printing why) when any has errors. */
export function loadConfigs(files: string[]): Array<Compiled & { ir: NonNullable<Compiled['ir']> }> | null {
  const all = files.map((file) => compileConfig(file));
  for (const c of all) printDiagnostics(c);
  if (all.some((c) => !c.ok || !c.ir) || printCrossFile(all)) return null;
  return all as Array<Compiled & { ir: NonNullable<Compiled['ir']> }>;
}
