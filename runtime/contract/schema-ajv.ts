// The one ajv set-up for JSON Schemas a config gives for request data (`accepts.schema`): the
// interpreter compiles with it at load (schema-compile.ts), the compiler emits its standalone code,
// `check` compiles with it to place errors. No coercion, no defaults written, no property removed:
// the request is checked, never changed. Patterns run on RE2 (linear time); formats are
// ajv-formats' "fast" set. First error only: with allErrors, ajv makes one error object per
// offending array item, so a 10 MiB body could allocate millions of them.
// ajv itself is passed in: the compiler and `check` require it only when a config has a schema
// (loading it is a good part of `check`'s start), the runtime imports it.
import type { Ajv, Options } from 'ajv';
import { linearRegExpEngine } from '../values/regex.ts';
import { schemaFormats } from './schema-formats.ts';

export type AjvLib = Pick<typeof import('ajv'), 'Ajv' | '_'>;

/** A fresh ajv (names in its generated code start over, so the compiler's output is deterministic). */
export function schemaAjv(lib: AjvLib, o: Options = {}): Ajv {
  const ajv = new lib.Ajv({
    strict: false, allErrors: false, ownProperties: true, coerceTypes: false, useDefaults: false, removeAdditional: false,
    // Unknown formats and keywords are `check`'s to report (compiler/load/lint-accepts.ts), not the server's log.
    validateFormats: true, logger: false, ...o,
    // How standalone code reaches the formats: through the module map of body-check.ts (schemaRequire).
    code: { regExp: linearRegExpEngine, formats: lib._`require("pipewright/schema-formats").default`, ...o.code },
  });
  for (const [name, f] of Object.entries(schemaFormats)) ajv.addFormat(name, f);
  return ajv;
}
