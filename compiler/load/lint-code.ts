// jq programs and JSONPaths that do not parse are errors at check time, at the value that holds them
// (the message gives the position inside the program). The checks are the engines' own parsers.
import { checkJq, endlessJq } from '../jq/check.ts';
import { checkJsonPath } from '../jsonpath/check.ts';
import { forEachString, isObj } from './walk.ts';
import type { ConfigPath } from '../source/yaml.ts';
import type { Report } from './report.ts';

const JQ = new Set(['jq', 'extract_with_jq']);
const JQ_MAPS = new Set(['lookup_inherit_jq', 'json_output']);
const JSONPATH = new Set(['json_path', 'extract_with_json_path']);

export function lintCode(config: unknown, report: Report): void {
  forEachString(config, [], (s, path) => {
    const kind = kindOf(path);
    if (!kind) return;
    const e = kind === 'jq' ? checkJq(s) : checkJsonPath(s);
    if (e) report('error', path, `${e.message} (at ${where(s, e.offset)} of the ${kind === 'jq' ? 'jq program' : 'JSONPath'})`, hintFor(kind), 'value');
    const endless = kind === 'jq' && !e ? endlessJq(s) : null;
    if (endless) report('error', path, `${endless.message} (at ${where(s, endless.offset)} of the jq program)`, 'take a bounded part of the stream: limit(n; …), first(…), or range with a finite end', 'value');
  }, () => false);
  // json_output may also be one JSON string holding the mapping.
  forEachString(config, [], (s, path) => {
    if (path.at(-1) !== 'json_output') return;
    let o: unknown;
    try { o = JSON.parse(s); } catch { return; }
    if (!isObj(o)) return;
    for (const [k, src] of Object.entries(o)) {
      const e = typeof src === 'string' ? checkJq(src) : null;
      if (e) report('error', path, `json_output "${k}": ${e.message} (at ${where(src as string, e.offset)} of the jq program)`, hintFor('jq'), 'value');
    }
  }, () => false);
}

function kindOf(path: ConfigPath): 'jq' | 'jsonpath' | null {
  const key = String(path.at(-1));
  const parent = String(path.at(-2));
  if (JQ.has(key) || JQ_MAPS.has(parent) || (key === 'id' && parent === 'only_new')) return 'jq';
  if (JSONPATH.has(key)) return 'jsonpath';
  return null;
}

/** `line L, column C` (1-based) of an offset in a program. */
function where(src: string, offset: number): string {
  const before = src.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

const hintFor = (kind: 'jq' | 'jsonpath'): string =>
  kind === 'jq' ? 'the program must compile with jq 1.8' : 'a JSONPath follows RFC 9535 (text not starting with $ is a dotted path such as items.0.name)';
