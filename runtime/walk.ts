// The one walk from IR to Plan. A leaf maker says what each leaf becomes: closures for the
// interpreter (runtime/interpret), code for the compiler (compiler/codegen). Each record's leaf
// fields are visited through a table typed Walkers<T>, which must name every field that
// LeafKeys<T> finds in the IR type: a leaf field added to the IR and missed here fails `tsc`
// (test/compiler/walk-types.test.ts shows it). Fields without leaves are copied as they are,
// minus the ones holding their default (absence means the default; see Defaulted in plan.ts).
import type { ActionIR, ActionResponseIR, AssertIR, ConfigIR, InterfaceIR, ParamIR, ResponseIR, SchemaIR } from './config-ir.ts';
import type { Fn, Node, TestIR } from './ir.ts';
import type { ActionPlanOf, InterfacePlanOf, LeafKeys, Lift, LiftField, Made, PlanOf } from './plan.ts';

/** Where a leaf sits in the config: interface, action, field… (names generated code and comments). */
export type Where = readonly string[];

export interface Maker<M extends Made> {
  value(n: Node, at: Where): M['value'];
  pred(t: TestIR, at: Where): M['pred'];
  data(f: Fn, at: Where): M['data'];
  line(n: number, at: Where): M['line'];
  schema(s: SchemaIR, at: Where): M['schema'];
  /** Replaces the walk of an interface (generated code embeds a disable_fastpath interface's IR). */
  interface?(i: InterfaceIR): InterfacePlanOf<M> | undefined;
}

/**
 * One entry per leaf field of T, no more, no fewer, each returning the shape the Plan type gives
 * the field (arrays, records, tuples are checked; which maker made a leaf is not, as Made's members
 * are unconstrained type parameters).
 */
export type Walkers<T> = {
  [K in Extract<LeafKeys<T>, keyof T>]-?: <M extends Made>(v: NonNullable<T[K]>, m: Maker<M>, at: Where, parent: T) => LiftField<K, NonNullable<T[K]>, M>;
};

const tests = <M extends Made>(ts: TestIR[], m: Maker<M>, at: Where) => ts.map((t, i) => m.pred(t, [...at, `test${i + 1}`]));

const assertW: Walkers<AssertIR> = {
  tests: (v, m, at) => tests(v, m, at),
  successMessage: (v, m, at) => m.value(v, [...at, 'success_message']),
  errorMessage: (v, m, at) => m.value(v, [...at, 'error_message']),
};

const actionResponseW: Walkers<ActionResponseIR> = {
  headers: (v, m, at) => m.value(v, [...at, 'headers']),
  body: (v, m, at) => m.value(v, [...at, 'body']),
};

const lookupW: Walkers<NonNullable<ActionIR['lookup']>> = {
  over: (v, m, at) => m.value(v, [...at, 'lookup']),
  inherit: (v, m, at) => m.value(v, [...at, 'lookup_inherit']),
};

const conditionalW: Walkers<NonNullable<ActionIR['conditionalInput']>[number]> = {
  input: (v, m, at) => m.value(v, [...at, 'input']),
  tests: (v, m, at) => tests(v, m, at),
};

const hintW: Walkers<NonNullable<ActionIR['assertStatusHint']>> = {
  line: (v, m, at) => m.line(v, at),
};

export const actionWalkers: Walkers<ActionIR> = {
  line: (v, m, at) => m.line(v, at),
  config: (v, m, at, a) => m.value(v, [...at, a.kind]),
  input: (v, m, at) => v.map((x, i) => m.value(x, [...at, i ? `input_fallback${i}` : 'input'])),
  conditionalInput: (v, m, at) => v.map((c, i) => walkRecord(c, conditionalW, m, [...at, `conditional_input${i + 1}`])),
  onAssertion: (v, m, at) => walkRecord(v, assertW, m, [...at, 'run_on_assertion']),
  assert: (v, m, at) => walkRecord(v, assertW, m, [...at, 'assert']),
  post: (v, m, at) => m.data({ k: 'chain', steps: v }, [...at, 'post']),
  jsonOutput: (v, m, at) => v.map(([k, f]): [string, ReturnType<typeof m.data>] => [k, m.data(f, [...at, 'json_output', k])]),
  responseOnSuccess: (v, m, at) => walkRecord(v, actionResponseW, m, [...at, 'response_on_success']),
  responseOnError: (v, m, at) => walkRecord(v, actionResponseW, m, [...at, 'response_on_error']),
  assertStatusHint: (v, m, at) => walkRecord(v, hintW, m, [...at, 'assert_status_hint']),
  lookup: (v, m, at) => walkRecord(v, lookupW, m, at),
  actions: (v, m, at) => v.map((a) => walkAction(a, m, at)),
  logs: (v, m, at) => Object.fromEntries(Object.entries(v).map(([k, n]) => [k, m.value(n!, [...at, `${k}_log`])])),
};

const paramW: Walkers<ParamIR> = {
  value: (v, m, at) => m.value(v, [...at, 'value']),
  validate: (v, m, at) => m.pred(v, [...at, 'validate']),
};

const responseW: Walkers<ResponseIR> = {
  headers: (v, m, at) => m.value(v, [...at, 'headers']),
  customBody: (v, m, at) => m.value(v, [...at, 'custom_body']),
  // `templates:` sits on the interface, beside `response:`.
  templates: (v, m, at) => Object.fromEntries(Object.entries(v).map(([k, e]) => [k, m.value(e, [...at.slice(0, -1), 'templates', k])])),
  logs: (v, m, at) => v.map((l, n) => ({ on: l.on, db: m.value(l.db, [...at, 'logs', String(n)]) })),
};

export const interfaceWalkers: Walkers<InterfaceIR> = {
  line: (v, m, at) => m.line(v, at),
  params: (v, m, at) => v.map((p) => walkRecord(p, paramW, m, [...at, 'params', p.name])),
  response: (v, m, at) => dropDefaults(walkRecord(v, responseW, m, [...at, 'response']), { showErrorDetail: false }),
  assert: (v, m, at) => walkRecord(v, assertW, m, [...at, 'assert']),
  actions: (v, m, at) => v.map((a) => walkAction(a, m, at)),
  tests: (v, m, at) => tests(v, m, at),
  log: ({ fields, ...rest }, m, at) => ({ ...rest, ...(fields ? { fields: m.value(fields, [...at, 'log', 'fields']) } : {}) }),
  bodySchema: (v, m, at) => m.schema(v, [...at, 'accepts', 'schema']),
};

const configW: Walkers<ConfigIR> = {
  interfaces: (v, m) => v.map((i) => walkInterface(i, m)),
};

export function walkConfig<M extends Made>(ir: ConfigIR, m: Maker<M>, mode: 'compiled' | 'interpreted'): PlanOf<M> {
  const out = walkRecord(ir, configW, m, []);
  if (Object.values(ir.settings.features).every(Boolean) && !ir.settings.network) delete out.settings;
  return { ...out, mode };
}

export function walkInterface<M extends Made>(i: InterfaceIR, m: Maker<M>): InterfacePlanOf<M> {
  const embedded = m.interface?.(i);
  if (embedded) return embedded;
  return dropDefaults(walkRecord(i, interfaceWalkers, m, [i.name]), { disableFastpath: false });
}

function walkAction<M extends Made>(a: ActionIR, m: Maker<M>, owner: Where): ActionPlanOf<M> {
  const out = walkRecord(a, actionWalkers, m, [...owner, a.name]);
  if (Object.keys(a.hide).length === 0) delete out.hide;
  return out;
}

/** T with its leaf fields made and every other field copied, in the IR's order. */
function walkRecord<T extends object, M extends Made>(ir: T, table: Walkers<T>, m: Maker<M>, at: Where): Lift<T, M> {
  const out: Record<string, unknown> = { ...(ir as Record<string, unknown>) };
  for (const k of Object.keys(table) as Array<keyof Walkers<T>>) {
    const v = ir[k];
    if (v !== undefined) out[k as string] = table[k](v as NonNullable<T[typeof k]>, m, at, ir);
  }
  return out as Lift<T, M>;
}

/** Leaves out the fields that hold their default (the Plan types make exactly these optional). */
function dropDefaults<R extends object>(o: R, defaults: Partial<R>): R {
  for (const [k, v] of Object.entries(defaults)) if ((o as Record<string, unknown>)[k] === v) delete (o as Record<string, unknown>)[k];
  return o;
}
