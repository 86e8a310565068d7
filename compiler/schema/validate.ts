// Parse a config and check it against config.schema.json; problems come back as positioned diagnostics.
import { dedupeDiagnostics, hasErrors, sortDiagnostics, type Diagnostic } from '../load/diagnostics.ts';
import { parseYamlWithPositions, type Locate } from '../load/yaml.ts';
import { configValidator } from './ajv.ts';
import { errorToDiagnostic } from './messages.ts';
import { collapseUnions } from './unions.ts';

export interface ValidationResult {
  config: unknown;
  diagnostics: Diagnostic[];
  locate: Locate;
}

export function validateConfig(file: string, text: string): ValidationResult {
  const parsed = parseYamlWithPositions(file, text);
  const { value: config, locate } = parsed;
  // Broken YAML yields a partial value; validating it would only add noise.
  if (hasErrors(parsed.diagnostics)) return { config, diagnostics: sortDiagnostics(parsed.diagnostics), locate };
  return { config, diagnostics: sortDiagnostics([...parsed.diagnostics, ...schemaDiagnostics(file, config, locate)]), locate };
}

export function schemaDiagnostics(file: string, config: unknown, locate: Locate): Diagnostic[] {
  const validate = configValidator();
  if (validate(config)) return [];
  const errors = collapseUnions([...(validate.errors ?? [])]);
  const ds = errors.flatMap((e) => errorToDiagnostic(e, { file, config, locate }) ?? []);
  return sortDiagnostics(dedupeDiagnostics(ds));
}
