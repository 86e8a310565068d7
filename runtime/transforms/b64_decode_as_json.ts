// b64_decode_as_json: TransformConfig (util/convert.ts) -> Base64 decoded (as b64_decode), then
// parsed as JSON. Text that is not JSON fails rather than passing through as a string.
import { b64Text } from './b64_decode.ts';
import { TransformError, type TransformRun } from './types.ts';
import { convertAt } from './util/convert.ts';

const W = 'b64_decode_as_json';

export const run: TransformRun = (data, args) =>
  convertAt(data, args, W, (v) => {
    const text = b64Text(v, W);
    try {
      return JSON.parse(text);
    } catch {
      throw new TransformError(`${W}: the decoded text is not JSON`);
    }
  });
