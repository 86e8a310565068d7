// A config regex that becomes a JSON Schema `pattern` of an MCP tool's arguments runs on the linear-time
// engine (runtime/values/regex.ts), as every config regex does: a catastrophic pattern on a hostile
// argument is answered at once (Ajv's default, a backtracking RegExp, would hold the server). Tool
// arguments are checked as accepts.schema checks a body (formats, additionalProperties, violations).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../runtime/server/app.ts';
import { planOf, testEnv } from '../support/plans.ts';

const config = `
interfaces:
  lookup:
    method: POST
    mcp: { enabled: true }
    assert:
      tests:
        - value: a|body::code|
          regex: "^(a+)+$"
    actions:
      - name: Echo
        input: { code: a|body::code| }
        output: http
  signup:
    method: POST
    mcp: { enabled: true }
    accepts:
      schema:
        type: object
        required: [email]
        additionalProperties: false
        properties:
          email: { type: string, format: email }
    actions:
      - name: Echo
        input: { email: a|body::email| }
        output: http
`;

describe('MCP argument patterns', () => {
  let app: FastifyInstance;
  let client: Client;
  beforeAll(async () => {
    app = buildApp([await planOf('codes.yaml', 'interpreted', config)], { env: testEnv(), org: 'acme', environment: 'prod' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/acme/prod/mcp`)));
  });
  afterAll(async () => { await client.close(); await app.close(); });

  it('checks a catastrophic pattern in linear time', async () => {
    const { tools } = await client.listTools();
    expect(tools[0]!.inputSchema).toMatchObject({ properties: { code: { type: 'string', pattern: '^(a+)+$' } } });
    const bad = await client.callTool({ name: 'lookup', arguments: { code: `${'a'.repeat(60)}b` } });
    expect(bad.isError).toBe(true);
    expect((bad.content as Array<{ text: string }>)[0]!.text).toBe('invalid arguments for "lookup" at /code: must match pattern "^(a+)+$"');
    const good = await client.callTool({ name: 'lookup', arguments: { code: 'aaa' } });
    expect(good).toMatchObject({ structuredContent: { code: 'aaa' } });
  });

  it('checks arguments as accepts.schema checks a body: its formats, additionalProperties, the same violations', async () => {
    const bad = await client.callTool({ name: 'signup', arguments: { email: 'not an address' } });
    const message = 'invalid arguments for "signup" at /email: must match format "email"';
    expect(bad).toMatchObject({ isError: true, content: [{ type: 'text', text: message }], structuredContent: { error: { status: 400, message, violations: [{ path: '/email', rule: 'format', message: 'must match format "email"' }] } } });
    // The same body over HTTP: the same violation.
    const http = await app.inject({ method: 'POST', url: '/signup', payload: { email: 'not an address' } });
    expect(http.json().error.violations).toEqual([{ path: '/email', rule: 'format', message: 'must match format "email"' }]);
    const extra = await client.callTool({ name: 'signup', arguments: { email: 'a@example.com', admin: true } });
    expect((extra.structuredContent as { error: { violations: unknown } }).error.violations).toEqual([{ path: '/admin', rule: 'additionalProperties', message: 'is not allowed' }]);
    expect(await client.callTool({ name: 'signup', arguments: { email: 'a@example.com' } })).toMatchObject({ structuredContent: { email: 'a@example.com' } });
  });
});
