// The jq runtime helpers that compiled jq code calls (compiler/jq/compile.ts imports this module as `jq`).
// Behaviour and error texts follow the engine (jq-web, jq 1.7 builtins) so that the compiled fast path
// and the interpreter give identical results; see test/jq/corpus.test.ts.
export { JqError, error, errorValue, caught, fail, fallback } from './errors.ts';
export { numStr, tojson, tostring, type } from './text.ts';
export { isObject, put, truthy, not, each } from './values.ts';
export { cmp, cmpStr, eq, ne, lt, le, gt, ge } from './compare.ts';
export { add, sub, mul, div, mod, neg, negComputed } from './arith.ts';
export { field, at, idx, idxOpt, slice, sliceOpt, iter, iterOpt, key } from './access.ts';
export { split, startswith, endswith, ltrimstr, rtrimstr, asciiDowncase, asciiUpcase, explode, implode, trim, ltrim, rtrim, utf8bytelength, strindices, toboolean } from './strings.ts';
export { getpath, setpath, delpaths, pathAdd, entries, entriesOpt } from './paths.ts';
export { contains } from './contains.ts';
export { atText, atJson, atCsv, atTsv, atHtml, atUri, atSh, atBase64 } from './formats.ts';
export { isinfinite, isnan, isnormal, nan, fromjson } from './numbers.ts';
export { label, mustBreak, enter, leave } from './control.ts';
export * from './builtins.ts';
export { tonumber } from './tonumber.ts';
export { deeper } from './deeper.ts';
export { begin, tick, push } from './bounds.ts';
