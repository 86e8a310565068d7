// A Plan is the lowered config with its leaves turned into functions: generated code builds one
// directly (fast path), runtime/interpret builds one from the IR (interpreter). One executor runs both.
import type { Scope } from './scope.ts';
import type { ActionIR, ConfigIR, InterfaceIR, InterfaceLogIR, LogPhase, ParamIR, ResponseIR } from './config-ir.ts';

export type Leaf<T = unknown> = (s: Scope) => T;
export type DataFn = (data: unknown, s: Scope) => unknown;

export interface TestOutcome {
  ok: boolean;
  /** Why it failed, in words a config author understands. */
  message?: string;
}
export type Pred = (data: unknown, s: Scope) => TestOutcome;

export interface AssertPlan {
  tests: Pred[];
  successMessage?: Leaf<unknown>;
  errorMessage?: Leaf<unknown>;
}

export interface ActionResponsePlan {
  httpCode?: number;
  headers?: Leaf<unknown>;
  body?: Leaf<unknown>;
}

type Static<T, K extends keyof T> = Omit<T, K>;

export interface ActionPlan
  extends Static<
    ActionIR,
    'config' | 'input' | 'conditionalInput' | 'onAssertion' | 'assert' | 'post' | 'jsonOutput' | 'responseOnSuccess' | 'responseOnError' | 'lookup' | 'actions' | 'logs'
  > {
  logs?: Partial<Record<LogPhase, Leaf<unknown>>>;
  config?: Leaf<unknown>;
  input?: Leaf<unknown>[];
  conditionalInput?: Array<{ input: Leaf<unknown>; tests: Pred[] }>;
  onAssertion?: AssertPlan;
  assert?: AssertPlan;
  post?: DataFn;
  jsonOutput?: Array<[string, DataFn]>;
  responseOnSuccess?: ActionResponsePlan;
  responseOnError?: ActionResponsePlan;
  lookup?: Omit<NonNullable<ActionIR['lookup']>, 'over' | 'inherit'> & { over: Leaf<unknown>; inherit?: Leaf<unknown> };
  actions?: ActionPlan[];
}

export interface ParamPlan extends Omit<ParamIR, 'value' | 'validate'> {
  value?: Leaf<unknown>;
  validate?: Pred;
}

export interface ResponsePlan extends Omit<ResponseIR, 'headers' | 'customBody' | 'templates'> {
  headers?: Leaf<unknown>;
  customBody?: Leaf<unknown>;
  templates?: Record<string, Leaf<unknown>>;
}

export interface InterfacePlan extends Omit<InterfaceIR, 'params' | 'response' | 'assert' | 'actions' | 'tests' | 'log'> {
  log?: Omit<InterfaceLogIR, 'fields'> & { fields?: Leaf<unknown> };
  params: ParamPlan[];
  response: ResponsePlan;
  assert?: AssertPlan;
  actions: ActionPlan[];
  tests?: Pred[];
}

export interface Plan extends Omit<ConfigIR, 'interfaces'> {
  interfaces: InterfacePlan[];
  /** How the leaves were made: 'compiled' (fast path) or 'interpreted'. */
  mode: 'compiled' | 'interpreted';
}
