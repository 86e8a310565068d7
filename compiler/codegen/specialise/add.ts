// add_attribute of top-level names → each record copied once with the fields written by name (the
// generic transform copies the record once per name through setPath). The values arrive as the
// generic transform's do: the argument object, computed once per run at the call.
import type { TransformIR } from '../../../runtime/ir.ts';
import { Code, member } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { emitNode } from '../emit-node.ts';
import { writeField } from './math.ts';
import { entriesOf, topLevel } from './props.ts';

export function specialiseAdd(e: Emitter, t: TransformIR, owner: string[]): { name: Code; args: Code } | undefined {
  const props = entriesOf(t.args);
  if (!props || !topLevel(props.map(([k]) => k)) || new Set(props.map(([k]) => k)).size !== props.length) return undefined;
  const args = emitNode(e, t.args, owner);
  const values = props.map(([k], i) => `  const a${i} = (a as Record<string, unknown>)${member(k)};`);
  const name = e.names.make(...owner, 'specialised');
  e.declare(owner, 'add_attribute, specialised', new Code([
    `function ${name.text}(d: unknown, a: unknown, _s: rt.Scope): unknown {`,
    ...values,
    `  return rt.sp.eachRecord(d, "add_attribute", (rec) => {`,
    '    const out = rt.sp.copyRecord(rec);',
    ...props.map(([k], i) => `    ${writeField('out', k, `a${i}`)}`),
    '    return out;',
    '  });',
    '}',
  ].join('\n')));
  return { name, args };
}
