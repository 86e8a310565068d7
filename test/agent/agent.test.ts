// The agent action against a local chat-completions server that scripts its replies: tool calls to
// this config's interfaces and to a second pipewright serving MCP, parallel calls, an unknown tool,
// malformed arguments, the iteration ceiling, model failures retried, and memory on both stores.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../runtime/server/app.ts';
import { MemoryStore, PostgresStore } from '../../runtime/store/index.ts';
import type { Store } from '../../runtime/store-types.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { DATABASE_URL, dropSchema, schemaName } from '../durable/helpers.ts';

type Msg = { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string };
type Script = (messages: Msg[], call: number, body: Record<string, unknown>) => { status?: number; json: unknown };
const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } });
const say = (content: string) => ({ json: { choices: [{ message: { role: 'assistant', content } }] } });
const ask = (...calls: unknown[]) => ({ json: { choices: [{ message: { role: 'assistant', content: null, tool_calls: calls } }] } });

/** Scripts by model name; every request body is recorded. */
const scripts: Record<string, Script> = {
  tools: (m, n) => (n === 1 ? ask(call('c1', 'add', { a: 2, b: 3 }), call('c2', 'shout', { text: 'hi' }), call('c3', 'add', { a: 1, b: 1 })) : say(`results: ${m.filter((x) => x.role === 'tool').map((x) => x.content).join(' | ')}`)),
  unknown: () => ask(call('c1', 'rm_rf', {})),
  malformed: () => ask(call('c1', 'add', '{"a": 2,')),
  forever: (_m, n) => ask(call(`c${n}`, 'add', { a: n, b: 0 })),
  flaky: (_m, n) => (n < 3 ? { status: 503, json: { error: 'busy' } } : say('finally')),
  echo: (m) => say(`re ${m[m.length - 1]!.content}`),
  whoami: (m, n) => (n === 1 ? ask(call('c1', 'whoami', { customer: '8' })) : say(`tool: ${m.filter((x) => x.role === 'tool').map((x) => x.content).join(' | ')}`)),
};
const requests: Array<{ model: string; body: Record<string, unknown>; auth?: string }> = [];
let modelServer: Server;
let modelUrl: string;
let remote: FastifyInstance;
let remoteUrl: string;

const counts = new Map<string, number>();
beforeEach(() => { counts.clear(); requests.length = 0; });
beforeAll(async () => {
  modelServer = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; messages: Msg[] };
      const key = `${body.model}:${req.headers['x-conv'] ?? ''}`;
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      requests.push({ model: body.model, body, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) });
      const r = scripts[body.model]!(body.messages, n, body);
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(r.json));
    });
  });
  await new Promise<void>((r) => modelServer.listen(0, '127.0.0.1', r));
  modelUrl = `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/v1/chat/completions`;
  const remotePlan = await planOf('remote.yaml', 'interpreted', `
interfaces:
  shout:
    summary: Upper-cases text.
    mcp: { enabled: true }
    assert: { tests: [{ value: a|body::text|, is_type: string }] }
    actions:
      - name: Up
        input: a|body::text|
        post_transforms: [{ extract_with_jq: "ascii_upcase" }]
        output: http
  whisper:
    mcp: { enabled: true }
    actions: [{ name: W, input: a|body|, output: http }]
`);
  remote = buildApp([remotePlan], { env: testEnv() });
  await remote.listen({ port: 0, host: '127.0.0.1' });
  remoteUrl = `http://127.0.0.1:${(remote.server.address() as AddressInfo).port}/local/dev/mcp`;
});
afterAll(async () => { await remote.close(); await new Promise((r) => modelServer.close(r)); });

const config = (model: string, extra = '') => `
interfaces:
  ask:
    method: POST
    actions:
      - name: Agent
        agent:
          url: a|var::MODEL_URL|
          model: ${model}
          headers: { authorization: "Bearer a|secret::MODEL_KEY|", x-conv: a|body::conv->default("")| }
          system: You are terse.
          input: a|body::q|
          tools: [add]
          mcp:
            - url: a|var::REMOTE|
              only: [shout]
${extra}
        output: http
  add:
    summary: Adds a and b.
    assert:
      tests:
        - { value: a|body::a|, is_type: number }
        - { value: a|body::b|, is_type: number }
    actions:
      - name: Sum
        input: { a: a|body::a|, b: a|body::b| }
        post_transforms: [{ math: { expressions: { sum: "target.a + target.b" } } }, { keep_attributes: [sum] }]
        output: http
`;

async function serve(mode: 'compiled' | 'interpreted', model: string, extra = '', services?: Services) {
  const plan = await planOf('agent.yaml', mode, config(model, extra));
  const app = buildApp([plan], { env: testEnv({ MODEL_URL: modelUrl, REMOTE: remoteUrl }, { MODEL_KEY: 'k-123' }), ...(services ? { services } : {}) });
  return app;
}
const post = (app: FastifyInstance, body: unknown) => app.inject({ method: 'POST', url: '/ask', payload: body as object });

for (const mode of ['compiled', 'interpreted'] as const) {
  describe(`agent (${mode})`, () => {
    it('runs parallel tool calls on local interfaces and a remote MCP server, then answers', async () => {
      requests.length = 0;
      const app = await serve(mode, 'tools');
      const res = await post(app, { q: 'add things' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: 'results: {"sum":5} | HI | {"sum":2}',
        iterations: 2,
        transcript: expect.arrayContaining([
          { iteration: 1, tool: 'add', source: 'interface', arguments: { a: 2, b: 3 }, ok: true, result: { sum: 5 } },
          { iteration: 1, tool: 'shout', source: 'mcp', arguments: { text: 'hi' }, ok: true, result: { result: 'HI' } },
          { iteration: 1, tool: 'add', source: 'interface', arguments: { a: 1, b: 1 }, ok: true, result: { sum: 2 } },
        ]),
      });
      const first = requests[0]!;
      expect(first.auth).toBe('Bearer k-123');
      expect(first.body.messages).toEqual([{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'add things' }]);
      // Local tools carry the schema their asserts imply; `only` filtered the remote tools.
      expect(first.body.tools).toEqual([
        { type: 'function', function: { name: 'add', description: 'Adds a and b.', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } } },
        { type: 'function', function: { name: 'shout', description: 'Upper-cases text.', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } } },
      ]);
      const second = requests[1]!.body.messages as Msg[];
      expect(second.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['c1', 'c2', 'c3']);
      await app.close();
    });

    it('gives local tool runs the tool_headers, which the model cannot set', async () => {
      const plan = await planOf('agent-headers.yaml', mode, `
interfaces:
  ask:
    method: POST
    actions:
      - name: Agent
        agent:
          url: a|var::MODEL_URL|
          model: whoami
          headers: { x-conv: ${mode} }
          input: a|body::q|
          tools: [whoami]
          tool_headers: { X-Customer: "a|header::x-customer|", traceparent: none }
        output: http
  whoami:
    accepts: { schema: { type: object, properties: { customer: { type: string } } } }
    actions:
      - name: Who
        input: { header: a|header::x-customer|, traceparent: a|header::traceparent->default("")|, asked: a|body::customer| }
        output: http
`);
      const app = buildApp([plan], { env: testEnv({ MODEL_URL: modelUrl }) });
      const res = await app.inject({ method: 'POST', url: '/ask', headers: { 'x-customer': '7' }, payload: { q: 'who am I?' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('tool: {"header":"7","traceparent":"none","asked":"8"}');
      await app.close();
    });

    it('ends with a clear error on an unknown tool and on malformed arguments', async () => {
      const app = await serve(mode, 'unknown', '', undefined);
      const res = await app.inject({ method: 'POST', url: '/ask', payload: { q: 'x' } });
      expect(res.statusCode).toBe(500);
      const plan2 = await serve(mode, 'malformed');
      const bad = await post(plan2, { q: 'x' });
      expect(bad.statusCode).toBe(500);
      await app.close(); await plan2.close();
    });

    it('stops at the iteration ceiling', async () => {
      const app = await serve(mode, 'forever', '          max_iterations: 3');
      requests.length = 0;
      const res = await post(app, { q: 'loop', conv: `forever-${mode}` });
      expect(res.statusCode).toBe(500);
      expect(requests.filter((r) => r.model === 'forever')).toHaveLength(3);
      await app.close();
    });

    it('retries model HTTP failures by the action retry rules', async () => {
      const plan = await planOf('agent.yaml', mode, config('flaky').replace('        output: http\n  add:', '        retry: { attempts: 3, delay: 1, jitter: none }\n        output: http\n  add:'));
      const app = buildApp([plan], { env: testEnv({ MODEL_URL: modelUrl, REMOTE: remoteUrl }, { MODEL_KEY: 'k' }) });
      requests.length = 0;
      const res = await post(app, { q: 'hi', conv: `flaky-${mode}` });
      expect(res.json()).toEqual({ message: 'finally', transcript: [], iterations: 1 });
      expect(requests.filter((r) => r.model === 'flaky')).toHaveLength(3);
      await app.close();
    });
  });
}

describe('error messages name the cause', () => {
  it('says which tool was unknown and which arguments were malformed', async () => {
    for (const [model, message] of [
      ['unknown', 'agent: the model called an unknown tool "rm_rf" (offered: add, shout)'],
      ['malformed', 'agent: the model sent malformed arguments for "add": {"a": 2,'],
    ] as const) {
      const plan = await planOf('agent.yaml', 'interpreted', config(model).replace('interfaces:\n  ask:\n', 'interfaces:\n  ask:\n    show_error_detail: true\n'));
      const app = buildApp([plan], { env: testEnv({ MODEL_URL: modelUrl, REMOTE: remoteUrl }, { MODEL_KEY: 'k' }) });
      const res = await post(app, { q: 'x' });
      expect(res.json().error.detail).toBe(message);
      await app.close();
    }
  });

  it('refuses max_iterations above 12 and a memory window above 50 at load', async () => {
    await expect(planOf('a.yaml', 'interpreted', config('echo', '          max_iterations: 13'))).rejects.toThrow(/max_iterations/);
    await expect(planOf('a.yaml', 'interpreted', config('echo', '          memory: { key: k, window: 51 }'))).rejects.toThrow(/window/);
  });
});

async function memoryScenario(store: Store) {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const services: Services = { clock: { now: () => now, sleep: systemClock.sleep }, store };
  const app = await serve('interpreted', 'echo', '          memory: { key: "a|body::user|", window: 3, ttl: 1h }', services);
  // What the model was sent, without the system prompt: the memory plus the new question.
  const seen = async (q: string, user = 'ada') => {
    requests.length = 0;
    expect((await post(app, { q, user })).json().message).toBe(`re ${q}`);
    return (requests[0]!.body.messages as Msg[]).filter((m) => m.role !== 'system').map((m) => `${m.role[0]}:${m.content}`);
  };
  expect(await seen('one')).toEqual(['u:one']);
  expect(await seen('two')).toEqual(['u:one', 'a:re one', 'u:two']);
  // The window keeps the last 3 stored messages.
  expect(await seen('three')).toEqual(['a:re one', 'u:two', 'a:re two', 'u:three']);
  expect(await seen('other', 'bob')).toEqual(['u:other']);
  now += 59 * 60_000; // within the inactivity ttl: remembered
  expect(await seen('four')).toEqual(['a:re two', 'u:three', 'a:re three', 'u:four']);
  now += 61 * 60_000; // an hour of silence: forgotten
  expect(await seen('five')).toEqual(['u:five']);
  await app.close();
}

describe('agent memory', () => {
  it('keeps the window and the inactivity ttl on the in-memory store', async () => {
    await memoryScenario(new MemoryStore());
  });
  it('keeps the window and the inactivity ttl on Postgres', async () => {
    const schema = schemaName('agent');
    const store = new PostgresStore({ url: DATABASE_URL, schema });
    await store.init();
    try { await memoryScenario(store); } finally { await store.close(); await dropSchema(schema); }
  });
});
