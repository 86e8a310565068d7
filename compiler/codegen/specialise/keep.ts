// keep_attributes of top-level names → each record's kept fields copied by name into a new record
// (the generic transform rebuilds the record once per name through setPath).
import type { TransformIR } from '../../../runtime/ir.ts';
import { Code, lit, member } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { writeField } from './math.ts';
import { stringList, topLevel } from './props.ts';

export function specialiseKeep(e: Emitter, t: TransformIR, owner: string[]): Code | undefined {
  const names = stringList(t.args);
  if (!names || !topLevel(names)) return undefined;
  const name = e.names.make(...owner, 'specialised');
  const copies = names.map((f) => `    if (Object.hasOwn(rec, ${lit(f)})) ${writeField('out', f, `rec${member(f)}`)}`);
  e.declare(owner, 'keep_attributes, specialised', new Code([
    `function ${name.text}(d: unknown, _a: unknown, _s: rt.Scope): unknown {`,
    `  return rt.sp.eachRecord(d, "keep_attributes", (rec) => {`,
    '    const out: Record<string, unknown> = {};',
    ...copies,
    '    return out;',
    '  });',
    '}',
  ].join('\n')));
  return name;
}
