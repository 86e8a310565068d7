// What happens after any run finishes or suspends, whatever started it (HTTP, schedule, resume,
// replay): its log line (unless its HTTP request's line stands for it), the config's error handler,
// the run's record (redacted when written or read; GET /_ap/runs/<id>) and execution capture. None
// is awaited by the caller.
import type { InterfacePlan, Plan } from '../plan.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import type { Capture } from '../capture/capture.ts';
import { ErrorHandlers } from '../exec/on-error.ts';
import type { RunResult } from '../exec/run.ts';
import { writeInterfaceLogs } from './interface-log.ts';
import { redactorOf } from '../values/redact.ts';
import { finishedRecord, keptFinished } from './run-record.ts';
import { logRunLine } from '../log/run-lines.ts';

export interface RunHooks {
  afterRun(plan: Plan, iface: InterfacePlan, result: RunResult): void;
  readonly errorHandlers: ErrorHandlers;
}

export function runHooks(o: { env: Environment; services: Services; warn: (m: string) => void; capture?: Capture }): RunHooks {
  const errorHandlers = new ErrorHandlers(o.env, o.services, { warn: o.warn });
  // Made once, not per run: the capture reads the secrets only for a run it keeps.
  const secretsSeen = () => o.env.sensitiveValues?.() ?? [];
  return {
    errorHandlers,
    afterRun(plan, iface, result) {
      if (!result.requestLine) logRunLine(o.services.log, result, o.services.clock.now());
      errorHandlers.afterRun(plan, iface, result);
      if (iface.response.logs) writeInterfaceLogs(plan, iface, result, o.env, o.services.clock.now()).catch((e: unknown) => o.warn(`response.logs of ${plan.name}.${iface.name}: ${(e as Error).message}`));
      const st = result.state;
      // A resumed run's record is written whole by the resumer; a suspended one is in the store
      // already; a run that gave its caller a success at once is not kept (keptFinished).
      if (o.services.store && st.status !== 'suspended' && !result.recorded && keptFinished(result)) {
        const r = finishedRecord(result, redactorOf(o.env));
        const store = o.services.store;
        // A store that keeps records in this process keeps them at once: no promise per request.
        if (!store.keepFinished?.(r.state, r.json)) store.saveRun(r.state, r.json).catch((e: unknown) => o.warn(`run record ${st.id}: ${(e as Error).message}`));
      }
      // Duck-typed so that a bundle without metrics does not carry prom-client for this check.
      (o.services.metrics as { observeRun?: (p: Plan, i: InterfacePlan, r: RunResult, now: number) => void } | undefined)?.observeRun?.(plan, iface, result, o.services.clock.now());
      if (o.capture && result.state.status !== 'suspended') {
        o.capture.afterRun(plan, iface, result, secretsSeen)?.catch((e: unknown) => o.warn(`capture: ${(e as Error).message}`));
      }
    },
  };
}
