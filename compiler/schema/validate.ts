// Check a parsed config against config.schema.json; problems come back as positioned diagnostics.
// Parsing is not done here: compiler/load parses (compiler/source/yaml.ts), then calls this.
import { dedupeDiagnostics, sortDiagnostics, type Diagnostic } from '../source/diagnostics.ts';
import type { Locate } from '../source/yaml.ts';
import { configValidator, quickValid } from './ajv.ts';
import { errorToDiagnostic } from './messages.ts';
import { collapseUnions } from './unions.ts';
import type { ErrorObject } from 'ajv';

export function schemaDiagnostics(file: string, config: unknown, locate: Locate): Diagnostic[] {
  // A valid config needs no explanation: the prebuilt validator says so without compiling the schema.
  if (quickValid(config) === true) return [];
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
