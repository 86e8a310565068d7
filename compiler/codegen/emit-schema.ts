// `accepts.schema` → a validator as generated code: ajv's standalone code for the schema (the same
// ajv set-up the interpreter compiles with: runtime/contract/schema-ajv.ts), wrapped in a function
// that hands it the few helpers it `require`s (runtime/contract/body-check.ts). ajv writes the
// schema's strings as escaped literals, as our own builder does. A fresh ajv per schema, so its
// names (validate10, schema11, …) and so the module's bytes depend on the schema alone.
import type { SchemaIR } from '../../runtime/config-ir.ts';
import { SCHEMA_MODULES } from '../../runtime/contract/body-check.ts';
import { schemaAjv } from '../../runtime/contract/schema-ajv.ts';
import { ajvLib, ajvStandalone } from '../schema/ajv-lib.ts';
import type { Where } from '../../runtime/walk.ts';
import { Code, _, str } from '../emit/code.ts';
import type { Emitter } from './emitter.ts';

export function emitSchema(e: Emitter, s: SchemaIR, at: Where): Code {
  const ajv = schemaAjv(ajvLib(), { code: { source: true, esm: true, lines: true } });
  const validate = ajv.compile(s.schema as boolean | object);
  const text = ajvStandalone()(ajv, validate);
  // ajv's module header names the root function; the rest is declarations we keep as they are.
  const head = /^"use strict";\nexport const validate = (validate\d+);\nexport default \1;\n/.exec(text);
  if (!head) throw new Error('internal error: unexpected ajv standalone output (its header changed)');
  for (const [, m] of text.matchAll(/\brequire\("([^"]*)"\)/g)) {
    if (!SCHEMA_MODULES.includes(m!)) throw new Error(`internal error: ajv standalone code needs "${m}", which the runtime does not provide`);
  }
  const body = typed(text.slice(head[0].length));
  const name = e.names.make(...at);
  e.declareVerbatim(at, 'compiled JSON Schema validator (ajv standalone code)',
    `const ${name.text} = rt.bodyCheck(((require: (m: string) => any) => {\n${body}\nreturn ${head[1]};\n})(rt.schemaRequire));`);
  return _`${name}`;
}

/** ajv's JavaScript made strict TypeScript without changing what it does: its data is `any`, as
 *  are the variables TypeScript cannot follow (a `var` set in a loop, errors carried on a function
 *  declared in a nested scope). */
function typed(code: string): string {
  const out = code
    .replace(/^function (validate\d+)\(data, \{([^\n]*)\}=\{\}\)\{$/gm, 'function $1(data: any, {$2}: any = {}): boolean {')
    .replace(/^let vErrors = null;$/gm, 'let vErrors: any = null;')
    .replace(/^var (\w+) = /gm, 'var $1: any = ')
    .replace(/^let (\w+);$/gm, 'let $1: any;')
    .replace(/^const (wrapper\d+) = /gm, 'const $1: any = ')
    // The schema data ajv's code reads (const and enum values) as JSON.parse of a string: an object
    // literal would make a `__proto__` key the object's prototype, where JSON.parse and the
    // interpreter keep it as an own key.
    .replace(/^const (schema\d+) = (.*);$/gm, (_m, name: string, json: string) => `const ${name} = JSON.parse(${str(JSON.stringify(JSON.parse(json)))});`);
  // Outside string literals only.
  const expando = out.split(/("(?:[^"\\\n]|\\.)*")/).map((part, i) => (i % 2 ? part : part
    .replace(/(?<![\w$.])(validate\d+)\.(errors|evaluated)\b/g, '($1 as any).$2')
    // multipleOf's guard against a zero divisor compares two literals, which TypeScript refuses.
    .replace(/\((-?[\d.]+(?:e[+-]?\d+)?) === 0 \|\|/g, '(($1 as number) === 0 ||'))).join('');
  if (/^function validate\d+\(data, /m.test(expando) || /^const schema\d+ = (?!JSON\.parse)/m.test(expando)) throw new Error('internal error: unexpected ajv standalone output (its declarations changed)');
  return expando;
}
