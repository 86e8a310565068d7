// Resolving an action's input: `input` then `input_fallbacks` (first not null), or `conditional_input`
// (the first entry whose tests all hold).
import type { ActionPlan } from '../plan.ts';
import type { Scope } from '../scope.ts';

export function resolveInput(a: ActionPlan, s: Scope): unknown {
  if (a.conditionalInput) {
    for (const c of a.conditionalInput) {
      const v = c.input(s);
      if (c.tests.every((t) => t(v, s).ok)) return v;
    }
    return undefined;
  }
  if (!a.input) return undefined;
  for (const leaf of a.input) {
    const v = leaf(s);
    // Stryker disable next-line ConditionalExpression: equivalent, a marker reads a missing value as null, never undefined
    if (v !== undefined && v !== null) return v;
  }
  return null;
}
