// An OpenAPI 3.1 document for a config: one operation per interface the HTTP server routes and
// method, params and bodies with the schemas their validations and asserts imply, the success body
// (compiler/lower/api-responses.ts), the error bodies as the interface writes them, and the
// credentials and network answers (401, 403, 429) the inbound gate gives. Rules: docs/decisions.md,
// "API description (OpenAPI)".
import type { ApiBodyIR, InterfaceIR, NetworkIR } from '../config-ir.ts';
import type { Json } from '../ir.ts';

/** The static part of an interface the document needs (an InterfacePlan has it too). */
export type ApiInterface = Pick<InterfaceIR, 'name' | 'method' | 'route' | 'output' | 'routed' | 'api' | 'accepts' | 'produces'> & {
  public?: boolean | undefined;
  network?: NetworkIR | undefined;
  actions: ReadonlyArray<{ kind: string }>;
};

/** The inbound credentials a server takes (runtime/server/auth/settings.ts). */
export interface ApiCredentials {
  /** SERVICE__API_KEYS: `X-API-Key` or `Authorization: Bearer <key>`. */
  apiKey?: boolean;
  /** SERVICE__JWT_SECRET or SERVICE__JWKS_URL: `Authorization: Bearer <jwt>`. */
  jwt?: boolean;
}

export interface OpenApiOptions {
  title?: string;
  version?: string;
  /** Credentials the server is configured with; none: every interface is open (no security). */
  credentials?: ApiCredentials;
  /** The config-wide `network:` policy. */
  network?: NetworkIR | undefined;
}

/** One config of a merged document. */
export interface ApiConfig {
  name: string;
  interfaces: readonly ApiInterface[];
  network?: NetworkIR | undefined;
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

// A relative URL is the server that serves the document (OpenAPI 3.1, Server Object); the second
// is `pipewright serve` or a bundle on this machine.
const servers = [
  { url: '/', description: 'The server that serves this document.' },
  { url: 'http://localhost:{port}', description: 'pipewright serve or node server.mjs on this machine.', variables: { port: { default: '8080' } } },
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ERROR = ref('Error');
const json = (schema: unknown, example?: Json) => ({ 'application/json': { schema: schema ?? {}, ...(example !== undefined ? { example } : {}) } });

const SCHEMES = {
  ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (SERVICE__API_KEYS).' },
  ApiKeyBearer: { type: 'http', scheme: 'bearer', description: 'An API key as a bearer token (SERVICE__API_KEYS).' },
  Jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A JWT (SERVICE__JWT_SECRET or SERVICE__JWKS_URL).' },
} as const;

function schemes(c: ApiCredentials | undefined): Array<keyof typeof SCHEMES> {
  return [...(c?.apiKey ? ['ApiKey', 'ApiKeyBearer'] as const : []), ...(c?.jwt ? ['Jwt'] as const : [])];
}

/** The document of one config. */
export function openApiDocument(config: string, interfaces: readonly ApiInterface[], o: OpenApiOptions = {}): Json {
  return mergedOpenApiDocument([{ name: config, interfaces, network: o.network }], { title: config, ...o });
}

/** One document for every config a server exposes (their routes never clash: the server refuses
 *  that). With several configs each operationId starts with its config's name. */
export function mergedOpenApiDocument(configs: readonly ApiConfig[], o: OpenApiOptions = {}): Json {
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  const used = schemes(o.credentials);
  for (const c of configs) {
    for (const i of c.interfaces) {
      if (!i.routed) continue;
      const path = i.route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const methods = i.method.split(',').map((m) => m.trim().toUpperCase());
      for (const m of methods) {
        const base = `${configs.length > 1 ? `${c.name}_` : ''}${i.name}${methods.length > 1 ? `_${m.toLowerCase()}` : ''}`;
        (paths[path] ??= {})[m.toLowerCase()] = operation(i, m, uniqueId(base, ids), used, c.network);
      }
    }
  }
  const title = o.title ?? (configs.length === 1 ? configs[0]!.name : configs.map((c) => c.name).join(', '));
  const components: Record<string, unknown> = { schemas: { Error: errorBody, Suspended: suspended } };
  if (used.length) components.securitySchemes = Object.fromEntries(used.map((s) => [s, SCHEMES[s]]));
  return {
    openapi: '3.1.0',
    info: { title, version: o.version ?? '1.0.0' },
    servers,
    ...(used.length ? { security: used.map((s) => ({ [s]: [] })) } : {}),
    paths,
    components,
  } as Json;
}

/** URL-safe (RFC 3986 unreserved characters but `~`) and unique within the document. */
function uniqueId(base: string, ids: Set<string>): string {
  const safe = base.replace(/[^A-Za-z0-9_.-]/g, '_') || '_';
  let id = safe;
  for (let n = 2; ids.has(id); n++) id = `${safe}_${n}`;
  ids.add(id);
  return id;
}

function operation(i: ApiInterface, method: string, operationId: string, used: readonly string[], configNetwork: NetworkIR | undefined): Record<string, unknown> {
  const api = i.api ?? {};
  const op: Record<string, unknown> = { operationId };
  if (api.summary) op.summary = api.summary;
  if (api.description) op.description = api.description;
  if (api.tags?.length) op.tags = api.tags;
  if (api.params?.length) op.parameters = api.params.map((p) => ({ name: p.name, in: p.in, required: p.required, schema: p.schema, ...(p.description ? { description: p.description } : {}) }));
  if (BODY_METHODS.has(method) && (api.body !== undefined || i.accepts?.example !== undefined)) {
    op.requestBody = { required: api.body !== undefined && Array.isArray((api.body as { required?: unknown }).required), content: json(api.body, i.accepts?.example) };
  }
  if (i.public && used.length) op.security = [];
  const data = api.successBody ? content([api.successBody]) : successContent(api.success as { type?: unknown } | undefined, i.produces?.example);
  const ok = i.output === 'none'
    ? { description: 'The run succeeded (no body).' }
    : { description: 'The run succeeded.', content: data };
  const responses: Record<string, unknown> = { [i.output === 'none' ? '204' : '200']: ok };
  // An action's response_on_success answers with its status and body when it is the last succeeded one.
  if (i.output !== 'none') {
    for (const a of api.actionSuccess ?? []) {
      const key = String(a.status ?? 200);
      const body = a.body ? content([a.body]) : data;
      const had = responses[key] as { content: Record<string, { schema: unknown }> } | undefined;
      responses[key] = { description: had ? 'The run succeeded.' : `The run succeeded; ${a.action}'s response_on_success answered.`, content: had ? mergeContent(had.content, body) : body };
    }
  }
  if (i.actions.some((a) => SUSPENDING.has(a.kind))) responses['202'] = { description: 'The run was suspended; it continues in the background.', content: json(ref('Suspended')) };
  // Run failures are written with the interface's own body when it has one (custom_body,
  // templates.error); what the server refuses before a run (a malformed body, 415, the gate) and
  // a run without one use the Error body.
  const runFailure: ApiBodyIR[] = [api.errorBody ?? { json: true, schema: ERROR }];
  const fixed = new Map<number, ApiBodyIR[]>();
  for (const a of api.actionErrors ?? []) {
    if (a.status === undefined) runFailure.push(a);
    else fixed.set(a.status, [...(fixed.get(a.status) ?? []), a]);
  }
  const withServer = (bodies: ApiBodyIR[]) => [...bodies, { json: true, schema: ERROR }];
  const gates = [api.params?.length ? 'a parameter failed its validation' : '', i.accepts?.schema !== undefined ? 'the body breaks accepts.schema (with violations)' : ''].filter(Boolean);
  if (gates.length) responses['400'] = { description: `${gates.join(', or ')}, or the body could not be read.`.replace(/^./, (c) => c.toUpperCase()), content: content(withServer(runFailure)) };
  const policy = [configNetwork, i.network].filter((n): n is NetworkIR => !!n);
  if (used.length && !i.public) responses['401'] = { description: 'No credential, or one that is not accepted.', headers: { 'WWW-Authenticate': { schema: { type: 'string' } } }, content: json(ERROR) };
  if (policy.some((n) => n.allowIps || n.denyIps || n.allowCountries || n.denyCountries || n.allowAsns || n.denyAsns)) {
    responses['403'] = { description: 'The network policy refuses the client address.', content: json(ERROR) };
  }
  if (policy.some((n) => n.rateLimit)) responses['429'] = { description: 'The rate limit is spent.', headers: { 'Retry-After': { schema: { type: 'integer' } } }, content: json(ERROR) };
  for (const [status, bodies] of [...fixed].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = { description: 'An action failed with its response_on_error.', content: content(withServer(runFailure.concat(bodies))) };
  }
  responses.default = { description: 'The run failed; the status follows the interface response rules.', content: content(withServer(runFailure)) };
  op.responses = responses;
  return op;
}

/** A string the last output: http action answers is sent as text (as JSON when the text is JSON):
 *  text/plain is declared wherever the body may be a string. */
function successContent(schema: { type?: unknown } | undefined, example: Json | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = json(schema, example);
  if (schema?.type === undefined || schema.type === 'string') out['text/plain'] = { schema: { type: 'string' } };
  if (schema?.type === 'string') out['application/json'] = { schema: {} };
  return out;
}

/** Two responses' content under one status: per media type, either schema. */
function mergeContent(a: Record<string, { schema: unknown }>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [type, m] of Object.entries(b as Record<string, { schema: unknown }>)) {
    const before = a[type];
    const schemas = uniq([...(before ? [before.schema] : []), m.schema].flatMap((x) => ((x as { anyOf?: unknown[] }).anyOf && Object.keys(x as object).length === 1 ? (x as { anyOf: unknown[] }).anyOf : [x])));
    out[type] = { schema: schemas.length === 1 ? schemas[0] : { anyOf: schemas } };
  }
  return out;
}

/** The media types and schemas of the bodies a response may carry. */
function content(bodies: ApiBodyIR[]): Record<string, unknown> {
  const out: Record<string, { schema: unknown }> = {};
  const jsonSchemas = uniq(bodies.filter((b) => b.json).map((b) => b.schema));
  if (jsonSchemas.length) out['application/json'] = { schema: jsonSchemas.length === 1 ? jsonSchemas[0] : { anyOf: jsonSchemas } };
  if (bodies.some((b) => !b.json || b.maybeText)) out['text/plain'] = { schema: { type: 'string' } };
  return out;
}

function uniq(schemas: unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const s of schemas) seen.set(JSON.stringify(s), s);
  return [...seen.values()];
}
