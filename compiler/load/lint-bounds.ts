// Durations above their bound (runtime/values/bounds.ts): `timeout: 30d` on an action, a retry
// delay of a year. Counts are bounded by the schema's maximums; durations need parsing first.
import { DURATION_LIMITS, durationProblem, type BoundedField } from '../../runtime/values/bounds.ts';
import { forEachEntry } from './walk-entries.ts';
import type { Report } from './report.ts';

export function lintBounds(config: unknown, report: Report): void {
  forEachEntry(config, ({ key, value, parentKey, path }) => {
    // A marker is checked when it resolves; the AI `timeout` is a number of seconds (schema bound).
    if (!(key in DURATION_LIMITS) || (typeof value === 'string' && value.includes('a|')) || parentKey === 'agent') return;
    if (typeof value !== 'string' && typeof value !== 'number') return;
    const field: BoundedField = parentKey === 'wait_for_callback' && key === 'timeout' ? 'wait_timeout' : (key as BoundedField);
    const problem = durationProblem(value, field);
    // A malformed duration is the schema's error; only a well-formed one that is too long is ours.
    if (problem && !problem.startsWith('invalid duration')) report('error', path, problem, 'a longer wait is a mistake or needs a schedule; see "Limits" in docs/guide.md', 'value');
  });
}
