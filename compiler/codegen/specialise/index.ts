// Specialised transforms: where the config fixes a transform's settings, the compiler writes the
// loop a person would (known field names, checks called directly, no argument object read per
// run) instead of calling the generic transform with its arguments. Each returns the name of a
// `(d, _args, s) => unknown` function, or undefined to keep the generic call. The interpreter keeps
// the generic transforms; the differential and parity tests hold both to the same bytes.
import type { TransformIR } from '../../../runtime/ir.ts';
import type { Code } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { specialiseAggregate } from './aggregate.ts';
import { specialiseFilter } from './filter.ts';
import { specialiseMath } from './math.ts';

export type Specialiser = (e: Emitter, t: TransformIR, owner: string[]) => Code | undefined;

const SPECIALISERS: Record<string, Specialiser> = { filter: specialiseFilter, math: specialiseMath, aggregate: specialiseAggregate };

export function specialise(e: Emitter, t: TransformIR, owner: string[]): Code | undefined {
  if (t.async || !Object.hasOwn(SPECIALISERS, t.op)) return undefined;
  return SPECIALISERS[t.op]!(e, t, owner);
}
