// One Interface → InterfaceIR.
import type { InterfaceIR, ParamIR, ResponseIR } from '../../runtime/config-ir.ts';
import type { Json } from '../../runtime/ir.ts';
import { lowerAction, type LowerCtx } from './action.ts';
import { lowerApi } from './api.ts';
import { lowerMcpTool } from './mcp.ts';
import { lowerAssert, lowerTest } from './tests.ts';
import { lowerInput, lowerValue } from './values.ts';

type Obj = Record<string, unknown>;

export function lowerInterface(name: string, i: Obj, cx: Omit<LowerCtx, 'defaults'>): InterfaceIR {
  const at = ['interfaces', name];
  const defaults = (i.defaults as Obj) ?? {};
  const actions = Array.isArray(i.actions) ? (i.actions as Obj[]) : shorthand(name, i);
  const ir: InterfaceIR = {
    name,
    line: cx.lineOf(at),
    method: typeof i.method === 'string' ? i.method.toUpperCase() : 'GET,POST',
    route: routeOf(name, i.route),
    output: (i.output as InterfaceIR['output']) ?? 'http',
    disableFastpath: i.disable_fastpath === true,
    params: params(i.params as Obj | undefined),
    response: response((i.response as Obj) ?? {}, i),
    actions: actions.map((a, n) => lowerAction(a, [...at, Array.isArray(i.actions) ? 'actions' : 'url', ...(Array.isArray(i.actions) ? [n] : [])], n, { ...cx, defaults })),
  };
  const asserted = lowerAssert(i.assert);
  if (asserted) ir.assert = asserted;
  for (const key of ['schedule', 'capture'] as const) if (i[key] !== undefined) ir[key] = i[key] as Json;
  if (typeof i.mqtt === 'string') ir.mqtt = i.mqtt;
  if (i.ws !== undefined && i.ws !== false) ir.ws = String(i.ws);
  if (i.public === true) ir.public = true;
  if (typeof i.subscribe_authorizer === 'string') ir.subscribeAuthorizer = i.subscribe_authorizer;
  const accepts = contract(i.accepts, i.request_example);
  if (accepts) ir.accepts = accepts;
  const produces = contract(i.produces, i.response_example);
  if (produces) ir.produces = produces;
  if (Array.isArray(i.tests)) ir.tests = (i.tests as Obj[]).map(lowerTest);
  const mcp = lowerMcpTool(name, i);
  if (mcp) ir.mcp = mcp;
  const api = lowerApi(i, ir);
  if (api) ir.api = api;
  return ir;
}

/** `url:` on the interface is a one-action interface whose data is the response. */
function shorthand(name: string, i: Obj): Obj[] {
  if (i.url !== undefined) return [{ name, url: i.url, output: 'http' }];
  if (i.query !== undefined) return [{ name, query: i.query, ...(i.conn_string ? { conn_string: i.conn_string } : {}), output: 'http' }];
  return [];
}

function routeOf(name: string, route: unknown): string {
  const r = typeof route === 'string' && route !== '' ? route : name;
  return r.startsWith('/') ? r : `/${r}`;
}

function params(p: Obj | undefined): ParamIR[] {
  if (!p) return [];
  return Object.entries(p).map(([name, raw]) => {
    const d = (raw ?? {}) as Obj;
    const out: ParamIR = { name };
    if (d.value !== undefined) out.value = lowerInput(d.value);
    if (d.default_value !== undefined) out.default = String(d.default_value);
    if (typeof d.error_message === 'string') out.errorMessage = d.error_message;
    if (d.validate) out.validate = lowerTest(d.validate as Obj);
    return out;
  });
}

function response(r: Obj, i: Obj): ResponseIR {
  const out: ResponseIR = { showErrorDetail: i.show_error_detail === true };
  if (typeof r.http_code_on_error === 'number') out.httpCodeOnError = r.http_code_on_error;
  if (Array.isArray(r.http_code_inherit_error)) out.inheritError = r.http_code_inherit_error.map(String);
  if (r.headers) out.headers = lowerValue(r.headers);
  if (typeof r.custom_body === 'string') out.customBody = lowerValue(r.custom_body);
  if (typeof r.http_code_fallback === 'number') out.fallback = r.http_code_fallback;
  if (typeof r.http_code_fallback_strategy === 'string') out.fallbackStrategy = r.http_code_fallback_strategy as ResponseIR['fallbackStrategy'];
  const t = i.templates as Record<string, unknown> | undefined;
  if (t) out.templates = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, lowerValue(v)]));
  return out;
}

function contract(c: unknown, legacy: unknown): { schema?: Json; example?: Json } | undefined {
  const o = (c ?? {}) as Obj;
  const example = o.example !== undefined ? o.example : legacy;
  if (o.schema === undefined && example === undefined) return undefined;
  return { ...(o.schema !== undefined ? { schema: o.schema as Json } : {}), ...(example !== undefined ? { example: example as Json } : {}) };
}
