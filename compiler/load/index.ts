// Loading a config: parse YAML (with positions) -> check against the schema -> lint.
import { basename, extname } from 'node:path';
import { validateConfig } from '../schema/validate.ts';
import { dedupeDiagnostics, hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics.ts';
import { lintConfig } from './lint.ts';
import type { Locate } from './yaml.ts';
import { readConfigFile } from './read.ts';

export interface LoadedConfig {
  file: string;
  /** The file name without its extension: the config name. */
  name: string;
  text: string;
  /** The parsed config; matches config-types.ts `Config` only when `ok`. */
  config: unknown;
  diagnostics: Diagnostic[];
  locate: Locate;
  /** No errors (warnings allowed). */
  ok: boolean;
}

export function loadConfig(file: string, text?: string): LoadedConfig {
  const read = text !== undefined ? { text } : readConfigFile(file);
  if (!('text' in read)) {
    const d: Diagnostic = { file, line: 0, col: 0, severity: 'error', message: read.problem, hint: read.hint, path: [] };
    return { file, name: basename(file, extname(file)), text: '', config: undefined, diagnostics: [d], locate: () => ({ line: 0, col: 0 }), ok: false };
  }
  const source = read.text;
  const { config, diagnostics, locate, parsed } = validateConfig(file, source);
  // Lints need a parsed value; after a YAML error there is none worth reading.
  const lints = parsed ? lintConfig(config, locate, file) : [];
  const all = sortDiagnostics(dedupeDiagnostics([...diagnostics, ...lints]));
  return { file, name: basename(file, extname(file)), text: source, config, diagnostics: all, locate, ok: !hasErrors(all) };
}

export type { Diagnostic } from './diagnostics.ts';
export { formatDiagnostic } from './diagnostics.ts';
