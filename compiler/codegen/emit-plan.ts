// ConfigIR → the `plan` literal of a generated module: static settings as literals, every leaf a
// named function declared above it. Interfaces with disable_fastpath embed their IR for the interpreter.
import type { ActionIR, AssertIR, ConfigIR, InterfaceIR } from '../../runtime/config-ir.ts';
import type { Node } from '../../runtime/ir.ts';
import { Code, _ } from './code.ts';
import type { Emitter } from './emitter.ts';
import { emitNode, jqFn } from './emit-node.ts';

type Owner = string[];

/** A leaf `(s) => value`, hoisted and named. */
function leaf(e: Emitter, n: Node, owner: Owner, line: number, what: string): Code {
  const body = emitNode(e, n, owner, line);
  if (n.k !== 'lit' && n.k !== 'ref' && n.k !== 'tmpl' && n.k !== 'obj' && n.k !== 'arr' && n.k !== 'count') return _`() => ${body}`;
  const name = e.names.make(...owner);
  const label = owner.join(' › ');
  e.declare(owner[owner.length - 1] === what ? label : `${label}: ${what}`, line, _`function ${name}(s: rt.Scope): unknown {\n  return ${body};\n}`);
  return name;
}

function assertPlan(e: Emitter, a: AssertIR, owner: Owner, line: number): Record<string, unknown> {
  return {
    tests: a.tests.map((t, i) => emitNode(e, { k: 'test', test: t }, [...owner, `test${i + 1}`], line)),
    successMessage: a.successMessage ? leaf(e, a.successMessage, [...owner, 'success_message'], line, 'success_message') : undefined,
    errorMessage: a.errorMessage ? leaf(e, a.errorMessage, [...owner, 'error_message'], line, 'error_message') : undefined,
  };
}

function actionPlan(e: Emitter, a: ActionIR, owner: Owner): Record<string, unknown> {
  const { config, input, conditionalInput, onAssertion, assert, post, jsonOutput, responseOnSuccess, responseOnError, lookup, actions, logs, ...rest } = a;
  const o = [...owner, a.name];
  const l = a.line;
  const resp = (r: typeof responseOnSuccess, what: string) => r && {
    httpCode: r.httpCode,
    headers: r.headers ? leaf(e, r.headers, [...o, what, 'headers'], l, `${what}.headers`) : undefined,
    body: r.body ? leaf(e, r.body, [...o, what, 'body'], l, `${what}.body`) : undefined,
  };
  return {
    ...rest,
    config: config ? leaf(e, config, [...o, a.kind], l, a.kind) : undefined,
    input: input?.map((x, i) => leaf(e, x, [...o, i ? `input_fallback${i}` : 'input'], l, i ? `input_fallbacks[${i - 1}]` : 'input')),
    conditionalInput: conditionalInput?.map((c, i) => ({
      input: leaf(e, c.input, [...o, `conditional_input${i + 1}`], l, 'conditional_input'),
      tests: c.tests.map((t, j) => emitNode(e, { k: 'test', test: t }, [...o, `conditional_input${i + 1}`, `test${j + 1}`], l)),
    })),
    onAssertion: onAssertion && assertPlan(e, onAssertion, [...o, 'run_on_assertion'], l),
    assert: assert && assertPlan(e, assert, [...o, 'assert'], l),
    post: post && emitNode(e, { k: 'chain', steps: post }, [...o, 'post'], l),
    jsonOutput: jsonOutput?.map(([k, src]) => [k, declared(e, [...o, 'json_output', k], l, `json_output ${k}: ${src}`, jqFn(src))]),
    responseOnSuccess: resp(responseOnSuccess, 'response_on_success'),
    responseOnError: resp(responseOnError, 'response_on_error'),
    lookup: lookup && {
      ...lookup,
      over: leaf(e, lookup.over, [...o, 'lookup'], l, 'lookup'),
      inherit: lookup.inherit ? leaf(e, lookup.inherit, [...o, 'lookup_inherit'], l, 'lookup_inherit') : undefined,
    },
    actions: actions?.map((n) => actionPlan(e, n, o)),
    logs: logs && Object.fromEntries(Object.entries(logs).map(([k, n]) => [k, leaf(e, n, [...o, `${k}_log`], l, `${k}_log`)])),
  };
}

function declared(e: Emitter, owner: Owner, line: number, note: string, fn: Code): Code {
  const name = e.names.make(...owner);
  e.declare(note, line, _`const ${name} = ${fn};`);
  return name;
}

export function interfacePlan(e: Emitter, i: InterfaceIR): Code | Record<string, unknown> {
  if (i.disableFastpath) return _`rt.interpretInterface(${i as unknown as Record<string, unknown>})`;
  const { params, response, assert, actions, tests, log, ...rest } = i;
  const o = [i.name];
  const { headers, customBody, templates, ...resp } = response;
  return {
    ...rest,
    params: params.map(({ value, validate, ...p }) => ({
      ...p,
      value: value ? leaf(e, value, [...o, 'param', p.name], i.line, `param ${p.name}`) : undefined,
      validate: validate ? emitNode(e, { k: 'test', test: validate }, [...o, 'param', p.name, 'validate'], i.line) : undefined,
    })),
    response: {
      ...resp,
      headers: headers ? leaf(e, headers, [...o, 'response', 'headers'], i.line, 'response.headers') : undefined,
      customBody: customBody ? leaf(e, customBody, [...o, 'response', 'custom_body'], i.line, 'response.custom_body') : undefined,
      templates: templates ? Object.fromEntries(Object.entries(templates).map(([k, t]) => [k, leaf(e, t, [...o, 'template', k], i.line, `templates.${k}`)])) : undefined,
    },
    assert: assert && assertPlan(e, assert, [...o, 'assert'], i.line),
    actions: actions.map((a) => actionPlan(e, a, o)),
    tests: tests?.map((t, n) => emitNode(e, { k: 'test', test: t }, [...o, `test${n + 1}`], i.line)),
    log: log && { ...log, fields: log.fields ? leaf(e, log.fields, [...o, 'log', 'fields'], i.line, 'log.fields') : undefined },
  };
}

export function planLiteral(e: Emitter, ir: ConfigIR): Code {
  const { interfaces, ...rest } = ir;
  return _`${{ ...rest, mode: 'compiled', interfaces: interfaces.map((i) => interfacePlan(e, i)) }}`;
}
