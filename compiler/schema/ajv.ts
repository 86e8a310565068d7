// The compiled config schema, built once on first use, plus access to its parts by object identity
// (ajv hands back the schema objects it was given, which is how error explanation finds union branches).
import { createRequire } from 'node:module';
import type { default as Ajv, Code, KeywordCxt, Options, ValidateFunction } from 'ajv';
import schema from './config.schema.json' with { type: 'json' };
import { ajvLib } from './ajv-lib.ts';

const require = createRequire(import.meta.url);

export type SchemaNode = Record<string, any>;
export const configSchema: SchemaNode = schema;
const ROOT_ID: string = schema.$id;

let ajv: Ajv | undefined;
let validator: ValidateFunction | undefined;
let pointers: WeakMap<object, string> | undefined;

/** An ajv with our keywords: a friendlier message for pattern/not failures (annotation only), and
 *  "exactly one of these fields" (generated code, so a standalone validator can hold it too). */
export function withKeywords(options: Options): Ajv {
  const { default: Ajv, _ } = ajvLib();
  const a = new Ajv({ allowUnionTypes: true, strict: true, strictRequired: false, ...options });
  a.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  a.addKeyword({
    keyword: 'x-exactly-one',
    type: 'object',
    schemaType: 'array',
    code(cxt: KeywordCxt) {
      const count = (cxt.schema as string[]).reduce<Code>((acc, f) => _`${acc} + (${cxt.data}[${f}] !== undefined ? 1 : 0)`, _`0`);
      cxt.fail(_`${count} !== 1`);
    },
  });
  return a;
}

function instance(): Ajv {
  // inlineRefs off keeps each definition a separate function, so branch validators can be fetched by pointer.
  ajv ??= withKeywords({ allErrors: true, verbose: true, inlineRefs: false });
  return ajv;
}

export function configValidator(): ValidateFunction {
  validator ??= instance().compile(schema);
  return validator;
}

/** The ajv options of the pass/fail validator that scripts/build-dist.mjs writes as standalone code
 *  (STANDALONE_FILE next to this module in dist/): compiling the schema took ~60% of `check`. */
export const STANDALONE_OPTIONS: Options = { allErrors: false, code: { source: true, esm: false } };
export const STANDALONE_FILE = 'config-valid.cjs';

let quick: ((config: unknown) => boolean) | null | undefined;

/** True when the config is valid, by the prebuilt standalone validator (dist/ only); undefined when
 *  there is none (running from source) — then, as for an invalid config, the full validator decides. */
export function quickValid(config: unknown): boolean | undefined {
  if (quick === undefined) {
    try { quick = require(`./${STANDALONE_FILE}`) as (c: unknown) => boolean; } catch { quick = null; }
  }
  return quick ? quick(config) : undefined;
}

/** JSON pointer of a schema object inside the config schema. */
function pointerOf(node: object): string | undefined {
  if (!pointers) {
    pointers = new WeakMap();
    const walk = (n: unknown, ptr: string): void => {
      if (typeof n !== 'object' || n === null) return;
      pointers!.set(n, ptr);
      for (const [k, v] of Object.entries(n)) walk(v, `${ptr}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    };
    walk(schema, '');
  }
  return pointers.get(node);
}

/** A validator for one branch of the anyOf in `unionSchema` (a schema object of the config schema). */
export function branchValidator(unionSchema: object, keyword: 'anyOf' | 'oneOf', index: number): ValidateFunction | undefined {
  configValidator();
  const ptr = pointerOf(unionSchema);
  if (ptr === undefined) return undefined;
  return instance().getSchema(`${ROOT_ID}#${ptr}/${keyword}/${index}`);
}

/** Follow `$ref`s to the schema that does the work. */
export function deref(node: unknown): SchemaNode | undefined {
  let n = node;
  for (let i = 0; i < 20 && isNode(n) && typeof n.$ref === 'string'; i++) {
    n = n.$ref.split('/').slice(1).reduce<unknown>((acc, seg) => (isNode(acc) ? acc[seg] : undefined), schema);
  }
  return isNode(n) ? n : undefined;
}

const isNode = (n: unknown): n is SchemaNode => typeof n === 'object' && n !== null && !Array.isArray(n);
