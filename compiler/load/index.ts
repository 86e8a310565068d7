// Loading a config: parse YAML (with positions) -> check against the schema -> lint.
import { basename, extname } from 'node:path';
import type { Config } from '../schema/config-types.ts';
import { schemaDiagnostics } from '../schema/validate.ts';
import { dedupeDiagnostics, hasErrors, sortDiagnostics, type Diagnostic } from '../source/diagnostics.ts';
import { parseYamlWithPositions, type Locate } from '../source/yaml.ts';
import { lintConfig } from './lint.ts';
import { readConfigFile } from './read.ts';

interface Loaded {
  file: string;
  /** The file name without its extension: the config name. */
  name: string;
  text: string;
  diagnostics: Diagnostic[];
  locate: Locate;
}

/** `ok`: no errors (warnings allowed), so the config is valid against the schema and typed as such. */
export type LoadedConfig = (Loaded & { ok: true; config: Config }) | (Loaded & { ok: false; config: unknown });

export function loadConfig(file: string, text?: string): LoadedConfig {
  const read = text !== undefined ? { text } : readConfigFile(file);
  if (!('text' in read)) {
    const d: Diagnostic = { file, line: 0, col: 0, severity: 'error', message: read.problem, hint: read.hint, path: [] };
    return { file, name: basename(file, extname(file)), text: '', config: undefined, diagnostics: [d], locate: () => ({ line: 0, col: 0 }), ok: false };
  }
  const source = read.text;
  const { value: config, diagnostics: yamlProblems, locate } = parseYamlWithPositions(file, source);
  // After a YAML error the value is partial: checking it would only add noise.
  const checks = hasErrors(yamlProblems) ? [] : schemaThenLint(schemaDiagnostics(file, config, locate), lintConfig(config, locate, file));
  const all = sortDiagnostics(dedupeDiagnostics([...yamlProblems, ...checks]));
  const loaded = { file, name: basename(file, extname(file)), text: source, diagnostics: all, locate };
  // Schema-checked: what the schema accepts is what config-types.ts (generated from it) describes.
  return hasErrors(all) ? { ...loaded, ok: false, config } : { ...loaded, ok: true, config: config as Config };
}

/** Both: but where a lint refuses the very value the schema refused (an interface method: the schema's
 *  enum serves editors, the lint names the one bad method of `GET,POTS`), the lint's words only. */
function schemaThenLint(schema: Diagnostic[], lint: Diagnostic[]): Diagnostic[] {
  const linted = new Set(lint.filter((d) => d.severity === 'error' && d.path).map((d) => JSON.stringify(d.path)));
  return [...schema.filter((d) => !d.path || !linted.has(JSON.stringify(d.path))), ...lint];
}

export type { Diagnostic } from '../source/diagnostics.ts';
export { formatDiagnostic } from '../source/diagnostics.ts';
