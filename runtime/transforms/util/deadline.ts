// A CPU deadline for synchronous library code run on untrusted input. Fuzzing found .xls files on
// which SheetJS loops forever (parse_Rgce never reaches its target offset); a synchronous loop
// cannot be interrupted from JavaScript, but vm's `timeout` runs a watchdog that terminates the
// running script, library frames included, and turns it into an error on this thread.
import { createContext, Script } from 'node:vm';
import { TransformError } from '../types.ts';

const sandbox = createContext({ call: null as null | (() => unknown) });
const invoke = new Script('call()');

export function withDeadline<T>(f: () => T, ms: number, what: string): T {
  sandbox.call = f;
  try {
    return invoke.runInContext(sandbox, { timeout: ms }) as T;
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new TransformError(`${what} took over ${ms / 1000} s; refused`);
    throw e;
  } finally {
    sandbox.call = null;
  }
}
