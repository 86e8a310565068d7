// The interpreter: ConfigIR → Plan, by turning every node into a closure once, at start-up.
import type { ActionIR, AssertIR, ConfigIR, InterfaceIR } from '../config-ir.ts';
import type { ActionPlan, AssertPlan, InterfacePlan, Plan } from '../plan.ts';
import { jqAll } from '../jq/engine.ts';
import { jqValue } from '../values/jq-value.ts';
import { buildNode } from './expr.ts';
import { buildFn, buildTest } from './fn.ts';

export function interpretConfig(ir: ConfigIR): Plan {
  return { ...ir, mode: 'interpreted', interfaces: ir.interfaces.map(interpretInterface) };
}

export function interpretInterface(i: InterfaceIR): InterfacePlan {
  const { params, response, assert, actions, tests, log, ...rest } = i;
  const { headers, customBody, templates, ...resp } = response;
  const plan: InterfacePlan = {
    ...rest,
    params: params.map(({ value, validate, ...p }) => ({ ...p, ...(value ? { value: buildNode(value) } : {}), ...(validate ? { validate: buildTest(validate) } : {}) })),
    response: {
      ...resp,
      ...(headers ? { headers: buildNode(headers) } : {}),
      ...(customBody ? { customBody: buildNode(customBody) } : {}),
      ...(templates ? { templates: Object.fromEntries(Object.entries(templates).map(([k, e]) => [k, buildNode(e)])) } : {}),
    },
    actions: actions.map(interpretAction),
  };
  if (assert) plan.assert = interpretAssert(assert);
  if (tests) plan.tests = tests.map(buildTest);
  if (log) plan.log = { enabled: log.enabled, ...(log.level ? { level: log.level } : {}), ...(log.fields ? { fields: buildNode(log.fields) } : {}) };
  return plan;
}

function interpretAssert(a: AssertIR): AssertPlan {
  return {
    tests: a.tests.map(buildTest),
    ...(a.successMessage ? { successMessage: buildNode(a.successMessage) } : {}),
    ...(a.errorMessage ? { errorMessage: buildNode(a.errorMessage) } : {}),
  };
}

export function interpretAction(a: ActionIR): ActionPlan {
  const { config, input, conditionalInput, onAssertion, assert, post, jsonOutput, responseOnSuccess, responseOnError, lookup, actions, logs, ...rest } = a;
  const p: ActionPlan = { ...rest };
  if (logs) p.logs = Object.fromEntries(Object.entries(logs).map(([k, n]) => [k, buildNode(n)]));
  if (config) p.config = buildNode(config);
  if (input) p.input = input.map(buildNode);
  if (conditionalInput) p.conditionalInput = conditionalInput.map((c) => ({ input: buildNode(c.input), tests: c.tests.map(buildTest) }));
  if (onAssertion) p.onAssertion = interpretAssert(onAssertion);
  if (assert) p.assert = interpretAssert(assert);
  if (post) p.post = buildFn({ k: 'chain', steps: post });
  if (jsonOutput) p.jsonOutput = jsonOutput.map(([k, src]) => [k, (d: unknown) => jqValue(jqAll(src, d))]);
  for (const [key, r] of [['responseOnSuccess', responseOnSuccess], ['responseOnError', responseOnError]] as const) {
    if (r) p[key] = { ...(r.httpCode !== undefined ? { httpCode: r.httpCode } : {}), ...(r.headers ? { headers: buildNode(r.headers) } : {}), ...(r.body ? { body: buildNode(r.body) } : {}) };
  }
  if (lookup) {
    const { over, inherit, ...rest } = lookup;
    p.lookup = { ...rest, over: buildNode(over), ...(inherit ? { inherit: buildNode(inherit) } : {}) };
  }
  if (actions) p.actions = actions.map(interpretAction);
  return p;
}
