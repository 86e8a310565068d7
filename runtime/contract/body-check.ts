// A request body checked against an interface's `accepts.schema` before any action runs: the
// validator (generated code on the fast path, ajv's compiled function in the interpreter; both are
// ajv's code, the same rules) and what a client is told when the body fails it. The answer names
// the first violation (path, rule, message) and never echoes more than a bounded piece of the request.
import type { ValidateFunction } from 'ajv';
import * as ajvEqual from 'ajv/dist/runtime/equal.js';
import * as ajvUcs2 from 'ajv/dist/runtime/ucs2length.js';
import { linearRegExpEngine } from '../values/regex.ts';
import { schemaFormats } from './schema-formats.ts';
import type { BodyCheck, Violation } from '../violations.ts';

export type { BodyCheck, Violation } from '../violations.ts';

/** The shape both paths hand over: ajv's validate function (its `errors` set after a failure). */
export type SchemaValidate = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] };

const MAX_PATH = 200;
/** ajv stops at the first error (schema-ajv.ts); a oneOf/anyOf adds one per branch it tried. */
const MAX_VIOLATIONS = 10;
const bounded = (s: string) => (s.length > MAX_PATH ? `${s.slice(0, MAX_PATH)}…` : s);
const pointerPart = (k: string) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;

export function bodyCheck(validate: SchemaValidate): BodyCheck {
  return (body) => {
    if (validate(body)) return undefined;
    // A property name that fails `propertyNames` comes as the failed rule plus a wrapper saying
    // "property name must be valid": the rule is the one to name.
    return (validate.errors ?? []).filter((e) => e.keyword !== 'propertyNames').slice(0, MAX_VIOLATIONS).map((e) => {
      // The property a rule is about belongs in the path: a missing one is the schema's name, an
      // unexpected one is the client's (bounded below).
      const p = e.params as { missingProperty?: unknown; additionalProperty?: unknown };
      const name = (e as { propertyName?: unknown }).propertyName;
      const key = e.keyword === 'required' ? p.missingProperty : e.keyword === 'additionalProperties' ? p.additionalProperty : name;
      const path = e.instancePath + (typeof key === 'string' ? pointerPart(key) : '');
      const message = e.keyword === 'required' ? 'is required' : e.keyword === 'additionalProperties' ? 'is not allowed' : `${typeof name === 'string' ? 'property name ' : ''}${e.message ?? 'is invalid'}`;
      return { path: bounded(path), rule: e.keyword, message };
    });
  };
}

// CommonJS default exports read the same way under Node's ESM loader (module.exports) and esbuild
// (exports.default).
const cjsDefault = <T>(m: { default: unknown }): T => ((m.default as { default?: T }).default ?? m.default) as T;

/** The modules generated validators `require` (ajv's standalone code names its helpers so): the
 *  generated module hands this map to them, so a bundle holds exactly these. */
const MODULES: Record<string, unknown> = {
  'ajv/dist/runtime/equal': { default: cjsDefault(ajvEqual) },
  'ajv/dist/runtime/ucs2length': { default: cjsDefault(ajvUcs2) },
  'pipewright/schema-formats': { default: schemaFormats },
  'pipewright/schema-regexp': { default: linearRegExpEngine },
};
export const SCHEMA_MODULES: readonly string[] = Object.keys(MODULES);

export function schemaRequire(name: string): unknown {
  if (!Object.hasOwn(MODULES, name)) throw new Error(`internal error: a generated schema validator needs "${name}"`);
  return MODULES[name];
}
