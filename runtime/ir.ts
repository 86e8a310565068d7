// The IR: a config lowered to plain JSON. It is the one contract between the compiler and the
// runtime. The compiler emits TypeScript from it (the fast path); runtime/interpret builds closures
// from it (the interpreter). Both call the same runtime operations, so they cannot drift apart.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Where a marker reads from. See docs/interpolation.md for the grammar. */
export type RefRoot =
  | 'body'
  | 'raw_body'
  | 'params'
  | 'headers'
  | 'action'
  | 'state'
  | 'secret'
  | 'ap_secret'
  | 'var'
  | 'ap_var'
  | 'env'
  | 'uuid';

/** A parsed marker such as `a|Fetch::body.items->0->default(null)|`. */
export interface Ref {
  root: RefRoot;
  /** params::<name>, header::<Name>, the action name, state/secret/var/env key. */
  name?: string;
  /** For `action`: which part of the action's record (`data` unless ::status, ::headers, ::body). */
  part?: 'data' | 'status' | 'headers' | 'body';
  /** Path inside the selected value (from `::a.b` and `->a->b`). */
  path: Array<string | number>;
  /** `->default(v)`: used when the value is undefined or null. */
  default?: Json;
  /** The marker as written, for messages. */
  src: string;
  /** Inside a template: how the value is encoded for where it lands (runtime/values/escape.ts). */
  esc?: Esc;
  /** A whole-value secret/var/env marker in a field that takes structured data: text that is a JSON
   *  object or array becomes that value (spec: "A config is re-parsed after interpolation"). */
  json?: true;
}

/** A URL path segment, query name or value, fragment; inside a JSON string; a JSON value; one MQTT topic level. */
export type Esc = 'base' | 'segment' | 'query' | 'fragment' | 'json-string' | 'json' | 'topic-level';

/** A value computed from the run's scope. */
export type Expr =
  | { k: 'lit'; v: Json }
  | { k: 'ref'; ref: Ref } // a string that is exactly one marker: keeps the value's JSON type
  | { k: 'tmpl'; parts: Array<string | Ref> } // a string with markers inside: always a string
  | { k: 'obj'; props: Array<[string, Node]> }
  | { k: 'arr'; items: Node[] }
  | { k: 'count'; of: Expr }; // count(<expr>): the length of an array, string or object

/** A function `(data, scope) => …` precompiled from a config string (most ignore the scope). */
export type Fn =
  | { k: 'jq'; src: string } // (data) => value (one output as is; several as an array; none as null)
  | { k: 'jsonpath'; src: string; first?: boolean } // (data) => array of matches (or the first match)
  | { k: 'places'; src: string } // (data) => array of matches with their locations (runtime/jsonpath/query.ts Place)
  | { k: 'path'; src: string; segs: Array<string | number> } // dotted path: (data) => value
  | { k: 'calc'; src: string } // math expression over `target.` fields: (target) => value
  | { k: 'test'; test: TestIR } // (data, scope) => TestResult
  | { k: 'chain'; steps: TransformIR[] }; // (data, scope) => data

export type Node = Expr | Fn;

/** One Test object: a subject and one or more checks, all of which must hold. */
export interface TestIR {
  /** Where the value under test comes from; absent = the data the test is applied to. */
  value?: Expr;
  jq?: string;
  /** Path applied to the data (filter conditions, `json_path`). */
  path?: Array<string | number>;
  checks: Array<{ op: string; arg: Node }>;
  /** The Test as written, for messages. */
  src: string;
}

export interface TransformIR {
  op: string;
  args: Node;
  line: number;
  /** Its run returns a Promise (spec.async, or it runs a nested chain that does): callers await it. */
  async?: boolean;
}
