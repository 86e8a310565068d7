// The one ajv set-up for JSON Schemas a config gives for request data (`accepts.schema`): the
// interpreter compiles with it at load, the compiler emits its standalone code, `check` compiles
// with it to place errors. No coercion, no defaults written, no property removed: the request is
// checked, never changed. Patterns run on RE2 (linear time); formats are ajv-formats' "fast" set.
// First error only: with allErrors, ajv makes one error object per offending array item, so a
// 10 MiB body could allocate millions of them.
import { _, Ajv, type Options } from 'ajv';
import { linearRegExpEngine } from '../values/regex.ts';
import { schemaFormats } from './schema-formats.ts';

export const schemaAjvOptions = (o: Options = {}): Options => ({
  strict: false, allErrors: false, ownProperties: true, coerceTypes: false, useDefaults: false, removeAdditional: false,
  // Unknown formats and keywords are `check`'s to report (compiler/load/lint-accepts.ts), not the server's log.
  validateFormats: true, logger: false, ...o,
  // How standalone code reaches the formats: through the module map of body-check.ts (schemaRequire).
  code: { regExp: linearRegExpEngine, formats: _`require("pipewright/schema-formats").default`, ...o.code },
});

/** A fresh ajv (names in its generated code start over, so the compiler's output is deterministic). */
export function schemaAjv(o: Options = {}): Ajv {
  const ajv = new Ajv(schemaAjvOptions(o));
  for (const [name, f] of Object.entries(schemaFormats)) ajv.addFormat(name, f);
  return ajv;
}
