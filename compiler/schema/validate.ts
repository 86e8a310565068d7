// Parse a config and check it against config.schema.json; problems come back as positioned diagnostics.
import { dedupeDiagnostics, hasErrors, sortDiagnostics, type Diagnostic } from '../load/diagnostics.ts';
import { parseYamlWithPositions, type Locate } from '../load/yaml.ts';
import { configValidator } from './ajv.ts';
import { errorToDiagnostic } from './messages.ts';
import { collapseUnions } from './unions.ts';
import type { ErrorObject } from 'ajv';

export interface ValidationResult {
  config: unknown;
  diagnostics: Diagnostic[];
  locate: Locate;
  /** False when the YAML itself is broken (then no schema check ran). */
  parsed: boolean;
}

export function validateConfig(file: string, text: string): ValidationResult {
  const parsed = parseYamlWithPositions(file, text);
  const { value: config, locate } = parsed;
  // Broken YAML yields a partial value; validating it would only add noise.
  if (hasErrors(parsed.diagnostics)) return { config, diagnostics: sortDiagnostics(parsed.diagnostics), locate, parsed: false };
  const diagnostics = sortDiagnostics([...parsed.diagnostics, ...schemaDiagnostics(file, config, locate)]);
  return { config, diagnostics, locate, parsed: true };
}

export function schemaDiagnostics(file: string, config: unknown, locate: Locate): Diagnostic[] {
  const validate = configValidator();
  if (validate(config)) return [];
  const errors = mergeRequired(collapseUnions([...(validate.errors ?? [])]));
  const ds = errors.flatMap((e) => errorToDiagnostic(e, { file, config, locate }) ?? []);
  return sortDiagnostics(dedupeDiagnostics(ds));
}

/** Several missing fields of one object make one diagnostic, not one per field. */
function mergeRequired(errors: ErrorObject[]): ErrorObject[] {
  const byObject = new Map<string, ErrorObject>();
  const out: ErrorObject[] = [];
  for (const e of errors) {
    if (e.keyword !== 'required') {
      out.push(e);
      continue;
    }
    const key = `${e.instancePath}|${e.schemaPath}`;
    const prev = byObject.get(key);
    if (prev) (prev.params as { missing: string[] }).missing.push(e.params.missingProperty);
    else {
      const merged = { ...e, params: { ...e.params, missing: [e.params.missingProperty] } };
      byObject.set(key, merged);
      out.push(merged);
    }
  }
  return out;
}
