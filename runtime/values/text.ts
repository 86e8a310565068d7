// How a value is written into a larger string: strings as is, null/absent as nothing,
// numbers and booleans as JSON, objects and arrays as compact JSON.
export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `->default(v)`: the fallback when the value is absent or null. */
export function orDefault(value: unknown, fallback: unknown): unknown {
  return value === undefined || value === null ? fallback : value;
}

/** A whole-marker value keeps its JSON type; absence becomes null (the config is re-parsed). */
export function val(value: unknown): unknown {
  return value === undefined ? null : value;
}

/** `count(...)`: one implementation for both paths. */
export { countOf as countOfValue } from './count.ts';
