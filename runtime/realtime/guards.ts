// Which subscriptions are guarded: a small file the bundle always keeps (index.ts is left out of
// bundles without WebSocket interfaces).
import type { Plan } from '../plan.ts';

/** Configs served together share channels: once a WebSocket interface guards its subscriptions
 *  (subscribe_authorizer), one without an authorizer would read the guarded channels. `check`
 *  refuses that within a config; this names it across configs (the start refuses it). */
export function unguardedChannels(plans: readonly Plan[]): string | undefined {
  const ws = plans.flatMap((p) => p.interfaces.filter((i) => i.ws !== undefined).map((i) => ({ p, i })));
  const guard = ws.find(({ i }) => i.subscribeAuthorizer !== undefined);
  const open = ws.find(({ i }) => i.subscribeAuthorizer === undefined);
  if (!guard || !open) return undefined;
  return `WebSocket interface ${open.p.name}.${open.i.name} has no subscribe_authorizer, but ${guard.p.name}.${guard.i.name} guards its channels (channels are shared by every WebSocket interface served): give ${open.p.name}.${open.i.name} a subscribe_authorizer`;
}
