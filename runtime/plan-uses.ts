// Which optional surfaces a set of plans needs, read from the plans themselves (nested lookup
// actions included): the server starts a broker, a bus or a route only for configs that use it.
import type { InterfacePlan, Plan } from './plan.ts';

function hasKind(actions: InterfacePlan['actions'], kind: string): boolean {
  return actions.some((a) => a.kind === kind || (a.actions ? hasKind(a.actions, kind) : false));
}

/** An interface that is triggered by `field` or an action of `kind` anywhere in `plans`. */
export const plansUse = (plans: readonly Plan[], field: 'ws' | 'mqtt', kind: string): boolean =>
  plans.some((p) => p.interfaces.some((i) => i[field] !== undefined || hasKind(i.actions, kind)));
