// The interface's API description (InterfaceApiIR): documentation fields plus the schemas its
// asserts and param validations imply, computed once here so both execution paths carry it as data.
import type { InterfaceApiIR, InterfaceIR } from '../../runtime/config-ir.ts';
import type { Json } from '../../runtime/ir.ts';
import { bodySchemaFromTests, checksSchema, mergeSchemas, type JsonSchema } from '../../runtime/contract/schema-from-tests.ts';

import { errorBodies, successBodies, successSchema } from './api-responses.ts';

type Obj = Record<string, unknown>;

export function lowerApi(i: Obj, ir: InterfaceIR): InterfaceApiIR | undefined {
  const api: InterfaceApiIR = {};
  if (typeof i.summary === 'string') api.summary = i.summary;
  if (typeof i.description === 'string') api.description = i.description;
  if (Array.isArray(i.tags)) api.tags = i.tags.map(String);
  // The interface's assert and its top-level actions' asserts read the request body as a|body::…|
  // (inside a lookup a|body| is the item, so nested actions are left out).
  const tests = [ir.assert, ...ir.actions.map((a) => a.assert)].flatMap((a) => a?.tests ?? []);
  const derived = bodySchemaFromTests(tests);
  const body = mergeSchemas(ir.accepts?.schema as JsonSchema | undefined, derived);
  if (body) api.body = body as Json;
  const params = apiParams(ir);
  if (params.length) api.params = params;
  const success = successSchema(ir);
  if (success) api.success = success.schema;
  const wrote = successBodies(ir);
  if (wrote.all) api.successBody = wrote.all;
  if (wrote.actions) api.actionSuccess = wrote.actions;
  const errors = errorBodies(ir);
  if (errors.all) api.errorBody = errors.all;
  if (errors.actions) api.actionErrors = errors.actions;
  return Object.keys(api).length ? api : undefined;
}

function apiParams(ir: InterfaceIR): NonNullable<InterfaceApiIR['params']> {
  const inPath = [...ir.route.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const out: NonNullable<InterfaceApiIR['params']> = inPath.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  for (const p of ir.params) {
    const fromTest = p.validate ? checksSchema(p.validate) : { schema: {}, required: false };
    const schema = { type: 'string', ...fromTest.schema } as Json;
    const existing = out.find((o) => o.name === p.name);
    const entry = { name: p.name, in: existing ? 'path' as const : 'query' as const, required: existing ? true : fromTest.required && p.default === undefined, schema, ...(p.errorMessage ? { description: p.errorMessage } : {}) };
    if (existing) Object.assign(existing, entry); else out.push(entry);
  }
  return out;
}
