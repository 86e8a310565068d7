// ConfigIR → the `plan` literal of a generated module, through the one walk (runtime/walk.ts) with
// a leaf maker that makes code: static settings stay literals, every leaf that reads the scope is a
// named function declared above the plan, constant leaves are inlined, and every source line is a
// reference into the module's position table. Interfaces with disable_fastpath embed their IR for the interpreter.
import type { ConfigIR, InterfaceIR } from '../../runtime/config-ir.ts';
import type { Node } from '../../runtime/ir.ts';
import type { InterfacePlanOf } from '../../runtime/plan.ts';
import { walkConfig, type Maker, type Where } from '../../runtime/walk.ts';
import { Code, _ } from '../emit/code.ts';
import type { Emitter } from './emitter.ts';
import { emitFn, emitNode } from './emit-node.ts';
import { emitSchema } from './emit-schema.ts';

/** In generated code every leaf is code, and the plan literal is built from it. */
export interface CodeMade {
  value: Code;
  pred: Code;
  data: Code;
  line: Code;
  schema: Code;
}

export function planLiteral(e: Emitter, ir: ConfigIR): Code {
  return _`${walkConfig(ir, codeMaker(e), 'compiled') as unknown as Record<string, unknown>}`;
}

function codeMaker(e: Emitter): Maker<CodeMade> {
  return {
    value: (n, at) => leaf(e, n, at),
    pred: (t, at) => emitNode(e, { k: 'test', test: t }, [...at]),
    data: (f, at) => emitFn(e, f, [...at]),
    line: (n, at) => e.line(n, at),
    schema: (s, at) => emitSchema(e, s, at),
    interface: (i) => (i.disableFastpath ? embedded(e, i) : undefined),
  };
}

/** `(s) => value`: a named function when it reads the run, else the constant (or function) inline. */
function leaf(e: Emitter, n: Node, at: Where): Code {
  const body = emitNode(e, n, [...at]);
  if (!readsScope(n)) return _`() => ${body}`;
  const name = e.names.make(...at);
  e.declare(at, undefined, _`function ${name}(s: rt.Scope): unknown {\n  return ${body};\n}`);
  return name;
}

function readsScope(n: Node): boolean {
  if (n.k === 'ref' || n.k === 'tmpl' || n.k === 'count') return true;
  if (n.k === 'obj') return n.props.some(([, x]) => readsScope(x));
  if (n.k === 'arr') return n.items.some(readsScope);
  return false;
}

/** A disable_fastpath interface: its IR, interpreted at start-up; its lines too go through the table. */
function embedded(e: Emitter, i: InterfaceIR): InterfacePlanOf<CodeMade> {
  const withLines = (v: unknown, at: string[]): unknown => {
    if (Array.isArray(v)) return v.map((x, n) => withLines(x, [...at, String(n)]));
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    if (o.k === 'lit') return o; // config data: a `line` key there is the user's
    const here = typeof o.name === 'string' && at[at.length - 2] === 'actions' ? [...at.slice(0, -2), o.name] : at; // as the walk names them
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, k === 'line' && typeof x === 'number' ? e.line(x, here) : withLines(x, [...here, k])]));
  };
  // The generated module holds code here, not a plan: the runtime call builds the plan.
  return _`rt.interpretInterface(${withLines(i, [i.name]) as Record<string, unknown>})` as unknown as InterfacePlanOf<CodeMade>;
}
