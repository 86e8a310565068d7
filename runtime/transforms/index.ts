// Registry of transforms by config field name, shared by the compiler and the interpreter.
// Null prototype: a config naming "constructor" or "toString" must not find an inherited member
// (look names up with Object.hasOwn(transforms, name) or transforms[name] !== undefined).
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

export interface TransformDef {
  spec: TransformSpec;
  run: TransformRun;
}

const all: Record<string, TransformDef> = {
  rename_attributes, remove_attributes, keep_attributes, move_attributes,
  rename_keys, remove_keys, add_attribute, return_row,
  extract_value, extract_array, extract_with_json_path, extract_with_jq,
  numerics, group_by, nested_transforms,
  math, filter, aggregate,
};

export const transforms: Record<string, TransformDef> = Object.freeze(Object.assign(Object.create(null), all));
