// yaml_to_json: TransformConfig (util/convert.ts) -> the YAML text parsed (YAML 1.2 core schema,
// one document). Alias expansion is bounded by the library (billion-laughs input fails), and the
// result goes through JSON so only JSON values remain (.inf/.nan become null).
import { parse } from 'yaml';
import { TransformError, type TransformRun } from './types.ts';
import { convertAt, needText } from './util/convert.ts';

const W = 'yaml_to_json';

export const run: TransformRun = (data, args) =>
  convertAt(data, args, W, (v) => {
    let out: unknown;
    try {
      out = parse(needText(v, W), { schema: 'core', maxAliasCount: 100, uniqueKeys: true });
    } catch (e) {
      if (e instanceof TransformError) throw e;
      // First line only: the library appends a code frame quoting the input.
      throw new TransformError(`${W}: invalid YAML: ${String((e as Error).message).split('\n')[0]}`);
    }
    return out === undefined ? null : JSON.parse(JSON.stringify(out));
  });
