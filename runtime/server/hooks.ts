// What happens after any run finishes, whatever started it (HTTP, schedule, resume, replay):
// the config's error handler and execution capture. Neither is awaited by the caller.
import type { InterfacePlan, Plan } from '../plan.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import type { Capture } from '../capture/capture.ts';
import { ErrorHandlers } from '../exec/on-error.ts';
import type { RunResult } from '../exec/run.ts';

export interface RunHooks {
  afterRun(plan: Plan, iface: InterfacePlan, result: RunResult): void;
  readonly errorHandlers: ErrorHandlers;
}

export function runHooks(o: { env: Environment; services: Services; warn: (m: string) => void; capture?: Capture }): RunHooks {
  const errorHandlers = new ErrorHandlers(o.env, o.services, { warn: o.warn });
  return {
    errorHandlers,
    afterRun(plan, iface, result) {
      errorHandlers.afterRun(plan, iface.name, result);
      o.services.metrics?.observeRun(plan, iface, result, o.services.clock.now());
      if (o.capture && result.state.status !== 'suspended') {
        o.capture.afterRun(plan, iface, result, o.env.sensitiveValues?.() ?? []).catch((e: unknown) => o.warn(`capture: ${(e as Error).message}`));
      }
    },
  };
}
