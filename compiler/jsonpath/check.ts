// Check-time validation of a JSONPath: the parse error json-p3 gives, with its offset in the text.
import { env, errorText, isJsonPath } from '../../runtime/jsonpath/env.ts';

export interface SourceError { message: string; offset: number }

/** Null when `src` is a valid RFC 9535 query or a dotted path (text not starting with `$`). */
export function checkJsonPath(src: string): SourceError | null {
  if (!isJsonPath(src)) return null;
  try {
    env.compile(src);
    return null;
  } catch (e) {
    const index = (e as { token?: { index?: unknown } }).token?.index;
    const offset = typeof index === 'number' ? Math.min(Math.max(index, 0), src.length) : 0;
    return { message: `invalid JSONPath: ${errorText(e)}`, offset };
  }
}
