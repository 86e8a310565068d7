// config-types.ts is generated from config.schema.json, so the types cannot drift from what loads.
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { configSchema, type SchemaNode } from './ajv.ts';

const SHAPE_KEYWORDS = new Set(['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', 'properties', 'items', 'additionalProperties', 'tsType', 'definitions']);
const HEADER = '// Generated from config.schema.json by compiler/schema/gen-types.ts. Do not edit.';

export async function generateTypes(): Promise<string> {
  const ts = await compile(prepare(configSchema) as JSONSchema, 'Config', {
    bannerComment: HEADER,
    unreachableDefinitions: true,
    strictIndexSignatures: false,
    format: true,
  });
  // json-schema-to-typescript notes where each definition came from; the names already say it.
  return ts.replace(/\n \*\n \* This interface was referenced by `Config`'s JSON-Schema\n \* via the `definition` "[^"]+"\./g, '')
    .replace(/\n\/\*\*\n \* This interface was referenced by `Config`'s JSON-Schema\n \* via the `definition` "[^"]+"\.\n \*\/\n/g, '\n');
}

// Where subschemas sit inside a schema (other keys hold data: enum values, defaults, examples).
const SCHEMA_MAPS = ['properties', 'definitions', 'patternProperties'];
const SCHEMA_SLOTS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'];

/**
 * Adjusts the schema for json-schema-to-typescript:
 * - a `$ref` with a sibling `description` would make it emit a numbered copy of the type (StringList1,
 *   StringList2...): name the referenced type directly instead (tsType), keeping the description for the
 *   property's doc comment (unreachableDefinitions still emits every definition);
 * - a schema that constrains nothing means any value, which it would type as an object.
 */
function prepare(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const out: SchemaNode = { ...node };
  for (const k of SCHEMA_MAPS) if (isMap(out[k])) out[k] = Object.fromEntries(Object.entries(out[k]).map(([n, v]) => [n, prepare(v)]));
  for (const k of SCHEMA_SLOTS) if (isMap(out[k])) out[k] = prepare(out[k]);
  for (const k of SCHEMA_LISTS) if (Array.isArray(out[k])) out[k] = out[k].map(prepare);
  if (!Object.keys(out).some((k) => SHAPE_KEYWORDS.has(k))) return { ...out, tsType: 'unknown' };
  if (typeof out.$ref === 'string' && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    const title = configSchema.definitions[$ref.split('/').pop()!]?.title;
    if (!title) throw new Error(`config.schema.json: ${$ref} has no title to name its type`);
    return { ...rest, tsType: title };
  }
  return out;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
