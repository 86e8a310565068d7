// The OpenAPI document against what the server really answers: each fixture is served (fast path
// and interpreter) against the test upstream, its recorded requests (fixtures/requests/) and its
// interfaces' `accepts.example` are sent over HTTP, and every answer must be one the document
// declares: the status (or `default`), the media type, and the body valid for that schema (ajv,
// draft 2020-12, the dialect of OpenAPI 3.1), $refs resolved in the document itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../runtime/server/app.ts';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { startUpstream, type Upstream } from '../support/upstream.ts';
import { fixtureConfigs } from '../support/fixture-configs.ts';

interface Sent { method: string; path: string; body?: unknown; raw?: string; headers?: Record<string, string> }
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };

const fixtures = fixtureConfigs();
let upstream: Upstream;
const stops: Array<() => Promise<unknown>> = [];
beforeAll(async () => { upstream = await startUpstream(); });
afterAll(async () => { for (const s of stops) await s(); await upstream.close(); await closeHttpPools(); });

/** The document's path template that matches a request path, if any. */
function operationOf(doc: Doc, method: string, url: string) {
  const path = url.split('?')[0]!;
  for (const [template, item] of Object.entries(doc.paths)) {
    const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
    if (re.test(path) && item[method.toLowerCase()]) return { template, op: item[method.toLowerCase()]! };
  }
  return undefined;
}

/** Requests to send: the recorded ones, and each interface's accepts.example. */
function requestsOf(file: string, doc: Doc, plan: Awaited<ReturnType<typeof planOf>>): Sent[] {
  const recorded = parse(readFileSync(join('fixtures/requests', file), 'utf8')) as Sent[];
  const examples = plan.interfaces.filter((i) => i.routed && i.accepts?.example !== undefined && !i.route.includes(':'))
    .map((i) => ({ method: i.method.split(',')[0]!, path: i.route, body: i.accepts!.example }));
  return [...recorded, ...examples].filter((r) => operationOf(doc, r.method, r.path));
}

async function send(base: string, r: Sent) {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  let body = r.raw;
  if (r.body !== undefined) { body = JSON.stringify(r.body); headers['content-type'] ??= 'application/json'; }
  const res = await fetch(base + r.path, { method: r.method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, type: (res.headers.get('content-type') ?? '').split(';')[0]!.trim(), text: await res.text() };
}

/** Sends each request to the server and requires its answer to be one the document declares. */
async function checkAgainst(doc: Doc, base: string, requests: Sent[]): Promise<string[]> {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(doc as object, 'doc');
  const checked: string[] = [];
  for (const r of requests) {
    const { template, op } = operationOf(doc, r.method, r.path)!;
    const got = await send(base, r);
    const what = `${r.method} ${r.path} -> ${got.status} ${got.type} ${got.text.slice(0, 200)}`;
    const key = String(got.status) in op.responses ? String(got.status) : 'default';
    const declared = op.responses[key];
    expect(declared, `${what}: status not declared`).toBeDefined();
    if (got.status === 204) { checked.push(what); continue; }
    expect(Object.keys(declared!.content ?? {}), `${what}: media type not declared`).toContain(got.type);
    const pointer = ['paths', template, r.method.toLowerCase(), 'responses', key, 'content', got.type, 'schema']
      .map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
    const validate = ajv.compile({ $ref: `doc#/${pointer}` });
    const body = got.type === 'application/json' ? JSON.parse(got.text) : got.text;
    expect(validate(body), `${what}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    checked.push(what);
  }
  return checked;
}

describe.each(fixtures)('%s', (file) => {
  it.each(['compiled', 'interpreted'] as const)('answers only what its OpenAPI document declares (%s)', async (mode) => {
    const plan = await planOf(join('fixtures', file), mode);
    const s = await serveOn([plan], testEnv({ API_BASE: upstream.url }));
    stops.push(() => s.app.close());
    const doc = await (await fetch(`${s.url}/_ap/openapi.json`)).json() as Doc;
    const requests = requestsOf(file, doc, plan);
    expect(requests.length).toBeGreaterThan(0);
    const checked = await checkAgainst(doc, s.url, requests);
    expect(checked.length).toBe(requests.length);
  }, 30_000);
});

it('with credentials configured: the 401 of a request without one, and the answers with one, as declared', async () => {
  const key = 'k'.repeat(24);
  const plan = await planOf('fixtures/failures.yaml', 'interpreted');
  const app = buildApp([plan], { env: testEnv({ API_BASE: upstream.url }), inbound: { apiKeys: [key] } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  stops.push(() => app.close());
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const doc = await (await fetch(`${base}/_ap/openapi.json`, { headers: { 'x-api-key': key } })).json() as Doc & { security?: unknown };
  expect(doc.security).toEqual([{ ApiKey: [] }, { ApiKeyBearer: [] }]);
  const recorded = requestsOf('failures.yaml', doc, plan);
  const bare = await checkAgainst(doc, base, recorded);
  expect(bare.every((w) => w.includes(' -> 401 '))).toBe(true);
  const keyed = await checkAgainst(doc, base, recorded.map((r) => ({ ...r, headers: { ...r.headers, authorization: `Bearer ${key}` } })));
  expect(keyed.some((w) => w.includes(' -> 404 application/json {"error":"order 8 not found"}'))).toBe(true);
}, 30_000);

it('is not vacuous: the standard Error body refuses a custom_body answer, and an undeclared status fails', async () => {
  const doc = JSON.parse(readFileSync('out/failures/openapi.json', 'utf8')) as Doc;
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema(doc as object, 'doc');
  expect(ajv.compile({ $ref: 'doc#/components/schemas/Error' })({ error: 'order 8 not found' })).toBe(false);
  expect(ajv.compile({ $ref: 'doc#/paths/~1orders~1%7Bid%7D/get/responses/default/content/application~1json/schema' })({ error: 'order 8 not found' })).toBe(true);
  expect(operationOf(doc, 'GET', '/sensor')).toBeUndefined();
});
