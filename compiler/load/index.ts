// Loading a config: parse YAML (with positions) -> check against the schema -> lint.
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { schemaDiagnostics } from '../schema/validate.ts';
import { dedupeDiagnostics, hasErrors, sortDiagnostics, type Diagnostic } from '../source/diagnostics.ts';
import { parseYamlWithPositions, type Locate } from '../source/yaml.ts';
import { lintConfig } from './lint.ts';

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
  const source = text ?? readFileSync(file, 'utf8');
  const { value: config, diagnostics: yamlProblems, locate } = parseYamlWithPositions(file, source);
  // After a YAML error the value is partial: checking it would only add noise.
  const checks = hasErrors(yamlProblems) ? [] : [...schemaDiagnostics(file, config, locate), ...lintConfig(config, locate, file)];
  const all = sortDiagnostics(dedupeDiagnostics([...yamlProblems, ...checks]));
  return { file, name: basename(file, extname(file)), text: source, config, diagnostics: all, locate, ok: !hasErrors(all) };
}

export type { Diagnostic } from '../source/diagnostics.ts';
export { formatDiagnostic } from '../source/diagnostics.ts';
