// AST of the jq subset that compiler/jq/compile.ts turns into JavaScript.
// Index keys, slice bounds and call arguments are evaluated on the same input as their target (jq semantics).

export type BinOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A `def`: parameters are filters; a `$name` parameter also binds the variable `var` (jq: `name as $name`). */
export interface FnDef {
  name: string;
  params: { name: string; id: number; var: number | null }[];
  body: Node;
  /** Calls itself (directly or from a def nested in it): compiled to a JS function instead of inlined. */
  recursive: boolean;
}

export type Node =
  | { k: 'identity' }
  | { k: 'lit'; v: null | boolean | number | string }
  | { k: 'str'; parts: (string | Node)[]; format?: string } // "a\(x)b": text and interpolations (tostring, or @format)
  | { k: 'index'; target: Node; key: Node; opt: boolean } // .a  .[k]  (opt: .a?)
  | { k: 'slice'; target: Node; from: Node | null; to: Node | null; opt: boolean }
  | { k: 'iter'; target: Node; opt: boolean } // .[]  .[]?
  | { k: 'try'; body: Node; handler?: Node } // exp?  try exp  try exp catch handler
  | { k: 'pipe'; l: Node; r: Node }
  | { k: 'comma'; l: Node; r: Node }
  | { k: 'neg'; e: Node }
  | { k: 'bin'; op: BinOp; l: Node; r: Node }
  | { k: 'and' | 'or' | 'alt'; l: Node; r: Node }
  | { k: 'array'; e: Node | null }
  | { k: 'object'; entries: { key: Node; value: Node }[] }
  | { k: 'if'; cond: Node; then: Node; else: Node | null }
  | { k: 'empty' }
  | { k: 'error'; msg: Node | null } // error / error(msg)
  | { k: 'call'; name: string; args: Node[] }
  | { k: 'range'; from: Node; upto: Node } // range(upto), range(from; upto): from varies slowest
  // Variables: `id` tells bindings of the same name apart (jq scopes them lexically).
  | { k: 'var'; name: string; id: number } // $name
  | { k: 'bind'; src: Node; name: string; id: number; body: Node } // Term as $name | body
  | { k: 'reduce'; src: Node; name: string; id: number; init: Node; update: Node } // reduce Term as $name (init; update)
  | { k: 'foreach'; src: Node; name: string; id: number; init: Node; update: Node; extract: Node | null }
  | { k: 'def'; fn: FnDef; rest: Node } // def f: body; rest
  | { k: 'fcall'; fn: FnDef; args: Node[] } // a call of a def
  | { k: 'param'; id: number } // a filter parameter of the enclosing def
  | { k: 'label'; id: number; body: Node } // label $name | body
  | { k: 'break'; id: number }
  | { k: 'path'; e: Node } // path(f)
  | { k: 'getpath'; p: Node } // getpath(p): a path expression too
  | { k: 'modify'; lhs: Node; f: Node } // lhs |= f (jq's _modify)
  | { k: 'assign'; lhs: Node; rhs: Node }; // lhs = rhs (jq's _assign)

export const identity: Node = { k: 'identity' };
