// The one reference-root table: a marker's root → the runtime operation that reads it, with that
// operation's arguments after the scope. The interpreter calls the operation (runtime/interpret/
// expr.ts); generated code emits a call to the same operation by name, `rt.<op>(s, …)`.
import type { Ref, RefRoot } from '../ir.ts';
import type { Scope } from '../scope.ts';
import * as refs from './refs.ts';

export const rootOps = {
  body: refs.body,
  rawBody: refs.rawBody,
  params: refs.params,
  param: refs.param,
  headers: refs.headers,
  header: refs.header,
  step: refs.step,
  state: refs.state,
  secret: refs.secret,
  variable: refs.variable,
  envVar: refs.envVar,
  secretData: refs.secretData,
  variableData: refs.variableData,
  envVarData: refs.envVarData,
  uuid: refs.uuid,
} as const;
export type RootOp = keyof typeof rootOps;

/** A root operation called with the scope and string arguments (what rootCall gives it). */
export type RootFn = (s: Scope, ...args: string[]) => unknown;

type Call = [RootOp, ...string[]];

const roots: Record<RefRoot, (r: Ref) => Call> = {
  body: () => ['body'],
  raw_body: () => ['rawBody'],
  params: (r) => (r.name === undefined ? ['params'] : ['param', r.name]),
  headers: (r) => (r.name === undefined ? ['headers'] : ['header', r.name]),
  action: (r) => ['step', r.name ?? '', r.part ?? 'data'],
  state: (r) => ['state', r.name ?? ''],
  secret: (r) => [r.json ? 'secretData' : 'secret', r.name ?? ''],
  ap_secret: (r) => [r.json ? 'secretData' : 'secret', r.name ?? ''],
  var: (r) => [r.json ? 'variableData' : 'variable', r.name ?? ''],
  ap_var: (r) => [r.json ? 'variableData' : 'variable', r.name ?? ''],
  env: (r) => [r.json ? 'envVarData' : 'envVar', r.name ?? ''],
  uuid: () => ['uuid'],
};

/** The operation a marker's root reads through, and its arguments after the scope. */
export function rootCall(r: Ref): Call {
  return roots[r.root](r);
}
