// One Interface → InterfaceIR.
import type { ActionIR, InterfaceIR, ParamIR, ResponseIR } from '../../runtime/config-ir.ts';
import { durationMs } from '../../runtime/values/duration.ts';
import type { Json } from '../../runtime/ir.ts';
import type { Action, Interface, InterfaceContract, InterfaceResponse, Param } from '../schema/config-types.ts';
import { lowerAction, type LowerCtx } from './action.ts';
import { lowerApi } from './api.ts';
import { lowerMcpTool } from './mcp.ts';
import { lowerAssert, lowerTest } from './tests.ts';
import { lowerInput, lowerValue } from './values.ts';
import { interfaceLogs } from './database.ts';
import { jsonPositions } from './positions.ts';
import { isRouted } from './routing.ts';
import { lowerNetwork } from './network.ts';

export function lowerInterface(name: string, i: Interface, cx: Omit<LowerCtx, 'defaults'> & { internal: Set<string> }): InterfaceIR {
  const at = ['interfaces', name];
  const defaults = i.defaults ?? {};
  const actions = i.actions ?? shorthand(name, i);
  const ir: InterfaceIR = {
    name,
    line: cx.lineOf(at),
    method: i.method?.toUpperCase() ?? 'GET,POST',
    route: routeOf(name, i.route),
    output: i.output ?? 'http',
    routed: isRouted(name, i as unknown as Record<string, unknown>, cx.internal),
    disableFastpath: i.disable_fastpath === true,
    params: params(i.params),
    response: response(i.response ?? {}, i),
    actions: actions.map((a, n) => lowerAction(a, [...at, i.actions ? 'actions' : i.url !== undefined ? 'url' : 'query', ...(i.actions ? [n] : [])], n, { ...cx, defaults })),
  };
  const logs = interfaceLogs(i.response?.logs, [...at, 'response', 'logs'], cx.databases);
  if (logs) ir.response.logs = logs;
  const asserted = lowerAssert(i.assert);
  if (asserted) ir.assert = asserted;
  if (i.schedule !== undefined) ir.schedule = json(i.schedule);
  if (i.capture !== undefined) ir.capture = json(i.capture);
  if (i.public === true) ir.public = true;
  if (i.silence === true) ir.silence = true;
  const waits = waitsOf(ir.actions);
  if (waits) ir.waits = waits;
  const network = lowerNetwork(i.network, [...at, 'network']);
  if (network) ir.network = network;
  if (typeof i.mqtt === 'string') ir.mqtt = i.mqtt;
  if (i.ws !== undefined && i.ws !== false) ir.ws = String(i.ws);
  if (typeof i.subscribe_authorizer === 'string') ir.subscribeAuthorizer = i.subscribe_authorizer;
  const accepts = contract(i.accepts, i.request_example);
  if (accepts) ir.accepts = accepts;
  // The schema the author wrote gates the body; what the asserts imply only documents it (api.body):
  // asserts answer their own failures with their own messages (docs/decisions.md).
  if (accepts?.schema !== undefined) ir.bodySchema = { k: 'schema', schema: accepts.schema };
  const produces = contract(i.produces, i.response_example);
  if (produces) ir.produces = produces;
  if (i.tests) ir.tests = i.tests.map(lowerTest);
  const log = i.log;
  if (log) {
    ir.log = { enabled: log.enabled !== false, ...(typeof log.level === 'string' ? { level: log.level } : {}), ...(log.fields !== undefined ? { fields: lowerValue(log.fields) } : {}) };
  }
  const mcp = lowerMcpTool(name, i as unknown as Record<string, unknown>);
  if (mcp) ir.mcp = mcp;
  const api = lowerApi(i as unknown as Record<string, unknown>, ir);
  if (api) ir.api = api;
  return ir;
}

/** A callback wait, and the longest literal delay, among the interface's own actions (a lookup
 *  item's wait never suspends the run: it fails the item, store or not). */
function waitsOf(actions: ActionIR[]): InterfaceIR['waits'] {
  let out: InterfaceIR['waits'];
  for (const a of actions) {
    if (a.kind === 'wait_for_callback') (out ??= {}).callback = true;
    if (a.kind === 'delay' && a.config?.k === 'lit') {
      let ms: number | undefined;
      try { ms = durationMs(a.config.v); } catch { ms = undefined; } // refused when it runs
      if (ms !== undefined && ms > (out?.delayMs ?? 0)) (out ??= {}).delayMs = ms;
    }
  }
  return out;
}

/** Settings carried into the IR as data: a value parsed from YAML is JSON. */
const json = (v: unknown): Json => v as Json;

/** `url:` on the interface is a one-action interface whose data is the response. */
function shorthand(name: string, i: Interface): Action[] {
  if (i.url !== undefined) return [{ name, url: i.url, output: 'http' }];
  if (i.query !== undefined) return [{ name, query: i.query, ...(i.conn_string ? { conn_string: i.conn_string } : {}), output: 'http' }];
  return [];
}

function routeOf(name: string, route: string | undefined): string {
  const r = route ? route : name;
  return r.startsWith('/') ? r : `/${r}`;
}

function params(p: Record<string, Param> | undefined): ParamIR[] {
  return Object.entries(p ?? {}).map(([name, d]) => {
    const out: ParamIR = { name };
    if (d.value !== undefined) out.value = lowerInput(d.value);
    if (d.default_value !== undefined) out.default = String(d.default_value);
    if (d.error_message !== undefined) out.errorMessage = d.error_message;
    if (d.validate) out.validate = lowerTest(d.validate);
    return out;
  });
}

function response(r: InterfaceResponse, i: Interface): ResponseIR {
  const out: ResponseIR = { showErrorDetail: i.show_error_detail === true };
  if (r.http_code_on_error !== undefined) out.httpCodeOnError = r.http_code_on_error;
  if (r.http_code_inherit_error) out.inheritError = r.http_code_inherit_error;
  if (r.headers) out.headers = lowerValue(r.headers);
  if (r.custom_body !== undefined) out.customBody = jsonPositions(lowerValue(r.custom_body));
  if (r.http_code_fallback !== undefined) out.fallback = r.http_code_fallback;
  if (r.http_code_fallback_strategy !== undefined) out.fallbackStrategy = r.http_code_fallback_strategy;
  if (i.templates) out.templates = Object.fromEntries(Object.entries(i.templates).map(([k, v]) => [k, jsonPositions(lowerValue(v))]));
  return out;
}

function contract(c: InterfaceContract | undefined, legacy: unknown): { schema?: Json; example?: Json } | undefined {
  const example = c?.example !== undefined ? c.example : legacy;
  if (c?.schema === undefined && example === undefined) return undefined;
  return { ...(c?.schema !== undefined ? { schema: json(c.schema) } : {}), ...(example !== undefined ? { example: json(example) } : {}) };
}
