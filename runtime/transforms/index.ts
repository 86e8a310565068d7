// Registry of transforms by config field name: each one's spec (./specs.ts) with its implementation,
// for the interpreter and generated code. The compiler reads ./specs.ts alone (no engines loaded).
// Null prototype: a config naming "constructor" or "toString" must not find an inherited member
// (look names up with Object.hasOwn(transforms, name) or transforms[name] !== undefined).
import { transformSpecs, type TransformName } from './specs.ts';
import type { TransformRun, TransformSpec } from './types.ts';
import * as add_attribute from './add_attribute.ts';
import * as extract_array from './extract_array.ts';
import * as extract_value from './extract_value.ts';
import * as extract_with_jq from './extract_with_jq.ts';
import * as extract_with_json_path from './extract_with_json_path.ts';
import * as group_by from './group_by.ts';
import * as keep_attributes from './keep_attributes.ts';
import * as move_attributes from './move_attributes.ts';
import * as nested_transforms from './nested_transforms.ts';
import * as numerics from './numerics.ts';
import * as remove_attributes from './remove_attributes.ts';
import * as remove_keys from './remove_keys.ts';
import * as rename_attributes from './rename_attributes.ts';
import * as rename_keys from './rename_keys.ts';
import * as return_row from './return_row.ts';
import * as math from './math.ts';
import * as filter from './filter.ts';
import * as aggregate from './aggregate.ts';
import * as compress from './compress.ts';
import * as decompress from './decompress.ts';
import * as parse_xlsx from './parse_xlsx.ts';
import * as parse_pdf from './parse_pdf.ts';
import * as replace_values from './replace_values.ts';
import * as flatten from './flatten.ts';
import * as extract_with_regex from './extract_with_regex.ts';
import * as extract_with_css from './extract_with_css.ts';
import * as b64_decode from './b64_decode.ts';
import * as b64_decode_as_json from './b64_decode_as_json.ts';
import * as b64_encode from './b64_encode.ts';
import * as yaml_to_json from './yaml_to_json.ts';
import * as parse_csv from './parse_csv.ts';
import * as to_csv from './to_csv.ts';
import * as encode_uri from './encode_uri.ts';
import * as encode_uri_component from './encode_uri_component.ts';
import * as decode_uri from './decode_uri.ts';
import * as decode_uri_component from './decode_uri_component.ts';
import * as generate_slug from './generate_slug.ts';
import * as bcrypt from './bcrypt.ts';
import * as generate_password from './generate_password.ts';
import * as generate_bytes from './generate_bytes.ts';
import * as encrypt_value from './encrypt_value.ts';
import * as decrypt_value from './decrypt_value.ts';
import * as hmac from './hmac.ts';
import * as add_jwt from './add_jwt.ts';
import * as read_jwt from './read_jwt.ts';
import * as totp from './totp.ts';
import * as s3_generate_presigned_url from './s3_generate_presigned_url.ts';

export interface TransformDef {
  spec: TransformSpec;
  run: TransformRun;
}

// Typed by the spec table: a transform missing on either side does not compile.
const runs: Record<TransformName, { run: TransformRun }> = {
  rename_attributes, remove_attributes, keep_attributes, move_attributes,
  rename_keys, remove_keys, add_attribute, return_row,
  extract_value, extract_array, extract_with_json_path, extract_with_jq,
  numerics, group_by, nested_transforms,
  math, filter, aggregate,
  compress, decompress, parse_xlsx, parse_pdf,
  replace_values, flatten, extract_with_regex, extract_with_css,
  b64_decode, b64_decode_as_json, b64_encode, yaml_to_json, parse_csv, to_csv,
  encode_uri, encode_uri_component, decode_uri, decode_uri_component, generate_slug,
  bcrypt, generate_password, generate_bytes, encrypt_value, decrypt_value, hmac,
  add_jwt, read_jwt, totp, s3_generate_presigned_url,
};

const all = Object.fromEntries(Object.entries(runs).map(([name, m]) => [name, { spec: transformSpecs[name as TransformName], run: m.run }]));

export const transforms: Record<string, TransformDef> = Object.freeze(Object.assign(Object.create(null), all));
