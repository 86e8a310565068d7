// Specialised transforms: where the config fixes a transform's settings, the compiler writes the
// loop a person would (known field names, checks called directly, no argument object read per
// run) instead of calling the generic transform with its arguments. Each is planned (what the
// settings fix, with its hoisted pieces) and emitted as a `(d, _args, s) => unknown` function;
// undefined keeps the generic call. Consecutive record stages of a chain are also fused into one
// loop (fuse.ts). The interpreter keeps the generic transforms; the differential and parity tests
// hold both to the same bytes.
import type { TransformIR } from '../../../runtime/ir.ts';
import type { Code } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { emitAggregate, planAggregate, type AggregatePlan } from './aggregate.ts';
import { emitFilter, planFilter, type FilterPlan } from './filter.ts';
import { emitMath, planMath, type MathPlan } from './math.ts';
import { specialiseAdd } from './add.ts';
import { specialiseGroup } from './group.ts';
import { specialiseKeep } from './keep.ts';
import { specialiseRename } from './rename.ts';

export type StagePlan = FilterPlan | MathPlan | AggregatePlan;
/** A specialised transform: its function's name, its plan (for fusion) when it has one, and the
 *  argument it takes when its values are computed per run (undefined when the settings fix all). */
export interface Specialised { name: Code; plan?: StagePlan; args?: Code }

export function specialise(e: Emitter, t: TransformIR, owner: string[]): Specialised | undefined {
  if (t.async) return undefined;
  switch (t.op) {
    case 'filter': { const p = planFilter(e, t, owner); return p && { name: emitFilter(e, p, owner), plan: p }; }
    case 'math': { const p = planMath(e, t, owner); return p && { name: emitMath(e, p, owner), plan: p }; }
    case 'aggregate': { const p = planAggregate(e, t, owner); return p && { name: emitAggregate(e, p, owner), plan: p }; }
    case 'keep_attributes': return named(specialiseKeep(e, t, owner));
    case 'rename_attributes': return named(specialiseRename(e, t, owner));
    case 'add_attribute': return specialiseAdd(e, t, owner);
    case 'group_by': return named(specialiseGroup(e, t, owner));
    default: return undefined;
  }
}

const named = (name: Code | undefined): Specialised | undefined => name && { name };
