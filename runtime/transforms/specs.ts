// How the compiler lowers each transform's config (see FieldKind), apart from the implementations:
// lowering imports this table without loading any engine (spreadsheet, PDF, crypto). The registry
// (./index.ts) pairs each entry with its `run`; the type there makes both lists name the same transforms.
import type { TransformSpec } from './types.ts';

/** The converters (b64_*, parse_csv, URI codecs...) act on the whole value or on `json_path` in it. */
const CONVERT: TransformSpec = { fields: { json_path: 'path' } };

export const transformSpecs = {
  add_attribute: {},
  add_jwt: { async: true },
  aggregate: { fields: { over: 'path' } },
  b64_decode: CONVERT,
  b64_decode_as_json: CONVERT,
  b64_encode: CONVERT,
  bcrypt: { fields: { jq: 'jq' }, async: true },
  compress: { fields: { value: 'path' } },
  decode_uri: CONVERT,
  decode_uri_component: CONVERT,
  decompress: { fields: { value: 'path' } },
  decrypt_value: {},
  encode_uri: CONVERT,
  encode_uri_component: CONVERT,
  encrypt_value: {},
  extract_array: { fields: { from: 'path' } },
  extract_value: { self: 'path' },
  extract_with_css: { fields: { value: 'literal', selector: 'literal', attribute: 'literal' } },
  extract_with_jq: { self: 'jq' },
  extract_with_json_path: { self: 'jsonpath' },
  extract_with_regex: { fields: { value: 'literal', expr: 'literal', keys: 'literal' } },
  filter: { fields: { target: 'places', conditions: 'tests' } },
  flatten: { fields: { target: 'places', key_separator: 'literal', prefix: 'literal' } },
  generate_bytes: {},
  generate_password: {},
  generate_slug: CONVERT,
  group_by: {},
  hmac: {},
  keep_attributes: {},
  math: { fields: { expressions: 'calcs', target: 'places' } },
  move_attributes: {},
  nested_transforms: { self: 'chains' },
  numerics: {},
  parse_csv: CONVERT,
  parse_pdf: { fields: { value: 'path' }, async: true },
  parse_xlsx: { fields: { value: 'path' } },
  read_jwt: { async: true },
  remove_attributes: {},
  remove_keys: {},
  rename_attributes: {},
  rename_keys: {},
  replace_values: { fields: { find_str: 'literal', regex: 'literal', target_key: 'literal' } },
  return_row: {},
  s3_generate_presigned_url: { fields: { json_path: 'literal' } },
  to_csv: CONVERT,
  totp: {},
  yaml_to_json: CONVERT,
} satisfies Record<string, TransformSpec>;

export type TransformName = keyof typeof transformSpecs;

/** The spec of a transform named in a config, or undefined (own keys only: "constructor" is no transform). */
export function specOf(name: string): TransformSpec | undefined {
  return Object.hasOwn(transformSpecs, name) ? (transformSpecs as Record<string, TransformSpec>)[name] : undefined;
}
