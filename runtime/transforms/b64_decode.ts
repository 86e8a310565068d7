// b64_decode: TransformConfig (util/convert.ts) -> the Base64 text decoded to UTF-8 text.
// Both alphabets, optional padding and line breaks (MIME-wrapped API payloads) are accepted.
// Invalid Base64 or bytes that are not UTF-8 fail: JSON cannot carry binary, and a silent
// replacement character would corrupt the value.
import { TransformError, type TransformRun } from './types.ts';
import { convertAt, needText } from './util/convert.ts';
import { fromBase64 } from './util/encodings.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function b64Text(v: unknown, who: string): string {
  const bytes = fromBase64(needText(v, who));
  if (!bytes) throw new TransformError(`${who}: the value is not valid Base64`);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new TransformError(`${who}: the decoded bytes are not UTF-8 text`);
  }
}

export const run: TransformRun = (data, args) => convertAt(data, args, 'b64_decode', (v) => b64Text(v, 'b64_decode'));
