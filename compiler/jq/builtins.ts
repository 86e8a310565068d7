// jq builtins the compiler supports: which runtime helper implements each, or how it desugars
// (following the definitions in jq's builtin.jq, so that errors and edge cases match).
import { identity, type Node } from './ast.ts';

/** `name` of arity 0: `jq.<helper>(input)`. */
export const UNARY: Record<string, string> = {
  length: 'length', keys: 'keys', keys_unsorted: 'keysUnsorted', add: 'sum', to_entries: 'toEntries',
  from_entries: 'fromEntries', sort: 'sort', unique: 'unique', min: 'min', max: 'max', reverse: 'reverse',
  tostring: 'tostring', tonumber: 'tonumber', type: 'type', not: 'not', tojson: 'tojson',
  ascii_downcase: 'asciiDowncase', ascii_upcase: 'asciiUpcase', floor: 'floor', ceil: 'ceil', round: 'round',
  sqrt: 'sqrt', fabs: 'fabs', any: 'any', all: 'all',
  explode: 'explode', implode: 'implode', trim: 'trim', ltrim: 'ltrim', rtrim: 'rtrim', utf8bytelength: 'utf8bytelength',
  toboolean: 'toboolean', isinfinite: 'isinfinite', isnan: 'isnan', isnormal: 'isnormal', nan: 'nan', fromjson: 'fromjson',
  '@text': 'atText', '@json': 'atJson', '@csv': 'atCsv', '@tsv': 'atTsv', '@html': 'atHtml', '@uri': 'atUri', '@sh': 'atSh',
  '@base64': 'atBase64',
};

/** The @formats compiled (others, such as @base64d, are left to the engine). */
export const FORMATS: Record<string, string> = Object.fromEntries(
  Object.entries(UNARY).filter(([k]) => k.startsWith('@')).map(([k, v]) => [k.slice(1), v]),
);

/**
 * `name(x; ...)` (by `name/arity`) whose arguments are values: `jq.<helper>(input, x, ...)` for each
 * combination of their outputs, the first argument varying slowest.
 */
export const WITH_VALUE: Record<string, string> = {
  'has/1': 'has', 'startswith/1': 'startswith', 'endswith/1': 'endswith', 'ltrimstr/1': 'ltrimstr', 'rtrimstr/1': 'rtrimstr',
  'split/1': 'split', 'join/1': 'join', 'contains/1': 'contains', '_strindices/1': 'strindices', 'delpaths/1': 'delpaths',
  'setpath/2': 'setpath',
};

/** `name(f)` whose argument is a filter run per element: `jq.<helper>(input, fn)`. */
export const WITH_FILTER: Record<string, { helper: string; fn: 'keys' | 'first' | 'any' | 'all' }> = {
  sort_by: { helper: 'sortBy', fn: 'keys' },
  group_by: { helper: 'groupBy', fn: 'keys' },
  unique_by: { helper: 'uniqueBy', fn: 'keys' },
  min_by: { helper: 'minBy', fn: 'keys' },
  max_by: { helper: 'maxBy', fn: 'keys' },
  map_values: { helper: 'mapValues', fn: 'first' },
  any: { helper: 'anyBy', fn: 'any' },
  all: { helper: 'allBy', fn: 'all' },
};

const lit = (v: null | boolean | number | string): Node => ({ k: 'lit', v });
const call = (name: string, args: Node[] = []): Node => ({ k: 'call', name, args });
const select = (cond: Node): Node => ({ k: 'if', cond, then: identity, else: { k: 'empty' } });
const typeIs = (t: string): Node => ({ k: 'bin', op: '==', l: call('type'), r: lit(t) });
const map = (f: Node): Node => ({ k: 'array', e: { k: 'pipe', l: { k: 'iter', target: identity, opt: false }, r: f } });

const SELECTORS: Record<string, Node> = {
  values: { k: 'bin', op: '!=', l: identity, r: lit(null) },
  nulls: { k: 'bin', op: '==', l: identity, r: lit(null) },
  booleans: typeIs('boolean'),
  numbers: typeIs('number'),
  strings: typeIs('string'),
  arrays: typeIs('array'),
  objects: typeIs('object'),
  iterables: { k: 'or', l: typeIs('array'), r: typeIs('object') },
  scalars: { k: 'and', l: { k: 'bin', op: '!=', l: call('type'), r: lit('array') }, r: { k: 'bin', op: '!=', l: call('type'), r: lit('object') } },
};

/** The AST for a call of a supported builtin, or null. */
export function builtin(name: string, args: Node[]): Node | null {
  const n = args.length;
  if (n === 0) {
    if (UNARY[name]) return call(name);
    if (SELECTORS[name]) return select(SELECTORS[name]);
    switch (name) {
      case 'empty': return { k: 'empty' };
      case 'error': return { k: 'error', msg: null };
      case 'first': return { k: 'index', target: identity, key: lit(0), opt: false };
      case 'last': return { k: 'index', target: identity, key: lit(-1), opt: false };
      case 'have_decnum': case 'have_literal_numbers': return lit(true); // the engine is built with decNumber
      case 'abs': return { k: 'if', cond: { k: 'bin', op: '<', l: identity, r: lit(0) }, then: { k: 'neg', e: identity }, else: identity };
    }
    return null;
  }
  if (name === 'range' && n === 2) return { k: 'range', from: args[0], upto: args[1] };
  if (WITH_VALUE[`${name}/${n}`]) return call(name, args);
  if (n !== 1) return null;
  const [f] = args;
  if (WITH_FILTER[name]) return call(name, args);
  switch (name) {
    case 'select': return select(f);
    case 'map': return map(f);
    case 'with_entries': return { k: 'pipe', l: call('to_entries'), r: { k: 'pipe', l: map(f), r: call('from_entries') } };
    case 'error': return { k: 'error', msg: f };
    case 'range': return { k: 'range', from: lit(0), upto: f }; // def range($x): range(0; $x);
    case 'path': return { k: 'path', e: f };
    case 'getpath': return { k: 'getpath', p: f };
  }
  return null;
}
