// Every config gets an OpenAPI 3.1 document: committed for each fixture (out/<name>/openapi.json),
// valid for a standard validator, derived from params, asserts and accepts, and served by the server.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../runtime/contract/openapi.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { irOf, planOf, testEnv } from '../support/plans.ts';

const fixtures = readdirSync('fixtures').filter((f) => f.endsWith('.yaml'));

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
  it('lists the documents when several configs are served', async () => {
    const app = buildApp([await planOf('fixtures/quickstart.yaml', 'interpreted'), await planOf('fixtures/report.yaml', 'interpreted')], { env: testEnv() });
    apps.push(app);
    expect((await app.inject({ method: 'GET', url: '/_ap/openapi.json' })).json()).toEqual({ configs: [
      { name: 'quickstart', url: '/_ap/openapi/quickstart.json' },
      { name: 'report', url: '/_ap/openapi/report.json' },
    ] });
  });
});
