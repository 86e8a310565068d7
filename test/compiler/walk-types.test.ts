// The type-level guarantee of the one IR → Plan walk (runtime/walk.ts): every IR field that holds a
// leaf (an Expr/Node, a TestIR, a transform chain, a jq of data, a source `line`) is found by
// LeafKeys, and each record's walker table is typed to need exactly those fields. So an action
// field added to the IR and forgotten in the walk fails `npx tsc -p tsconfig.json --noEmit`: the
// `@ts-expect-error` lines below would themselves fail tsc if that error ever went away.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ActionIR, InterfaceIR } from '../../runtime/config-ir.ts';
import type { Expr, TestIR } from '../../runtime/ir.ts';
import type { ActionPlan, LeafKeys, Leaf, Pred } from '../../runtime/plan.ts';
import { actionWalkers, interfaceWalkers, type Walkers } from '../../runtime/walk.ts';

describe('the walk over the IR', () => {
  it('knows the leaf fields from the IR types alone', () => {
    expectTypeOf<LeafKeys<ActionIR>>().toEqualTypeOf<
      'line' | 'config' | 'input' | 'conditionalInput' | 'onAssertion' | 'assert' | 'post' | 'jsonOutput' | 'responseOnSuccess' | 'responseOnError' | 'assertStatusHint' | 'lookup' | 'actions' | 'logs'
    >();
    expectTypeOf<LeafKeys<InterfaceIR>>().toEqualTypeOf<'line' | 'params' | 'response' | 'assert' | 'actions' | 'tests' | 'log' | 'bodySchema'>();
    // The Plan is derived: the same fields, with leaves made.
    expectTypeOf<ActionPlan['input']>().toEqualTypeOf<Leaf[] | undefined>();
    expectTypeOf<NonNullable<ActionPlan['assert']>['tests']>().toEqualTypeOf<Pred[]>();
    expect(Object.keys(actionWalkers).sort()).toEqual(['actions', 'assert', 'assertStatusHint', 'conditionalInput', 'config', 'input', 'jsonOutput', 'line', 'logs', 'lookup', 'onAssertion', 'post', 'responseOnError', 'responseOnSuccess']);
  });

  it('fails the type check when a leaf field is missing from the walk', () => {
    // @ts-expect-error: `greeting` holds an Expr, so the action walker table must visit it.
    const missingValue: Walkers<ActionIR & { greeting?: Expr }> = actionWalkers;
    // @ts-expect-error: a leaf nested in a plain record (here a TestIR) counts too.
    const missingNested: Walkers<InterfaceIR & { guard?: { when: TestIR; note: string } }> = interfaceWalkers;
    // A field without leaves is copied as it is and needs no walker.
    const plainField: Walkers<ActionIR & { note?: string; limits?: { max: number } }> = actionWalkers;
    expect([missingValue, missingNested, plainField].every(Boolean)).toBe(true);
  });
});
