// A Plan is the lowered config with its leaves made: generated code builds one directly (fast path),
// runtime/interpret builds one from the IR (interpreter). One executor runs both, and one walk
// (runtime/walk.ts) builds both: the Plan type is the IR type with every leaf replaced by what a
// leaf maker makes of it, so no field list is written twice.
import type { Scope } from './scope.ts';
import type { ActionIR, ActionResponseIR, AssertIR, ConfigIR, InterfaceIR, ParamIR, ResponseIR, SchemaIR } from './config-ir.ts';
import type { BodyCheck } from './violations.ts';
import type { Fn, Json, Node, TestIR, TransformIR } from './ir.ts';

export type Leaf<T = unknown> = (s: Scope) => T;
export type DataFn = (data: unknown, s: Scope) => unknown;

export interface TestOutcome {
  ok: boolean;
  /** Why it failed, in words a config author understands. */
  message?: string;
}
/** A Test; one whose jq may run a regex answers through a Promise (runtime/jq/pool.ts). */
export type Pred = (data: unknown, s: Scope) => TestOutcome | Promise<TestOutcome>;

/** What a leaf maker makes of each kind of IR leaf. */
export interface Made {
  /** An Expr or Node read from the scope. */
  value: unknown;
  /** A TestIR. */
  pred: unknown;
  /** A function of data: a Fn in a data position (jq of json_output) or a transform chain. */
  data: unknown;
  /** A source line (any field named `line`): a number at run time, a position-table entry in generated code. */
  line: unknown;
  /** A SchemaIR: a validator of request data. */
  schema: unknown;
}

/** The leaves at run time, whichever path made them. */
export interface Closures {
  value: Leaf;
  pred: Pred;
  data: DataFn;
  line: number;
  schema: BodyCheck;
}

/**
 * The IR type T with every leaf made by M. The rules are checked on the whole field type (not
 * distributed over unions), so a `Node` field is one value leaf even though Node contains Fn.
 */
export type Lift<T, M extends Made> = [T] extends [undefined] ? T : undefined extends T ? LiftDefined<Exclude<T, undefined>, M> | undefined : LiftDefined<T, M>;

type LiftDefined<T, M extends Made> = [T] extends [SchemaIR]
  ? M['schema']
  : [T] extends [Fn]
  ? M['data']
  : [T] extends [Node]
    ? M['value']
    : [T] extends [TestIR]
      ? M['pred']
      : [T] extends [TransformIR[]]
        ? M['data']
        : [Json] extends [T]
          ? T // fields typed Json are carried as data
          : T extends readonly unknown[]
            ? { [K in keyof T]: Lift<T[K], M> }
            : T extends object
              ? LiftRecord<T, M>
              : T;

/** A record: every field lifted, the ones that may be left out at their default made optional. */
type LiftRecord<T, M extends Made> = { [K in keyof T as K extends Defaulted ? never : K]: LiftField<K, T[K], M> } & {
  [K in keyof T as K extends Defaulted ? K : never]?: LiftField<K, T[K], M>;
};

/**
 * Fields the walk leaves out when they hold their default (runtime/walk.ts); absence means the
 * default. Each name occurs in one IR record only: ConfigIR, InterfaceIR, ResponseIR, ActionIR.
 */
type Defaulted = 'settings' | 'disableFastpath' | 'showErrorDetail' | 'hide';

/** A field named `line` is a source position; any other field is lifted by its type. */
export type LiftField<K, V, M extends Made> = K extends 'line' ? M['line'] : Lift<V, M>;

/** Brands that no IR type contains: a field whose lifted type holds one of them holds a leaf. */
interface Probe {
  value: { readonly __leaf: 'value' };
  pred: { readonly __leaf: 'pred' };
  data: { readonly __leaf: 'data' };
  line: { readonly __leaf: 'line' };
  schema: { readonly __leaf: 'schema' };
}

/** The fields of T that hold leaves (directly or nested): exactly the fields the walk must visit. */
export type LeafKeys<T> = { [K in keyof T]-?: [LiftField<K, T[K], Probe>] extends [T[K]] ? never : K }[keyof T];

export type PlanOf<M extends Made> = Lift<ConfigIR, M> & {
  /** How the leaves were made: 'compiled' (fast path) or 'interpreted'. */
  mode: 'compiled' | 'interpreted';
};
export type InterfacePlanOf<M extends Made> = Lift<InterfaceIR, M>;
export type ActionPlanOf<M extends Made> = Lift<ActionIR, M>;

export type Plan = PlanOf<Closures>;
export type InterfacePlan = InterfacePlanOf<Closures>;
export type ActionPlan = ActionPlanOf<Closures>;
export type ParamPlan = Lift<ParamIR, Closures>;
export type ResponsePlan = Lift<ResponseIR, Closures>;
export type AssertPlan = Lift<AssertIR, Closures>;
export type ActionResponsePlan = Lift<ActionResponseIR, Closures>;
