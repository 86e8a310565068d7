// What an interface answers, as JSON Schema for its API description: the success body (from
// `produces.schema`, else inferred from `produces.example`, else from what its last `output: http`
// action is known to produce) and the error bodies it writes instead of the standard one
// (`custom_body`, `templates.error`, an action's `response_on_error.body`). Computed at compile time
// so both execution paths and the bundle describe the same bytes.
import type { ActionIR, ApiBodyIR, InterfaceIR } from '../../runtime/config-ir.ts';
import type { Expr, Json, Node } from '../../runtime/ir.ts';
import { setOwn } from '../../runtime/values/build.ts';

type Schema = { [k: string]: Json };

/** The shape of a value (types and keys, never its values: an example shows a shape, not a rule).
 *  Keys are not required: one example does not say a field is always there. */
export function schemaOfValue(v: Json): Schema {
  if (v === null) return {};
  if (Array.isArray(v)) {
    if (!v.length) return { type: 'array' };
    const items = v.map(schemaOfValue).reduce(unite);
    return { type: 'array', items };
  }
  if (typeof v === 'object') {
    const properties: Schema = {};
    for (const [k, x] of Object.entries(v)) setOwn(properties, k, schemaOfValue(x));
    return { type: 'object', properties };
  }
  // An example's 20 may be 20.5 in another answer: numbers are numbers.
  return { type: typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string' };
}

/** Two shapes one value may take (array items): one schema when their types agree, else any. */
function unite(a: Schema, b: Schema): Schema {
  if (a.type !== b.type || a.type === undefined) return {};
  if (a.type === 'object') {
    const pa = a.properties as Record<string, Schema>, pb = b.properties as Record<string, Schema>;
    const properties: Schema = {};
    for (const k of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
      setOwn(properties, k, Object.hasOwn(pa, k) && Object.hasOwn(pb, k) ? unite(pa[k]!, pb[k]!) : Object.hasOwn(pa, k) ? pa[k]! : pb[k]!);
    }
    return { type: 'object', properties };
  }
  if (a.type === 'array') return a.items && b.items ? { type: 'array', items: unite(a.items as Schema, b.items as Schema) } : { type: 'array' };
  return a;
}

/** What an expression evaluates to, as far as its form says: literals and templates fully, a
 *  marker only where its root fixes the type (a param or header is text, count() an integer). */
function schemaOfNode(n: Node): Schema {
  switch (n.k) {
    case 'lit': return n.v === null ? { type: 'null' } : schemaOfValue(n.v);
    case 'tmpl': return { type: 'string' };
    case 'count': return { type: 'integer', minimum: 0 };
    case 'ref': {
      if (n.ref.default !== undefined) return {};
      if (n.ref.root === 'uuid') return { type: 'string', format: 'uuid' };
      if ((n.ref.root === 'params' || n.ref.root === 'headers') && !n.ref.path.length) return { type: 'string' };
      if (n.ref.root === 'action' && n.ref.part === 'status') return { type: 'integer' };
      return {};
    }
    case 'obj': {
      const properties: Schema = {};
      const required: string[] = [];
      for (const [k, v] of n.props) {
        setOwn(properties, k, schemaOfNode(v));
        // A marker may be undefined and its key then left out of the JSON; the rest are always written.
        if (v.k !== 'ref') required.push(k);
      }
      return { type: 'object', properties, ...(required.length ? { required } : {}) };
    }
    case 'arr': return { type: 'array' };
    default: return {};
  }
}

/** An `input` action without transforms answers its input's shape; any other kind (an upstream's
 *  body, a query's rows) is not known before it runs. */
function knownOutput(a: ActionIR): Schema {
  if (a.kind !== 'input' || a.post?.length || a.jsonOutput?.length || a.conditionalInput?.length) return {};
  const first = a.input?.[0];
  if (!first || (a.input?.length ?? 0) > 1) return {};
  return schemaOfNode(first);
}

/** The success body's schema and where it came from. */
export function successSchema(i: InterfaceIR): { schema: Json; from: 'produces.schema' | 'produces.example' | 'action' | 'actions' } | undefined {
  if (i.produces?.schema !== undefined) return { schema: i.produces.schema, from: 'produces.schema' };
  if (i.produces?.example !== undefined) return { schema: schemaOfValue(i.produces.example), from: 'produces.example' };
  const out = [...i.actions].reverse().find((a) => a.output === 'http');
  if (out) {
    const s = knownOutput(out);
    return Object.keys(s).length ? { schema: s, from: 'action' } : undefined;
  }
  // No output: http action: the visible actions' data keyed by name (any may be hidden or skipped).
  const shown = i.actions.filter((a) => !a.hide.action);
  if (!shown.length) return undefined;
  const properties: Schema = {};
  for (const a of shown) setOwn(properties, a.name, knownOutput(a));
  return { schema: { type: 'object', properties }, from: 'actions' };
}

/** A body template's media type and schema: a template whose text is JSON (its markers inside
 *  strings or as values) is sent as JSON; other text as text/plain (docs/decisions.md, Responses). */
export function templateBody(e: Expr): ApiBodyIR {
  if (e.k === 'lit' && typeof e.v !== 'string') return { json: true, schema: schemaOfValue(e.v) };
  if (e.k === 'ref') return { json: true, schema: {}, maybeText: true };
  if (e.k !== 'lit' && e.k !== 'tmpl') return { json: true, schema: schemaOfNode(e) };
  // Stand-ins for the markers (a JSON escape inside a string, a string where a value goes): no
  // config text holds a U+0001.
  const VALUE = '\u0001v';
  const parts = e.k === 'lit' ? [e.v as string] : e.parts;
  const text = parts.map((p) => (typeof p === 'string' ? p : p.esc === 'json' ? JSON.stringify(VALUE) : '\\u0001t')).join('');
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { return { json: false, schema: { type: 'string' } }; }
  const shape = (v: unknown): Schema => {
    if (v === VALUE) return {};
    if (typeof v === 'string') return { type: 'string' };
    if (Array.isArray(v)) return v.length ? { type: 'array', items: v.map(shape).reduce(unite) } : { type: 'array' };
    if (v && typeof v === 'object') {
      const properties: Schema = {};
      for (const [k, x] of Object.entries(v)) setOwn(properties, k, shape(x));
      return { type: 'object', properties, required: Object.keys(v) };
    }
    return v === null ? { type: 'null' } : schemaOfValue(v as Json);
  };
  return { json: true, schema: shape(parsed) };
}

/** The error bodies the interface writes itself, by the status they go with when one is fixed. */
export function errorBodies(i: InterfaceIR): { all?: ApiBodyIR; actions?: Array<ApiBodyIR & { action: string; status?: number }> } {
  const own = i.response.customBody ?? i.response.templates?.error;
  const out: ReturnType<typeof errorBodies> = {};
  if (own) out.all = templateBody(own);
  const actions = i.actions.filter((a) => a.responseOnError?.body).map((a) => ({
    action: a.name, ...(a.responseOnError!.httpCode !== undefined ? { status: a.responseOnError!.httpCode } : {}), ...templateBody(a.responseOnError!.body!),
  }));
  if (actions.length) out.actions = actions;
  return out;
}

/** The success bodies and statuses the interface writes itself: `templates.success` for every
 *  success, and each action's `response_on_success` (the last succeeded one decides). */
export function successBodies(i: InterfaceIR): { all?: ApiBodyIR; actions?: Array<{ action: string; status?: number; body?: ApiBodyIR }> } {
  const out: ReturnType<typeof successBodies> = {};
  const tmpl = i.response.templates?.success;
  if (tmpl) out.all = templateBody(tmpl);
  const actions = i.actions.filter((a) => a.responseOnSuccess && (a.responseOnSuccess.httpCode !== undefined || a.responseOnSuccess.body)).map((a) => ({
    action: a.name,
    ...(a.responseOnSuccess!.httpCode !== undefined ? { status: a.responseOnSuccess!.httpCode } : {}),
    ...(a.responseOnSuccess!.body ? { body: templateBody(a.responseOnSuccess!.body) } : {}),
  }));
  if (actions.length) out.actions = actions;
  return out;
}
