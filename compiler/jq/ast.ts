// AST of the jq subset that compiler/jq/compile.ts turns into JavaScript.
// Index keys, slice bounds and call arguments are evaluated on the same input as their target (jq semantics).

export type BinOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=';

export type Node =
  | { k: 'identity' }
  | { k: 'lit'; v: null | boolean | number | string }
  | { k: 'str'; parts: (string | Node)[] } // "a\(x)b": text and interpolations (as tostring)
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
  | { k: 'reduce'; src: Node; name: string; id: number; init: Node; update: Node }; // reduce Term as $name (init; update)

export const identity: Node = { k: 'identity' };
