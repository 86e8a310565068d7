// Config regexes must compile on the linear-time engine (runtime/values/regex.ts): checked here with
// their position, so a backreference or lookaround is a `check` error rather than a failed run.
import { regexProblem } from '../../runtime/values/regex.ts';
import { forEachEntry } from './walk-entries.ts';
import { isObj } from './walk.ts';
import type { Report } from './report.ts';

const DISCOVER_FIELDS = new Set(['name', 'image', 'namespace']);

export function lintRegexes(config: unknown, report: Report): void {
  forEachEntry(config, ({ key, value, parent, parentKey, path }) => {
    if (typeof value !== 'string' || value.includes('a|')) return;
    const isRegex =
      key === 'regex' || // asserts, params validate, replace_values
      (key === 'find_str' && parent.regex === true) ||
      (key === 'expr' && parentKey === 'extract_with_regex') ||
      (DISCOVER_FIELDS.has(key) && (parentKey === 'include' || parentKey === 'exclude') && isObj(parent));
    if (!isRegex) return;
    const problem = regexProblem(value);
    if (problem) report('error', path, problem, undefined, 'value');
  });
}
