// A compiled jq program whose data is nested deeper than the JS stack allows (a RangeError from a
// recursive helper such as tojson or a comparison) is run again by the engine, which answers up to jq's
// own 10,000 levels (runtime/jq/deep.ts). Every other error is the program's own.
// A Fallback (a case the compiled helpers leave to jq, such as fromjson of text JSON.parse reads otherwise)
// is run again the same way.
import { jqAll } from './engine.ts';
import { Fallback } from './errors.ts';

export function deeper(e: unknown, program: string, input: unknown): unknown[] {
  if ((e instanceof RangeError && /call stack/i.test(e.message)) || e instanceof Fallback) return jqAll(program, input);
  throw e;
}
