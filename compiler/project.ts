// The compile pipeline for one config: load (YAML with positions) → validate → lint → lower to IR.
import { basename } from 'node:path';
import type { ConfigIR } from '../runtime/config-ir.ts';
import { loadConfig, type LoadedConfig } from './load/index.ts';
import type { Diagnostic } from './source/diagnostics.ts';
import { lowerConfig } from './lower/config.ts';
import { LowerError } from './lower/error.ts';

export interface Compiled {
  file: string;
  name: string;
  text: string;
  ir?: ConfigIR;
  diagnostics: Diagnostic[];
  ok: boolean;
}

export function compileConfig(file: string, text?: string): Compiled {
  return compileLoaded(loadConfig(file, text));
}

/** The loaded config beside its compilation, for analyses that point at config nodes (`audit`). */
export function loadAndCompile(file: string): { loaded: LoadedConfig; compiled: Compiled } {
  const loaded = loadConfig(file);
  return { loaded, compiled: compileLoaded(loaded) };
}

function compileLoaded(loaded: LoadedConfig): Compiled {
  const file = loaded.file;
  const base = { file, name: loaded.name, text: loaded.text, diagnostics: loaded.diagnostics };
  if (!loaded.ok) return { ...base, ok: false };
  try {
    const ir = lowerConfig(loaded.name, displayName(file), loaded.config, (p) => loaded.locate(p).line);
    return { ...base, ir, ok: true };
  } catch (e) {
    if (!(e instanceof LowerError) && !(e instanceof Error)) throw e;
    const path = e instanceof LowerError ? e.path : [];
    const at = loaded.locate(path);
    const d: Diagnostic = { file, line: at.line, col: at.col, severity: 'error', message: e.message, path };
    if (e instanceof LowerError && e.hint) d.hint = e.hint;
    return { ...base, diagnostics: [...loaded.diagnostics, d], ok: false };
  }
}

/** Generated comments name the file without its directory, so output does not depend on where it was compiled. */
function displayName(file: string): string {
  return basename(file);
}
