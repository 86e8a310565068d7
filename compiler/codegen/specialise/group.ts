// group_by → one pass with each element's key text built from its fields by name (no list of
// texts joined per element); the key rule (text of each value, "|" between, "null" for missing)
// is the runtime's (rt.sp.groupText, rt.sp.lookup).
import type { TransformIR } from '../../../runtime/ir.ts';
import { Code, lit } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { stringList } from './props.ts';

export function specialiseGroup(e: Emitter, t: TransformIR, owner: string[]): Code | undefined {
  const fields = stringList(t.args);
  if (!fields || fields.length === 0 || fields.some((f) => f.split('.').includes(''))) return undefined;
  const segs = fields.map((f) => e.constant(f.split('.'), ...owner, 'path').text);
  const key = segs.map((p) => `rt.sp.groupText(rt.sp.lookup(el, ${p}))`).join(` + ${lit('|')} + `);
  const name = e.names.make(...owner, 'specialised');
  e.declare(owner, 'group_by, specialised', new Code([
    `function ${name.text}(d: unknown, _a: unknown, _s: rt.Scope): unknown {`,
    `  if (!Array.isArray(d)) throw new rt.sp.TransformError(${lit('group_by: expected an array, got ')} + rt.sp.kindOf(d));`,
    '  const groups = new Map<string, unknown[]>();',
    '  for (const el of d) {',
    `    const key = ${key};`,
    '    const g = groups.get(key);',
    '    if (g) g.push(el);',
    '    else groups.set(key, [el]);',
    '  }',
    '  const out: Record<string, unknown> = {};',
    '  for (const [k, els] of groups) rt.sp.setOwn(out, k, els);',
    '  return out;',
    '}',
  ].join('\n')));
  return name;
}
