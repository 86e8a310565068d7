// Issue 30, section 3: `accepts.schema` gates the request body before any action runs, in both paths
// and the bundle: a 400 naming the violation (path, rule, message), byte-identical in both paths,
// with an upstream hit counter showing that no action ran. Hostile bodies (a string, `__proto__`
// keys, an overlong key, a backtracking pattern's worst case) are 400s that echo a bounded piece of
// the request. What the asserts imply is published (OpenAPI, MCP) but does not gate: the asserts
// answer with their own messages. `check` compiles the schema as the server will.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { compileConfig } from '../../compiler/project.ts';
import { openApiDocument } from '../../runtime/contract/openapi.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { irOf, planOf, serveOn, testEnv } from '../support/plans.ts';
import { serveBundle } from '../support/bundle.ts';

const config = (upstream: string) => `
interfaces:
  order:
    method: POST
    accepts:
      schema:
        type: object
        required: [n, sku]
        additionalProperties: false
        properties:
          n: { type: integer, minimum: 1 }
          sku: { type: string, pattern: "^(a+)+$", maxLength: 100000 }
          email: { type: string, format: email }
          tags: { type: array, maxItems: 3, items: { type: string } }
          meta: { const: { __proto__: 1 } }
          many: { type: array, items: { type: integer } }
          tree: { $ref: "#/definitions/node" }
        definitions:
          node: { type: object, required: [name], properties: { name: { type: string }, kids: { type: array, items: { $ref: "#/definitions/node" } } } }
    actions:
      - name: Send
        http: { url: "${upstream}/hit", method: POST, body: a|body| }
      - name: Out
        input: { sent: a|body::n| }
        output: http
  asserted:
    method: POST
    assert:
      tests:
        - value: a|body::n|
          is_type: number
      error_message: "n must be a number"
    actions:
      - name: Send
        url: ${upstream}/asserted
      - name: Out
        input: { ok: true }
        output: http
`;

let up: Awaited<ReturnType<typeof countingUpstream>>;
const stops: Array<() => unknown> = [];
const apps: Array<{ close(): Promise<unknown> }> = [];
beforeAll(async () => {
  up = await countingUpstream({ '/hit': (_q, res) => json(res, 200, {}), '/asserted': (_q, res) => json(res, 200, {}) });
});
afterAll(async () => {
  for (const a of apps) await a.close();
  for (const s of stops) s();
  await up.close();
  await closeHttpPools();
});

const post = async (url: string, body: string) => {
  const r = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  return { status: r.status, text: await r.text() };
};

const BAD: Array<[string, string, { path: string; rule: string; message: string }]> = [
  ['a string field where an integer is expected', '{"n": "abc", "sku": "a"}', { path: '/n', rule: 'type', message: 'must be integer' }],
  ['a missing required field', '{"sku": "a"}', { path: '/n', rule: 'required', message: 'is required' }],
  ['a number under its minimum', '{"n": 0, "sku": "a"}', { path: '/n', rule: 'minimum', message: 'must be >= 1' }],
  ['an unexpected __proto__ key', '{"n": 1, "sku": "a", "__proto__": {"admin": true}}', { path: '/__proto__', rule: 'additionalProperties', message: 'is not allowed' }],
  ['a bad format', '{"n": 1, "sku": "a", "email": "not-an-email"}', { path: '/email', rule: 'format', message: 'must match format "email"' }],
  ['too many items', '{"n": 1, "sku": "a", "tags": ["a", "b", "c", "d"]}', { path: '/tags', rule: 'maxItems', message: 'must NOT have more than 3 items' }],
  ['a const object without its __proto__ key', '{"n": 1, "sku": "a", "meta": {}}', { path: '/meta', rule: 'const', message: 'must be equal to constant' }],
  ['a wrong type deep in a recursive $ref', '{"n": 1, "sku": "a", "tree": {"name": "r", "kids": [{"name": "a", "kids": [{"kids": []}]}]}}', { path: '/tree/kids/0/kids/0/name', rule: 'required', message: 'is required' }],
  // The first error ends the check: half a million items cost no more than one error object.
  ['a wrong item at the end of a huge array', `{"n": 1, "sku": "a", "many": [${'1,'.repeat(500_000)}"x"]}`, { path: '/many/500000', rule: 'type', message: 'must be integer' }],
  ['a wrong type deep in an array', '{"n": 1, "sku": "a", "tags": ["a", 5]}', { path: '/tags/1', rule: 'type', message: 'must be string' }],
  // `^(a+)+$` backtracks exponentially on a JavaScript engine; on RE2 this is linear.
  ['a pattern\'s worst case', `{"n": 1, "sku": "${'a'.repeat(50_000)}!"}`, { path: '/sku', rule: 'pattern', message: 'must match pattern "^(a+)+$"' }],
];

const answers = new Map<string, Map<string, string>>();

function cases(mode: string, base: () => string) {
  const seen = new Map<string, string>();
  answers.set(mode, seen);

  it.each(BAD)('%s is a 400 naming the violation, before any action runs', async (name, body, violation) => {
    const before = up.count('/hit');
    const r = await post(`${base()}/order`, body);
    seen.set(name, r.text);
    expect(r.status).toBe(400);
    const where = violation.path === '' ? 'the body' : violation.path;
    expect(JSON.parse(r.text)).toEqual({ error: { status: 400, message: `the request body does not match the accepts.schema of interface "order" at ${where}: ${violation.message}`, violations: [violation] } });
    expect(up.count('/hit')).toBe(before);
  });

  it('a bare JSON string is a 400, not a 500', async () => {
    const r = await post(`${base()}/order`, '"str"');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).error.message).toBe('interface "order" takes a JSON object body (see its accepts); the request sent a string');
  });

  it('an unexpected key is named with a bounded piece of it', async () => {
    const long = 'k'.repeat(100_000);
    const r = await post(`${base()}/order`, `{"n": 1, "sku": "a", "${long}": 1}`);
    seen.set('long key', r.text);
    expect(r.status).toBe(400);
    expect(r.text.length).toBeLessThan(1000);
    expect(JSON.parse(r.text).error.violations[0].path).toBe(`/${'k'.repeat(199)}…`);
  });

  it('a conforming body runs every action', async () => {
    const before = up.count('/hit');
    const r = await post(`${base()}/order`, '{"n": 2, "sku": "aaa", "email": "a@example.com", "tags": ["x"], "meta": {"__proto__": 1}, "many": [1, 2], "tree": {"name": "r", "kids": [{"name": "k"}]}}');
    expect({ status: r.status, body: JSON.parse(r.text) }).toEqual({ status: 200, body: { sent: 2 } });
    expect(up.count('/hit')).toBe(before + 1);
  });
}

function assertsDoNotGate(base: () => string) {
  it('what the asserts imply does not gate: the assert answers with its own message', async () => {
    const r = await post(`${base()}/asserted`, '{"n": "abc"}');
    const body = JSON.parse(r.text);
    expect(body.error.violations).toBeUndefined();
    expect(r.text).toContain('n must be a number');
  });
}

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  let url = '';
  beforeAll(async () => {
    const s = await serveOn([await planOf('accepts-schema.yaml', mode, config(up.url))], testEnv());
    apps.push(s.app);
    url = s.url;
  });
  cases(mode, () => url);
  assertsDoNotGate(() => url);
});

describe('both paths', () => {
  it('answer byte-identical error bodies', () => {
    const [compiled, interpreted] = [answers.get('compiled')!, answers.get('interpreted')!];
    expect(compiled.size).toBe(BAD.length + 1);
    expect(Object.fromEntries(interpreted)).toEqual(Object.fromEntries(compiled));
  });
});

describe('bundle', () => {
  let url = '';
  beforeAll(async () => { url = await serveBundle('accepts-schema.yaml', config(up.url), {}, stops); }, 120_000);
  it('refuses a body that breaks the schema before any action runs, as both paths do', async () => {
    const before = up.count('/hit');
    const r = await post(`${url}/order`, BAD[0]![1]);
    expect(r.status).toBe(400);
    expect(r.text).toBe(answers.get('compiled')!.get(BAD[0]![0]));
    expect(up.count('/hit')).toBe(before);
    const ok = await post(`${url}/order`, '{"n": 2, "sku": "aaa"}');
    expect(ok.status).toBe(200);
    expect(up.count('/hit')).toBe(before + 1);
  });
});

describe('the OpenAPI document', () => {
  it('describes the 400 of a body that breaks accepts.schema, and only where it gates', () => {
    const ir = irOf('accepts-schema.yaml', config('http://127.0.0.1:9'));
    const paths = (openApiDocument(ir.name, ir.interfaces) as { paths: Record<string, { post: { responses: Record<string, { description: string }> } }> }).paths;
    expect(paths['/order']!.post.responses['400']!.description).toBe('The body breaks accepts.schema (with violations), or the body could not be read.');
    expect(paths['/asserted']!.post.responses['400']).toBeUndefined();
  });
});

describe('check', () => {
  const diagnostics = (schema: string) => {
    const c = compileConfig('s.yaml', `interfaces:\n  x:\n    method: POST\n    accepts:\n      schema: ${schema}\n    actions:\n      - name: A\n        input: a|body|\n        output: http\n`);
    return c.diagnostics.map((d) => ({ severity: d.severity, line: d.line, message: d.message }));
  };

  it('refuses a pattern the linear-time engine cannot run, at its place', () => {
    expect(diagnostics('{ type: object, properties: { a: { type: string, pattern: "^(a)\\\\1$" } } }')).toEqual([
      expect.objectContaining({ severity: 'error', line: 5, message: expect.stringContaining('backreferences') }),
    ]);
  });

  it('refuses a schema ajv cannot compile and an unknown format', () => {
    expect(diagnostics('{ type: objekt }')).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringContaining('accepts.schema cannot be compiled') })]);
    expect(diagnostics('{ type: string, format: emale }')).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringContaining('unknown format "emale"') })]);
  });

  it('warns about an example the schema refuses', () => {
    const c = compileConfig('s.yaml', 'interfaces:\n  x:\n    method: POST\n    accepts:\n      schema: { type: object, required: [n] }\n      example: { m: 1 }\n    actions:\n      - name: A\n        input: a|body|\n        output: http\n');
    expect(c.diagnostics.map((d) => ({ severity: d.severity, line: d.line, message: d.message }))).toEqual([
      { severity: 'warning', line: 6, message: 'the example does not match accepts.schema at /n: is required' },
    ]);
  });

  it('warns about an unknown keyword (ajv would ignore it)', () => {
    expect(diagnostics('{ type: integer, minimun: 1 }')).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringContaining('minimun') })]);
  });
});
