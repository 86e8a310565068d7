// b64_encode: TransformConfig (util/convert.ts) -> standard Base64 (with padding) of the value's
// UTF-8 bytes. Non-text values are encoded as their compact JSON, so b64_decode_as_json inverts it.
import type { TransformRun } from './types.ts';
import { convertAt } from './util/convert.ts';
import { bytesOf } from './util/fields.ts';

export const run: TransformRun = (data, args) =>
  convertAt(data, args, 'b64_encode', (v) => bytesOf(v, 'value', 'b64_encode').toString('base64'));
