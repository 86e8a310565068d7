// rename_attributes → per record, one test per old name and one walk over its keys, no Map or Set
// built per record. The generic rule: renames apply at once to the names present (a swap works),
// keep the key's position, and a renamed value wins over an existing key of the new name; a record
// with none of the old names comes back as it is.
import type { TransformIR } from '../../../runtime/ir.ts';
import { Code, lit } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { writeField } from './math.ts';

export function specialiseRename(e: Emitter, t: TransformIR, owner: string[]): Code | undefined {
  const a = t.args;
  if (a.k !== 'lit' || a.v === null || typeof a.v !== 'object' || Array.isArray(a.v)) return undefined;
  const all = Object.entries(a.v);
  if (all.some(([, to]) => typeof to !== 'string' || to === '')) return undefined; // the generic transform reports it
  const pairs = (all as Array<[string, string]>).filter(([from, to]) => from !== to);
  const name = e.names.make(...owner, 'specialised');
  const has = pairs.map(([from], i) => `h${i} = Object.hasOwn(rec, ${lit(from)})`);
  const renamed = pairs.map(([from, to], i) => `if (k === ${lit(from)} && h${i}) { ${writeField('out', to, 'rec[k]')} }`);
  const taken = pairs.map(([, to], i) => `(h${i} && k === ${lit(to)})`);
  const body = pairs.length === 0 ? ['    return rec;'] : [
    `    const ${has.join(', ')};`,
    `    if (!(${pairs.map((_, i) => `h${i}`).join(' || ')})) return rec;`,
    '    const out: Record<string, unknown> = {};',
    '    for (const k of Object.keys(rec)) {',
    `      ${renamed.join(' else ')}`,
    `      else if (!(${taken.join(' || ')})) rt.sp.setOwn(out, k, rec[k]);`,
    '    }',
    '    return out;',
  ];
  e.declare(owner, 'rename_attributes, specialised', new Code([
    `function ${name.text}(d: unknown, _a: unknown, _s: rt.Scope): unknown {`,
    `  return rt.sp.eachRecord(d, "rename_attributes", (rec) => {`,
    ...body,
    '  });',
    '}',
  ].join('\n')));
  return name;
}
