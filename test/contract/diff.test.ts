// `pipewright diff`: a table of before/after contract pairs, each change classified as oasdiff
// classifies it, then the command end to end on config files and on two git revisions of one.
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffOpenApi, type Change } from '../../compiler/index.ts';

type Op = Record<string, unknown>;
const doc = (paths: Record<string, Record<string, Op>>, extra: Record<string, unknown> = {}) => ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths, ...extra });
const ok = (schema: unknown = {}) => ({ 200: { description: 'ok', content: { 'application/json': { schema } } } });
const body = (schema: unknown, required = true) => ({ required, content: { 'application/json': { schema } } });
const q = (name: string, schema: unknown = { type: 'string' }, required = false) => ({ name, in: 'query', required, schema });
const obj = (properties: Record<string, unknown>, required: string[] = [], more: Record<string, unknown> = {}) => ({ type: 'object', properties, required, ...more });
const keys = { type: 'apiKey', in: 'header', name: 'x-api-key' };
const bearer = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };
const sec = (schemes: Record<string, unknown>, security: unknown) => ({ components: { securitySchemes: schemes }, security });

interface Row { name: string; before: unknown; after: unknown; expect: Array<[string, Change['level']]> }

const rows: Row[] = [
  { name: 'nothing changed', before: doc({ '/a': { get: { responses: ok() } } }), after: doc({ '/a': { get: { responses: ok() } } }), expect: [] },
  { name: 'operation removed', before: doc({ '/a': { get: { responses: ok() }, post: { responses: ok() } } }), after: doc({ '/a': { get: { responses: ok() } } }), expect: [['api-removed', 'breaking']] },
  { name: 'path removed', before: doc({ '/a': { get: { responses: ok() } }, '/b': { get: { responses: ok() } } }), after: doc({ '/a': { get: { responses: ok() } } }), expect: [['api-removed', 'breaking']] },
  { name: 'operation added', before: doc({ '/a': { get: { responses: ok() } } }), after: doc({ '/a': { get: { responses: ok() } }, '/b': { post: { responses: ok() } } }), expect: [['api-added', 'info']] },
  { name: 'path parameter renamed is the same route', before: doc({ '/o/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok() } } }), after: doc({ '/o/{order_id}': { get: { parameters: [{ name: 'order_id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok() } } }), expect: [] },
  { name: 'new required query parameter', before: doc({ '/a': { get: { responses: ok() } } }), after: doc({ '/a': { get: { parameters: [q('limit', { type: 'integer' }, true)], responses: ok() } } }), expect: [['new-required-request-parameter', 'breaking']] },
  { name: 'new optional query parameter', before: doc({ '/a': { get: { responses: ok() } } }), after: doc({ '/a': { get: { parameters: [q('limit')], responses: ok() } } }), expect: [['new-optional-request-parameter', 'info']] },
  { name: 'parameter became required', before: doc({ '/a': { get: { parameters: [q('x')], responses: ok() } } }), after: doc({ '/a': { get: { parameters: [q('x', { type: 'string' }, true)], responses: ok() } } }), expect: [['request-parameter-became-required', 'breaking']] },
  { name: 'parameter removed', before: doc({ '/a': { get: { parameters: [q('x')], responses: ok() } } }), after: doc({ '/a': { get: { responses: ok() } } }), expect: [['request-parameter-removed', 'warning']] },
  { name: 'parameter type narrowed', before: doc({ '/a': { get: { parameters: [q('x', { type: ['string', 'integer'] })], responses: ok() } } }), after: doc({ '/a': { get: { parameters: [q('x', { type: 'integer' })], responses: ok() } } }), expect: [['request-type-changed', 'breaking']] },
  { name: 'parameter type widened (integer to number)', before: doc({ '/a': { get: { parameters: [q('x', { type: 'integer' })], responses: ok() } } }), after: doc({ '/a': { get: { parameters: [q('x', { type: 'number' })], responses: ok() } } }), expect: [] },
  { name: 'parameter pattern added', before: doc({ '/a': { get: { parameters: [q('x')], responses: ok() } } }), after: doc({ '/a': { get: { parameters: [q('x', { type: 'string', pattern: '^[a-z]+$' })], responses: ok() } } }), expect: [['request-pattern-added', 'warning']] },
  { name: 'maxLength decreased in a request', before: doc({ '/a': { get: { parameters: [q('x', { type: 'string', maxLength: 40 })], responses: ok() } } }), after: doc({ '/a': { get: { parameters: [q('x', { type: 'string', maxLength: 10 })], responses: ok() } } }), expect: [['request-max-length-decreased', 'breaking']] },
  { name: 'maxLength increased in a request', before: doc({ '/a': { get: { parameters: [q('x', { type: 'string', maxLength: 10 })], responses: ok() } } }), after: doc({ '/a': { get: { parameters: [q('x', { type: 'string', maxLength: 40 })], responses: ok() } } }), expect: [] },
  { name: 'minimum increased in a request body', before: doc({ '/a': { post: { requestBody: body(obj({ n: { type: 'integer', minimum: 0 } })), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({ n: { type: 'integer', minimum: 1 } })), responses: ok() } } }), expect: [['request-minimum-increased', 'breaking']] },
  { name: 'body became required', before: doc({ '/a': { post: { requestBody: body(obj({}), false), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({})), responses: ok() } } }), expect: [['request-body-became-required', 'breaking']] },
  { name: 'required body added', before: doc({ '/a': { post: { responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({})), responses: ok() } } }), expect: [['request-body-added', 'breaking']] },
  { name: 'new required request field', before: doc({ '/a': { post: { requestBody: body(obj({ a: { type: 'string' } })), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({ a: { type: 'string' }, b: { type: 'string' } }, ['b'])), responses: ok() } } }), expect: [['request-required-property-added', 'breaking']] },
  { name: 'request field became required', before: doc({ '/a': { post: { requestBody: body(obj({ a: { type: 'string' } })), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({ a: { type: 'string' } }, ['a'])), responses: ok() } } }), expect: [['request-property-became-required', 'breaking']] },
  { name: 'new optional request field', before: doc({ '/a': { post: { requestBody: body(obj({})), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({ c: { type: 'string' } })), responses: ok() } } }), expect: [['request-property-added', 'info']] },
  { name: 'request field no longer required', before: doc({ '/a': { post: { requestBody: body(obj({ a: { type: 'string' } }, ['a'])), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({ a: { type: 'string' } })), responses: ok() } } }), expect: [] },
  { name: 'nested request item field type narrowed', before: doc({ '/a': { post: { requestBody: body(obj({ items: { type: 'array', items: obj({ qty: { type: 'number' } }) } })), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({ items: { type: 'array', items: obj({ qty: { type: 'integer' } }) } })), responses: ok() } } }), expect: [['request-type-changed', 'breaking']] },
  { name: 'request enum value removed', before: doc({ '/a': { post: { requestBody: body(obj({ s: { enum: ['a', 'b'] } })), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({ s: { enum: ['a'] } })), responses: ok() } } }), expect: [['request-enum-value-removed', 'breaking']] },
  { name: 'request enum value added', before: doc({ '/a': { post: { requestBody: body(obj({ s: { enum: ['a'] } })), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({ s: { enum: ['a', 'b'] } })), responses: ok() } } }), expect: [] },
  { name: 'unknown request fields refused', before: doc({ '/a': { post: { requestBody: body(obj({ a: {} })), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({ a: {} }, [], { additionalProperties: false })), responses: ok() } } }), expect: [['request-additional-properties-refused', 'breaking']] },
  { name: 'request media type removed', before: doc({ '/a': { post: { requestBody: { required: true, content: { 'application/json': { schema: {} }, 'text/csv': { schema: {} } } }, responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body({}), responses: ok() } } }), expect: [['request-body-media-type-removed', 'breaking']] },
  { name: 'success status removed', before: doc({ '/a': { get: { responses: ok() } } }), after: doc({ '/a': { get: { responses: { 201: { description: 'created' } } } } }), expect: [['response-success-status-removed', 'breaking'], ['response-success-status-added', 'warning']] },
  { name: 'error status no longer documented', before: doc({ '/a': { get: { responses: { ...ok(), 404: { description: 'nf' } } } } }), after: doc({ '/a': { get: { responses: ok() } } }), expect: [['response-non-success-status-removed', 'warning']] },
  { name: 'error status added', before: doc({ '/a': { get: { responses: ok() } } }), after: doc({ '/a': { get: { responses: { ...ok(), 401: { description: 'no' } } } } }), expect: [['response-status-added', 'info']] },
  { name: 'required response field removed', before: doc({ '/a': { get: { responses: ok(obj({ id: { type: 'string' } }, ['id'])) } } }), after: doc({ '/a': { get: { responses: ok(obj({})) } } }), expect: [['response-required-property-removed', 'breaking']] },
  { name: 'response field became optional', before: doc({ '/a': { get: { responses: ok(obj({ id: { type: 'string' } }, ['id'])) } } }), after: doc({ '/a': { get: { responses: ok(obj({ id: { type: 'string' } })) } } }), expect: [['response-property-became-optional', 'breaking']] },
  { name: 'optional response field removed', before: doc({ '/a': { get: { responses: ok(obj({ id: { type: 'string' } })) } } }), after: doc({ '/a': { get: { responses: ok(obj({})) } } }), expect: [['response-property-removed', 'warning']] },
  { name: 'response field added', before: doc({ '/a': { get: { responses: ok(obj({})) } } }), after: doc({ '/a': { get: { responses: ok(obj({ n: { type: 'integer' } })) } } }), expect: [['response-property-added', 'info']] },
  { name: 'response type widened', before: doc({ '/a': { get: { responses: ok(obj({ n: { type: 'integer' } })) } } }), after: doc({ '/a': { get: { responses: ok(obj({ n: { type: ['integer', 'null'] } })) } } }), expect: [['response-type-changed', 'breaking']] },
  { name: 'response type narrowed', before: doc({ '/a': { get: { responses: ok(obj({ n: { type: ['integer', 'null'] } })) } } }), after: doc({ '/a': { get: { responses: ok(obj({ n: { type: 'integer' } })) } } }), expect: [] },
  { name: 'response enum value added', before: doc({ '/a': { get: { responses: ok(obj({ s: { enum: ['a'] } })) } } }), after: doc({ '/a': { get: { responses: ok(obj({ s: { enum: ['a', 'b'] } })) } } }), expect: [['response-enum-value-added', 'warning']] },
  { name: 'response media type removed', before: doc({ '/a': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: {} }, 'text/csv': { schema: {} } } } } } } }), after: doc({ '/a': { get: { responses: ok() } } }), expect: [['response-media-type-removed', 'breaking']] },
  { name: 'a response field behind a $ref', before: doc({ '/a': { get: { responses: ok({ $ref: '#/components/schemas/O' }) } } }, { components: { schemas: { O: obj({ id: {} }, ['id']) } } }), after: doc({ '/a': { get: { responses: ok({ $ref: '#/components/schemas/O' }) } } }, { components: { schemas: { O: obj({}) } } }), expect: [['response-required-property-removed', 'breaking']] },
  { name: 'a recursive schema ends', before: doc({ '/a': { get: { responses: ok({ $ref: '#/components/schemas/T' }) } } }, { components: { schemas: { T: obj({ kids: { type: 'array', items: { $ref: '#/components/schemas/T' } } }) } } }), after: doc({ '/a': { get: { responses: ok({ $ref: '#/components/schemas/T' }) } } }, { components: { schemas: { T: obj({ kids: { type: 'array', items: { $ref: '#/components/schemas/T' } }, n: {} }) } } }), expect: [['response-property-added', 'info']] },
  { name: 'operationId renamed', before: doc({ '/a': { get: { operationId: 'getA', responses: ok() } } }), after: doc({ '/a': { get: { operationId: 'fetchA', responses: ok() } } }), expect: [['api-operation-id-changed', 'warning']] },
  { name: 'security added', before: doc({ '/a': { get: { responses: ok() } } }), after: doc({ '/a': { get: { responses: ok() } } }, sec({ key: keys }, [{ key: [] }])), expect: [['api-security-added', 'breaking']] },
  { name: 'security removed', before: doc({ '/a': { get: { responses: ok() } } }, sec({ key: keys }, [{ key: [] }])), after: doc({ '/a': { get: { responses: ok() } } }), expect: [['api-security-removed', 'info']] },
  { name: 'security scheme swapped', before: doc({ '/a': { get: { responses: ok() } } }, sec({ key: keys }, [{ key: [] }])), after: doc({ '/a': { get: { responses: ok() } } }, sec({ jwt: bearer }, [{ jwt: [] }])), expect: [['api-security-changed', 'breaking']] },
  { name: 'security alternative added', before: doc({ '/a': { get: { responses: ok() } } }, sec({ key: keys }, [{ key: [] }])), after: doc({ '/a': { get: { responses: ok() } } }, sec({ key: keys, jwt: bearer }, [{ key: [] }, { jwt: [] }])), expect: [] },
  { name: 'security alternative removed', before: doc({ '/a': { get: { responses: ok() } } }, sec({ key: keys, jwt: bearer }, [{ key: [] }, { jwt: [] }])), after: doc({ '/a': { get: { responses: ok() } } }, sec({ key: keys }, [{ key: [] }])), expect: [['api-security-alternative-removed', 'breaking']] },
  { name: 'a scheme renamed but the same kind', before: doc({ '/a': { get: { responses: ok() } } }, sec({ key: keys }, [{ key: [] }])), after: doc({ '/a': { get: { responses: ok() } } }, sec({ ApiKey: keys }, [{ ApiKey: [] }])), expect: [] },
  { name: 'public operation in a secured document', before: doc({ '/a': { get: { security: [], responses: ok() } } }, sec({ key: keys }, [{ key: [] }])), after: doc({ '/a': { get: { responses: ok() } } }, sec({ key: keys }, [{ key: [] }])), expect: [['api-security-added', 'breaking']] },
  { name: 'hostile keys are data', before: doc({ '/a': { post: { requestBody: body(obj({ __proto__: { type: 'string' }, constructor: {} } as never)), responses: ok() } } }), after: doc({ '/a': { post: { requestBody: body(obj({ toString: { type: 'string' } }, ['constructor'])), responses: ok() } } }), expect: [['request-property-became-required', 'breaking'], ['request-property-added', 'info']] },
];

describe('the contract diff table', () => {
  it.each(rows)('$name', (row) => {
    const got = diffOpenApi(row.before, row.after).map((c) => [c.id, c.level]);
    expect(got).toEqual(row.expect);
  });
});

const bin = resolve('bin/pipewright.mjs');
function cli(args: string[], cwd = process.cwd()) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const before = `interfaces:
  orders:
    method: POST
    accepts:
      schema:
        type: object
        properties: { sku: { type: string }, qty: { type: integer } }
    actions:
      - name: Echo
        input: a|body|
        output: http
    produces:
      schema: { type: object, required: [sku], properties: { sku: { type: string } } }
  health:
    method: GET
    actions:
      - name: Ok
        input: '{"ok": true}'
        output: http
`;

describe('pipewright diff', () => {
  it('classifies a config change, exits 1 on a breaking one and names the interfaces whose code changed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-diff-'));
    writeFileSync(join(dir, 'old.yaml'), before);
    const after = before.replace('properties: { sku: { type: string }, qty: { type: integer } }', 'required: [qty]\n        properties: { sku: { type: string }, qty: { type: integer } }');
    writeFileSync(join(dir, 'new.yaml'), `# moved down a line\n${after}`);
    const r = cli(['diff', join(dir, 'old.yaml'), join(dir, 'new.yaml')]);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('breaking  POST /orders  body.qty: became required [request-property-became-required]');
    expect(r.out).toContain('orders: changed');
    expect(r.out).not.toContain('health');
    // The document now requires a body too (a schema with required fields makes it required).
    expect(r.out).toContain('breaking  POST /orders  body: the body became required [request-body-became-required]');
    expect(r.err).toContain('2 breaking changes (--allow-breaking to accept)');
    expect(cli(['diff', join(dir, 'old.yaml'), join(dir, 'new.yaml'), '--allow-breaking']).code).toBe(0);
    const json = JSON.parse(cli(['diff', join(dir, 'old.yaml'), join(dir, 'new.yaml'), '--format', 'json']).out);
    expect(json.breaking).toBe(2);
    expect(json.behaviour).toEqual([{ interface: 'orders', change: 'changed', details: ['interface settings changed (route, params, responses, triggers or documentation)'] }]);
    const gh = cli(['diff', join(dir, 'old.yaml'), join(dir, 'new.yaml'), '--format', 'github']).out;
    expect(gh).toMatch(/^::error file=.*new\.yaml,line=3,title=breaking API change::POST \/orders body\.qty: became required/m);
  });

  it('compares two git revisions of one config and the working copy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-diff-git-'));
    const git = (...a: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    writeFileSync(join(dir, 'api.yaml'), before);
    git('add', '.'); git('commit', '-qm', 'one');
    writeFileSync(join(dir, 'api.yaml'), before.replace('  health:\n', '  healthz:\n'));
    git('commit', '-qam', 'two');
    const r = cli(['diff', 'api.yaml', '--base', 'HEAD~1', '--head', 'HEAD'], dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('breaking  GET /health: operation removed [api-removed]');
    expect(r.out).toContain('info      GET /healthz: new operation [api-added]');
    // Against the working copy: unchanged since HEAD.
    expect(cli(['diff', 'api.yaml', '--base', 'HEAD'], dir).out).toContain('no change');
    // A revision is never an option.
    const bad = cli(['diff', 'api.yaml', '--base', '--output=/tmp/x'], dir);
    expect(bad.code).toBe(2);
    expect(readFileSync(join(dir, 'api.yaml'), 'utf8')).toContain('healthz');
  });
});
