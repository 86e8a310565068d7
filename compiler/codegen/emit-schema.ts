// `accepts.schema` → a validator as generated code: ajv's standalone code for the schema (the same
// ajv set-up the interpreter compiles with: runtime/contract/schema-ajv.ts), wrapped in a function
// that hands it the few helpers it `require`s (runtime/contract/body-check.ts). ajv writes the
// schema's strings as escaped literals, as our own builder does. A fresh ajv per schema, so its
// names (validate10, schema11, …) and so the module's bytes depend on the schema alone.
import standalone from 'ajv/dist/standalone/index.js';
import type { SchemaIR } from '../../runtime/config-ir.ts';
import { SCHEMA_MODULES } from '../../runtime/contract/body-check.ts';
import { schemaAjv } from '../../runtime/contract/schema-ajv.ts';
import type { Where } from '../../runtime/walk.ts';
import { Code, _ } from '../emit/code.ts';
import type { Emitter } from './emitter.ts';

const toCode = (standalone as unknown as { default?: typeof standalone }).default ?? standalone;

export function emitSchema(e: Emitter, s: SchemaIR, at: Where): Code {
  const ajv = schemaAjv({ code: { source: true, esm: true, lines: true } });
  const validate = ajv.compile(s.schema as boolean | object);
  const text = toCode(ajv, validate);
  // ajv's module header names the root function; the rest is declarations we keep as they are.
  const head = /^"use strict";\nexport const validate = (validate\d+);\nexport default \1;\n/.exec(text);
  if (!head) throw new Error('internal error: unexpected ajv standalone output (its header changed)');
  for (const [, m] of text.matchAll(/\brequire\("([^"]*)"\)/g)) {
    if (!SCHEMA_MODULES.includes(m!)) throw new Error(`internal error: ajv standalone code needs "${m}", which the runtime does not provide`);
  }
  const body = text.slice(head[0].length)
    // Typed for strict TypeScript: ajv's functions take any data and carry their errors.
    .replace(/^function (validate\d+)\(data, \{([^\n]*)\}=\{\}\)\{$/gm, 'function $1(data: any, {$2}: any = {}): boolean {')
    .replace(/^let vErrors = null;$/gm, 'let vErrors: any = null;');
  if (/^function validate\d+\(data, /m.test(body)) throw new Error('internal error: unexpected ajv standalone output (a function signature changed)');
  const name = e.names.make(...at);
  e.declareVerbatim(at, 'compiled JSON Schema validator (ajv standalone code)',
    `const ${name.text} = rt.bodyCheck(((require: (m: string) => any) => {\n${body}\nreturn ${head[1]};\n})(rt.schemaRequire));`);
  return _`${name}`;
}
