// Managed mode (SERVICE__MANAGED_MODE=1) turns command actions off: a config that has one does not
// start, naming the action, instead of failing on its first run. (The action refuses too, for
// `pipewright run` and anything else that runs plans without this check.)
import type { ActionPlan, Plan } from '../plan.ts';
import { managedMode } from '../values/managed-mode.ts';
import { StartupError } from './startup-errors.ts';

const OFF_IN_MANAGED_MODE = new Set(['command']);

export function refuseManagedKinds(plans: readonly Plan[], env: NodeJS.ProcessEnv): void {
  if (!managedMode(env.SERVICE__MANAGED_MODE)) return;
  const visit = (plan: Plan, iface: string, actions: readonly ActionPlan[] | undefined): void => {
    for (const a of actions ?? []) {
      if (OFF_IN_MANAGED_MODE.has(a.kind)) throw new StartupError(`${plan.name}.${iface}: action "${a.name}" is a ${a.kind} action, which managed mode (SERVICE__MANAGED_MODE) turns off`);
      visit(plan, iface, a.actions);
    }
  };
  for (const p of plans) for (const i of p.interfaces) visit(p, i.name, i.actions);
}
