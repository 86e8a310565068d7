// MCP tools on a served config, driven by the official SDK client over Streamable HTTP, in both
// execution paths: default and named servers, list_authorizer, schema violations, failing runs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../runtime/server/app.ts';
import { planOf, testEnv } from '../support/plans.ts';

const config = `
mcp_servers:
  ops:
    title: Operations
    instructions: Tools for the operations team.
  support:
    title: Support desk
    default: true
interfaces:
  add:
    summary: Adds two numbers.
    method: POST
    mcp: { enabled: true }
    assert:
      tests:
        - value: a|body::a|
          is_type: number
        - value: a|body::b|
          is_between: { min: 0, max: 100 }
    actions:
      - name: Sum
        input: { sum: a|body::a| }
        post_transforms:
          - math: { expressions: { sum: "target.sum + 0" } }
        output: http
  greet:
    description: Greets someone.
    mcp: { enabled: true, tool_name: say_hello, server: support }
    actions:
      - name: Hello
        input: "hello a|body::who|"
        output: http
  restart:
    mcp: { enabled: true, server: ops, list_authorizer: is_admin, description: Restarts a service. }
    actions:
      - name: Done
        input: { restarted: a|body::service| }
        output: http
  broken:
    mcp: { enabled: true, server: ops }
    actions:
      - name: Check
        input: { ok: a|body::ok| }
        assert:
          tests:
            - value: a|Check->ok|
              is_equal_to: true
          error_message: "not ok: a|body::why|"
  is_admin:
    actions:
      - name: Role
        input: a|header::x-role|
        assert:
          tests:
            - value: a|header::x-role|
              is_equal_to: admin
  hidden:
    actions: [{ name: X, input: a|body| }]
`;

for (const mode of ['compiled', 'interpreted'] as const) {
  describe(`MCP tools (${mode})`, () => {
    let app: FastifyInstance;
    let base: string;
    const clients: Client[] = [];
    beforeAll(async () => {
      const plan = await planOf('tools.yaml', mode, config);
      app = buildApp([plan], { env: testEnv(), org: 'acme', environment: 'prod' });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const addr = app.server.address();
      base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    });
    afterAll(async () => { for (const c of clients) await c.close(); await app.close(); });

    async function connect(path: string, headers: Record<string, string> = {}) {
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(base + path), { requestInit: { headers } }));
      clients.push(client);
      return client;
    }

    it('serves the default server on the bare route with its identity and adopted tools', async () => {
      const c = await connect('/acme/prod/mcp');
      expect(c.getServerVersion()).toMatchObject({ name: 'support', title: 'Support desk' });
      const { tools } = await c.listTools();
      expect(tools.map((t) => t.name)).toEqual(['add', 'say_hello']);
      expect(tools[0]).toMatchObject({
        description: 'Adds two numbers.',
        inputSchema: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'number' }, b: { type: 'number', minimum: 0, maximum: 100 } } },
      });
      expect(tools[1]!.description).toBe('Greets someone.');
    });

    it('calls a tool through the executor: structured content plus text', async () => {
      const c = await connect('/acme/prod/mcp');
      const r = await c.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(r).toMatchObject({ structuredContent: { sum: 2 }, content: [{ type: 'text', text: '{"sum":2}' }] });
      expect(r.isError).toBeFalsy();
      const s = await c.callTool({ name: 'say_hello', arguments: { who: 'Ada' } });
      expect(s).toMatchObject({ structuredContent: { result: 'hello Ada' }, content: [{ type: 'text', text: 'hello Ada' }] });
    });

    it('refuses arguments that violate the schema before the run', async () => {
      const c = await connect('/acme/prod/mcp');
      const r = await c.callTool({ name: 'add', arguments: { a: 'two', b: 300 } });
      expect(r.isError).toBe(true);
      // The first violation, as accepts.schema tells it (runtime/contract/body-check.ts).
      const message = 'invalid arguments for "add" at /a: must be number';
      expect(r).toMatchObject({ content: [{ type: 'text', text: message }], structuredContent: { error: { status: 400, message, violations: [{ path: '/a', rule: 'type', message: 'must be number' }] } } });
    });

    it('reports a failed run as a tool error with the run message, not a protocol error', async () => {
      const c = await connect('/acme/prod/mcp/ops', { 'x-role': 'admin' });
      const r = await c.callTool({ name: 'broken', arguments: { ok: false, why: 'disk full' } });
      expect(r).toMatchObject({ isError: true, content: [{ type: 'text', text: 'not ok: disk full' }] });
    });

    it('serves a named server on its own route with its title and instructions', async () => {
      const c = await connect('/acme/prod/mcp/ops', { 'x-role': 'admin' });
      expect(c.getServerVersion()).toMatchObject({ name: 'ops', title: 'Operations' });
      expect(c.getInstructions()).toBe('Tools for the operations team.');
      expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['restart', 'broken']);
      expect(await c.callTool({ name: 'restart', arguments: { service: 'db' } })).toMatchObject({ structuredContent: { restarted: 'db' } });
    });

    it('lists and runs a tool behind list_authorizer only when the authorizer succeeds', async () => {
      const c = await connect('/acme/prod/mcp/ops', { 'x-role': 'guest' });
      expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['broken']);
      const r = await c.callTool({ name: 'restart', arguments: { service: 'db' } });
      expect(r).toMatchObject({ isError: true, content: [{ text: 'unknown tool "restart"' }] });
      // A client's name is told back bounded.
      const long = await c.callTool({ name: `x${'y'.repeat(100_000)}`, arguments: {} });
      expect(long).toMatchObject({ isError: true, content: [{ text: `unknown tool "x${'y'.repeat(127)}…"` }] });
    });

    it('answers malformed JSON with a JSON-RPC parse error and GET with 405', async () => {
      const bad = await fetch(`${base}/acme/prod/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{' });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
      expect((await fetch(`${base}/acme/prod/mcp`)).status).toBe(405);
      expect((await fetch(`${base}/other/prod/mcp`, { method: 'POST' })).status).toBe(404);
    });
  });
}

describe('check', () => {
  it('warns about a second default server and refuses two tools of one name on a server', async () => {
    const { compileConfig } = await import('../../compiler/project.ts');
    const c = compileConfig('m.yaml', `
mcp_servers:
  a: { default: true }
  b: { default: true }
interfaces:
  x: { mcp: { enabled: true }, actions: [{ name: A, input: a|body| }] }
  y: { mcp: { enabled: true, tool_name: x }, actions: [{ name: A, input: a|body| }] }
  z: { mcp: { enabled: true, tool_name: x, server: a }, actions: [{ name: A, input: a|body| }] }
`);
    expect(c.diagnostics.map((d) => `${d.line}:${d.col} ${d.severity}: ${d.message}`)).toEqual([
      '4:8 warning: MCP server "b" is a second default; "a" serves the bare route (the first declared wins)',
      '7:8 error: MCP tool "x" of interface "y" is already offered by interface "x" on the same server',
      '8:8 error: MCP tool "x" of interface "z" is already offered by interface "x" on the same server',
    ]);
  });
});
