// An HTTP action's extension method, written `method: { extension: PROPFIND }` (the schema's form for
// a method outside the standard list), reaches the upstream as that token, in both paths.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { runBoth } from '../support/run-both.ts';

const seen: string[] = [];
const server = createServer((req, res) => { seen.push(req.method!); res.writeHead(207, { 'content-type': 'application/json' }).end('{"ok":true}'); });
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => { server.close(); await closeHttpPools(); });

it('sends { extension: PROPFIND } as the PROPFIND method; a marker chooses the method per run', async () => {
  const r = await runBoth(`
interfaces:
  dav:
    method: POST
    actions:
      - name: Find
        http: { url: "a|var::BASE|/files/", method: { extension: PROPFIND }, expect_status: [207] }
      - name: Chosen
        http: { url: "a|var::BASE|/files/", method: "a|body::m|" }
        output: http
`, 'dav', { body: { m: 'PUT' } }, { BASE: base });
  expect(r.response.status).toBe(200);
  expect(seen).toEqual(['PROPFIND', 'PUT', 'PROPFIND', 'PUT']);
});
