// The contract of a transform: its spec (how the compiler lowers its config) is a row of
// runtime/transforms/specs.ts; its file under runtime/transforms/ exports `run` (its semantics, shared by both paths).
import type { Scope } from '../scope.ts';

/**
 * How the compiler turns a field of the transform's config into a runtime argument:
 * - 'value'    : plain data; markers inside are interpolated per run (the default for every field)
 * - 'literal'  : plain data, markers NOT interpolated (e.g. regex text)
 * - 'jq'       : jq program text            -> (data) => unknown   (one output as is, several as array, none null)
 * - 'jsonpath' : JSONPath or dotted path    -> (data) => unknown[] (all matches; dotted path gives 0 or 1)
 * - 'places'   : JSONPath or dotted path    -> (data) => Place[] (all matches with their locations; a `target`)
 * - 'path'     : dotted or JSONPath         -> (data) => unknown   (first match or undefined)
 * - 'test'     : a Test object              -> Pred
 * - 'tests'    : map of field path -> Test  -> Array<[path getter, Pred]> as [(data)=>unknown, Pred][]
 * - 'calcs'    : map of name -> expression  -> Array<[name, (target) => unknown]>
 * - 'chains'   : map of key -> Transform[]  -> Array<[key, (data, scope) => unknown]>
 */
export type FieldKind = 'value' | 'literal' | 'jq' | 'jsonpath' | 'places' | 'path' | 'test' | 'tests' | 'calcs' | 'chains';

export interface TransformSpec {
  /** Kind of the whole config when it is not an object (e.g. extract_with_jq: "…" is 'jq'). */
  self?: FieldKind;
  /** Kinds of the object's fields; unnamed fields are 'value'. */
  fields?: Record<string, FieldKind>;
  /** `run` returns a Promise (e.g. parse_pdf): chains containing it are awaited. */
  async?: boolean;
}

/** Thrown for a clean action failure (never a crash): the message is shown to the config author. */
export class TransformError extends Error {
  override name = 'TransformError';
}

export type TransformRun<A = any> = (data: unknown, args: A, s: Scope) => unknown;
