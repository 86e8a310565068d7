// The interpreter: ConfigIR → Plan through the one walk, every leaf made a closure once, at start-up.
import type { InterfaceIR, ConfigIR } from '../config-ir.ts';
import type { Closures, InterfacePlan, Plan } from '../plan.ts';
import { walkConfig, walkInterface, type Maker } from '../walk.ts';
import { buildNode } from './expr.ts';
import { buildFn, buildTest } from './fn.ts';
import { compileBodySchema } from '../contract/schema-compile.ts';

const closures: Maker<Closures> = {
  value: (n) => buildNode(n),
  pred: (t) => buildTest(t),
  data: (f) => buildFn(f),
  line: (n) => n,
  // Compiled once, here at load; a fresh ajv each, as the compiler does (body-check.ts).
  schema: (s) => compileBodySchema(s.schema),
};

export function interpretConfig(ir: ConfigIR): Plan {
  return walkConfig(ir, closures, 'interpreted');
}

export function interpretInterface(i: InterfaceIR): InterfacePlan {
  return walkInterface(i, closures);
}
