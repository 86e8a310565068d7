// Every config gets an OpenAPI 3.1 document: committed for each fixture (out/<name>/openapi.json),
// valid for a standard validator, derived from params, asserts and accepts, and served by the server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../runtime/contract/openapi.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { irOf, planOf, testEnv } from '../support/plans.ts';
import { fixtureConfigs } from '../support/fixture-configs.ts';

const fixtures = fixtureConfigs();

async function validate(doc: unknown) {
  const v = new Validator();
  const res = await v.validate(doc as Parameters<Validator["validate"]>[0]);
  return { valid: res.valid, errors: res.errors, version: v.version };
}

describe('OpenAPI document of every fixture', () => {
  for (const f of fixtures) {
    it(`${f}: committed, fresh and valid OpenAPI 3.1`, async () => {
      const ir = irOf(join('fixtures', f));
      const doc = openApiDocument(ir.name, ir.interfaces);
      expect(JSON.parse(readFileSync(join('out', ir.name, 'openapi.json'), 'utf8'))).toEqual(doc);
      const r = await validate(doc);
      expect(r.errors).toBeUndefined();
      expect(r).toMatchObject({ valid: true, version: '3.1' });
    });
  }
});

const config = `
interfaces:
  create_order:
    summary: Creates an order.
    description: Long text.
    tags: [orders]
    method: POST
    route: /shops/:shop/orders
    params:
      shop:
        validate: { regex: "^[a-z]+$" }
        error_message: shop is lowercase letters
      dry_run:
        validate: { is_one_of: ["yes", "no"] }
    accepts:
      schema:
        type: object
        properties:
          note: { type: string, maxLength: 200 }
          qty: { description: how many }
      example: { sku: A1, qty: 2, lines: [1] }
    assert:
      tests:
        - value: a|body::sku|
          is_not_empty: true
          regex: "^[A-Z][0-9]+$"
        - value: a|body::qty|
          is_between: { min: 1, max: 99 }
        - value: a|body::kind|
          is_one_of: [retail, wholesale]
        - value: count(a|body::lines|)
          is_less_than: 11
        - value: a|body::customer.email|
          is_type: string
        - value: a|body::limit|
          is_greater_than: a|params::min|
    actions:
      - name: Wait
        delay: 1s
  list_orders:
    method: GET,POST
    route: /orders
    produces: { example: [] }
  report:
    output: cli
    actions: [{ name: R, input: a|body| }]
`;

describe('derived schemas', () => {
  const ir = irOf('shop.yaml', config);
  const doc = openApiDocument(ir.name, ir.interfaces) as any;

  it('is a valid document', async () => {
    expect((await validate(doc)).valid).toBe(true);
  });

  it('documents path and query params with the schemas their validations imply', () => {
    const op = doc.paths['/shops/{shop}/orders'].post;
    expect(op).toMatchObject({ operationId: 'create_order', summary: 'Creates an order.', description: 'Long text.', tags: ['orders'] });
    expect(op.parameters).toEqual([
      { name: 'shop', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]+$' }, description: 'shop is lowercase letters' },
      { name: 'dry_run', in: 'query', required: true, schema: { type: 'string', enum: ['yes', 'no'] } },
    ]);
  });

  it('derives the body schema from the asserts and merges accepts.schema (which wins per keyword)', () => {
    const body = doc.paths['/shops/{shop}/orders'].post.requestBody;
    expect(body.required).toBe(true);
    expect(body.content['application/json'].example).toEqual({ sku: 'A1', qty: 2, lines: [1] });
    expect(body.content['application/json'].schema).toEqual({
      type: 'object',
      properties: {
        sku: { not: { enum: [null, '', [], {}] }, type: 'string', pattern: '^[A-Z][0-9]+$' },
        qty: { minimum: 1, maximum: 99, type: 'number', description: 'how many' },
        kind: { enum: ['retail', 'wholesale'] },
        lines: { maxItems: 10, maxLength: 10, maxProperties: 10 },
        customer: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
        note: { type: 'string', maxLength: 200 },
      },
      required: ['sku', 'qty', 'kind', 'lines', 'customer'],
    });
  });

  it('answers 202 where a run can suspend, 400 where params validate, and the error body by default', () => {
    const r = doc.paths['/shops/{shop}/orders'].post.responses;
    expect(Object.keys(r)).toEqual(['200', '202', '400', 'default']);
    expect(r.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['status', 'message']);
  });

  it('gives each method of a multi-method interface its own operation, and leaves cli interfaces out', () => {
    expect(doc.paths['/orders'].get.operationId).toBe('list_orders_get');
    expect(doc.paths['/orders'].post.operationId).toBe('list_orders_post');
    expect(doc.paths['/orders'].get.responses['200'].content['application/json'].example).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('report');
  });

  it('keeps hostile field names as data', async () => {
    const hostile = irOf('h.yaml', `
interfaces:
  h:
    method: POST
    assert:
      tests:
        - value: a|body::__proto__.polluted|
          is_equal_to: 1
    actions: [{ name: A, input: a|body| }]
`);
    const d = openApiDocument('h', hostile.interfaces) as any;
    const schema = d.paths['/h'].post.requestBody.content['application/json'].schema;
    expect(Object.hasOwn(schema.properties, '__proto__')).toBe(true);
    expect(({} as any).polluted).toBeUndefined();
    expect((await validate(d)).valid).toBe(true);
  });
});

describe('served document', () => {
  const apps: Array<{ close(): Promise<unknown> }> = [];
  afterAll(async () => { for (const a of apps) await a.close(); });
  for (const mode of ['compiled', 'interpreted'] as const) {
    it(`GET /_ap/openapi.json answers the compiled document (${mode})`, async () => {
      const plan = await planOf('fixtures/quickstart.yaml', mode);
      const app = buildApp([plan], { env: testEnv() });
      apps.push(app);
      const one = await app.inject({ method: 'GET', url: '/_ap/openapi.json' });
      expect(one.statusCode).toBe(200);
      expect(one.json()).toEqual(JSON.parse(readFileSync('out/quickstart/openapi.json', 'utf8')));
      const named = await app.inject({ method: 'GET', url: '/_ap/openapi/quickstart.json' });
      expect(named.body).toBe(one.body);
    });
  }
  it('answers one merged document for several configs at /_ap/openapi.json, each config at its own URL, and an index', async () => {
    const plans = [await planOf('fixtures/quickstart.yaml', 'interpreted'), await planOf('fixtures/report.yaml', 'interpreted')];
    const app = buildApp(plans, { env: testEnv() });
    apps.push(app);
    expect((await app.inject({ method: 'GET', url: '/_ap/openapi' })).json()).toEqual({
      merged: '/_ap/openapi.json',
      configs: [{ name: 'quickstart', url: '/_ap/openapi/quickstart.json' }, { name: 'report', url: '/_ap/openapi/report.json' }],
    });
    const merged = (await app.inject({ method: 'GET', url: '/_ap/openapi.json' })).json();
    expect((await validate(merged)).valid).toBe(true);
    expect(merged.info.title).toBe('quickstart, report');
    expect(merged.paths['/hello'].get.operationId).toBe('quickstart_hello');
    expect(merged.paths['/sales_report'].get.operationId).toBe('report_sales_report');
    const each = (await app.inject({ method: 'GET', url: '/_ap/openapi/report.json' })).json();
    expect(each).toEqual(JSON.parse(readFileSync('out/report/openapi.json', 'utf8')));
  });

  it('declares the configured credentials: schemes, security, 401 where a credential is asked, none on public interfaces', async () => {
    const plan = await planOf('gate.yaml', 'interpreted', `
interfaces:
  private: { method: GET, actions: [{ name: A, input: { ok: true }, output: http }] }
  open: { method: GET, public: true, actions: [{ name: A, input: { ok: true }, output: http }] }
`);
    const app = buildApp([plan], { env: testEnv(), inbound: { apiKeys: ['k'.repeat(20)], jwtSecret: 's'.repeat(32) } });
    apps.push(app);
    const doc = (await app.inject({ method: 'GET', url: '/_ap/openapi.json', headers: { 'x-api-key': 'k'.repeat(20) } })).json();
    expect((await validate(doc)).valid).toBe(true);
    expect(doc.components.securitySchemes).toEqual({
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: expect.any(String) },
      ApiKeyBearer: { type: 'http', scheme: 'bearer', description: expect.any(String) },
      Jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: expect.any(String) },
    });
    expect(doc.security).toEqual([{ ApiKey: [] }, { ApiKeyBearer: [] }, { Jwt: [] }]);
    expect(doc.paths['/private'].get.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.paths['/open'].get.security).toEqual([]);
    expect(doc.paths['/open'].get.responses['401']).toBeUndefined();
    // The document says what the gate does.
    expect((await app.inject({ method: 'GET', url: '/private' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/open' })).statusCode).toBe(200);
    // Without credentials there is nothing to declare.
    const bare = openApiDocument(plan.name, plan.interfaces) as any;
    expect(bare.security).toBeUndefined();
    expect(bare.components.securitySchemes).toBeUndefined();
    expect(bare.paths['/private'].get.responses['401']).toBeUndefined();
  });
});

describe('a document that tells the truth', () => {
  const ir = irOf('truth.yaml', `
interfaces:
  sensor:
    mqtt: sensors/+
    actions: [{ name: Store, input: a|body| }]
  tick:
    schedule: { cron: "0 * * * *", enabled: true }
    actions: [{ name: T, input: { n: 1 } }]
  from_example:
    method: GET
    produces: { example: { id: 7, tags: [a, b], owner: { name: Ann }, rows: [{ n: 1 }, { n: 2, extra: true }] } }
    actions: [{ name: A, input: a|body|, output: http }]
  from_schema:
    method: GET
    produces: { schema: { type: object, required: [id], properties: { id: { type: integer } } } }
    actions: [{ name: A, input: a|body|, output: http }]
  from_action:
    method: GET
    route: /things/:id
    actions:
      - name: Shape
        input: { id: a|params::id|, label: "thing a|params::id|", size: count(a|params::id|), fixed: [1] }
        output: http
  not_found:
    method: GET
    route: /orders/:id
    actions: [{ name: O, input: a|params::id|, output: http }]
    response:
      http_code_on_error: 404
      custom_body: '{"error":"order a|params::id| not found","id":a|params::id|}'
  text_error:
    method: GET
    actions:
      - name: Charge
        input: { n: 1 }
        assert: { tests: [{ value: a|Charge::n|, is_equal_to: 2 }] }
        response_on_error: { http_code: 402, body: "declined a|Charge::n|" }
        output: http
  "odd name/with spaces?":
    method: GET
    route: /odd1
    actions: [{ name: A, input: { n: 1 }, output: http }]
  "odd name with spaces?":
    method: GET
    route: /odd2
    actions: [{ name: A, input: { n: 1 }, output: http }]
  guarded:
    method: POST
    network: { allow_ips: [10.0.0.0/8], rate_limit: { requests: 5, per: 1m } }
    assert:
      tests:
        - value: a|body::code|
          regex: "^[A-Z]{3}$"
    actions: [{ name: A, input: a|body|, output: http }]
`);
  const doc = openApiDocument(ir.name, ir.interfaces) as any;

  it('is valid OpenAPI 3.1 with servers', async () => {
    expect((await validate(doc)).valid).toBe(true);
    expect(doc.servers[0]).toEqual({ url: '/', description: expect.any(String) });
  });

  it('documents only what the HTTP server routes: no MQTT- or schedule-triggered interface', () => {
    expect(Object.keys(doc.paths)).not.toContain('/sensor');
    expect(Object.keys(doc.paths)).not.toContain('/tick');
    expect(JSON.stringify(doc)).not.toContain('"sensor');
  });

  const ok = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema;
  it('takes the success schema from produces.schema, else infers it from produces.example (shape, not values)', () => {
    expect(ok('/from_schema')).toEqual({ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } });
    expect(ok('/from_example')).toEqual({ type: 'object', properties: {
      id: { type: 'number' },
      tags: { type: 'array', items: { type: 'string' } },
      owner: { type: 'object', properties: { name: { type: 'string' } } },
      rows: { type: 'array', items: { type: 'object', properties: { n: { type: 'number' }, extra: { type: 'boolean' } } } },
    } });
  });

  it("else from what the last output: http action is known to produce", () => {
    expect(ok('/things/{id}')).toEqual({ type: 'object', required: ['label', 'size', 'fixed'], properties: {
      id: { type: 'string' }, label: { type: 'string' }, size: { type: 'integer', minimum: 0 }, fixed: { type: 'array', items: { type: 'number' } },
    } });
  });

  it('documents custom_body and response_on_error bodies as the interface writes them', () => {
    const r = doc.paths['/orders/{id}'].get.responses;
    const custom = { type: 'object', properties: { error: { type: 'string' }, id: {} }, required: ['error', 'id'] };
    expect(r.default.content['application/json'].schema).toEqual({ anyOf: [custom, { $ref: '#/components/schemas/Error' }] });
    const t = doc.paths['/text_error'].get.responses['402'].content;
    expect(t['text/plain'].schema).toEqual({ type: 'string' });
  });

  it('gives URL-safe, unique operationIds', () => {
    const ids = Object.values(doc.paths).flatMap((p: any) => Object.values(p).map((o: any) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(doc.paths['/odd1'].get.operationId).toBe('odd_name_with_spaces_');
    expect(doc.paths['/odd2'].get.operationId).toBe('odd_name_with_spaces__2');
  });

  it('answers 403 and 429 where a network policy applies; a regex-tested field is required', () => {
    const op = doc.paths['/guarded'].post;
    expect(Object.keys(op.responses)).toEqual(['200', '403', '429', 'default']);
    const body = op.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['code']);
    expect(body.properties.code).toEqual({ type: 'string', pattern: '^[A-Z]{3}$' });
  });
});

describe('success bodies the interface writes itself', () => {
  it('documents templates.success and response_on_success (status and body)', async () => {
    const ir = irOf('ok.yaml', `
interfaces:
  created:
    method: POST
    actions:
      - name: Make
        input: { id: 1 }
        response_on_success: { http_code: 201, body: '{"created":a|Make::id|}' }
        output: http
  templated:
    method: GET
    templates: { success: 'done: a|A::n|' }
    actions: [{ name: A, input: { n: 1 }, output: http }]
`);
    const doc = openApiDocument(ir.name, ir.interfaces) as any;
    expect((await validate(doc)).valid).toBe(true);
    expect(doc.paths['/created'].post.responses['201'].content['application/json'].schema).toEqual({ type: 'object', properties: { created: {} }, required: ['created'] });
    expect(doc.paths['/templated'].get.responses['200'].content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
  });
});
