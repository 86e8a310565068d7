// An OpenAPI 3.1 document for a config: one operation per routed interface and method, params and
// bodies with the schemas their validations and asserts imply, the error body every failure uses.
import type { InterfaceIR } from '../config-ir.ts';
import type { Json } from '../ir.ts';

/** The static part of an interface the document needs (an InterfacePlan has it too). */
export type ApiInterface = Pick<InterfaceIR, 'name' | 'method' | 'route' | 'output' | 'api' | 'accepts' | 'produces'> & {
  actions: ReadonlyArray<{ kind: string }>;
};

export interface OpenApiOptions {
  title?: string;
  version?: string;
  /** Which interfaces the HTTP server routes (the server's own rule). */
  routed?: (i: ApiInterface) => boolean;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Action kinds that can park a run and answer 202. */
const SUSPENDING = new Set(['delay', 'wait_for_callback']);

const errorBody = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['status', 'message'],
      properties: {
        status: { type: 'integer', description: 'The HTTP status of the response.' },
        message: { type: 'string' },
        action: { type: 'string', description: 'The action whose failure decided the response.' },
        detail: { type: 'string', description: 'Only with show_error_detail.' },
        data: { description: 'Only with show_error_detail.' },
        violations: {
          type: 'array',
          description: 'A 400 for a body that breaks accepts.schema: what is wrong, the first violation first.',
          items: {
            type: 'object',
            required: ['path', 'rule', 'message'],
            properties: {
              path: { type: 'string', description: 'JSON Pointer into the body ("" is the body itself).' },
              rule: { type: 'string', description: 'The JSON Schema keyword that failed.' },
              message: { type: 'string' },
            },
          },
        },
      },
    },
  },
};

const suspended = {
  type: 'object',
  required: ['run_id', 'status'],
  properties: {
    run_id: { type: 'string', format: 'uuid' },
    status: { const: 'suspended' },
    action: { type: 'string' },
    reason: { type: 'string' },
    resume_at: { type: 'string', format: 'date-time' },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown, example?: Json) => ({ 'application/json': { schema: schema ?? {}, ...(example !== undefined ? { example } : {}) } });

export function openApiDocument(config: string, interfaces: readonly ApiInterface[], o: OpenApiOptions = {}): Json {
  const paths: Record<string, Record<string, unknown>> = {};
  const routed = o.routed ?? ((i: ApiInterface) => i.output !== 'cli');
  for (const i of interfaces) {
    if (!routed(i)) continue;
    const path = i.route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const methods = i.method.split(',').map((m) => m.trim().toUpperCase());
    for (const m of methods) {
      const item = (paths[path] ??= {});
      item[m.toLowerCase()] = operation(i, m, methods.length > 1);
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: o.title ?? config, version: o.version ?? '1.0.0' },
    paths,
    components: { schemas: { Error: errorBody, Suspended: suspended } },
  } as Json;
}

function operation(i: ApiInterface, method: string, several: boolean): Record<string, unknown> {
  const api = i.api ?? {};
  const op: Record<string, unknown> = { operationId: several ? `${i.name}_${method.toLowerCase()}` : i.name };
  if (api.summary) op.summary = api.summary;
  if (api.description) op.description = api.description;
  if (api.tags?.length) op.tags = api.tags;
  if (api.params?.length) op.parameters = api.params.map((p) => ({ name: p.name, in: p.in, required: p.required, schema: p.schema, ...(p.description ? { description: p.description } : {}) }));
  if (BODY_METHODS.has(method) && (api.body !== undefined || i.accepts?.example !== undefined)) {
    op.requestBody = { required: api.body !== undefined && Array.isArray((api.body as { required?: unknown }).required), content: json(api.body, i.accepts?.example) };
  }
  const ok = i.output === 'none'
    ? { description: 'The run succeeded (no body).' }
    : { description: 'The run succeeded.', content: json(i.produces?.schema, i.produces?.example) };
  const responses: Record<string, unknown> = { [i.output === 'none' ? '204' : '200']: ok };
  if (i.actions.some((a) => SUSPENDING.has(a.kind))) responses['202'] = { description: 'The run was suspended; it continues in the background.', content: json(ref('Suspended')) };
  const gates = [api.params?.length ? 'a parameter failed its validation' : '', i.accepts?.schema !== undefined ? 'the body breaks accepts.schema (with violations)' : ''].filter(Boolean);
  if (gates.length) responses['400'] = { description: `${gates.join(', or ')}.`.replace(/^./, (c) => c.toUpperCase()), content: json(ref('Error')) };
  responses.default = { description: 'The run failed; the status follows the interface response rules.', content: json(ref('Error')) };
  op.responses = responses;
  return op;
}
