// The compiled config schema, built once on first use, plus access to its parts by object identity
// (ajv hands back the schema objects it was given, which is how error explanation finds union branches).
import Ajv, { type ValidateFunction } from 'ajv';
import schema from './config.schema.json' with { type: 'json' };

export type SchemaNode = Record<string, any>;
export const configSchema: SchemaNode = schema;
const ROOT_ID: string = schema.$id;

let ajv: Ajv | undefined;
let validator: ValidateFunction | undefined;
let pointers: WeakMap<object, string> | undefined;

function instance(): Ajv {
  // inlineRefs off keeps each definition a separate function, so branch validators can be fetched by pointer.
  ajv ??= new Ajv({ allErrors: true, verbose: true, inlineRefs: false, allowUnionTypes: true, strict: true, strictRequired: false });
  if (!ajv.getKeyword('x-message')) {
    // Our annotations: a friendlier message for pattern/not failures, and "exactly one of these fields".
    ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
    ajv.addKeyword({
      keyword: 'x-exactly-one',
      type: 'object',
      schemaType: 'array',
      validate: (fields: string[], data: Record<string, unknown>) => fields.filter((f) => data[f] !== undefined).length === 1,
    });
  }
  return ajv;
}

export function configValidator(): ValidateFunction {
  validator ??= instance().compile(schema);
  return validator;
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
