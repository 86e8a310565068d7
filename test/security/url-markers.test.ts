// Issue 9, finding 1: request values in an outbound URL stay in their slot (one path segment, one
// query value), and a marker from the request can never choose the scheme or host. Both paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { compileConfig } from '../../compiler/project.ts';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { startUpstream } from '../http-action/helpers.ts';

let up: Awaited<ReturnType<typeof startUpstream>>;
const apps: Array<{ close(): Promise<unknown> }> = [];
beforeAll(async () => { up = await startUpstream({ '/v1/items/..%2Fx': (_q, res) => res.end('{"walked":false}') }); });
afterAll(async () => { for (const a of apps) await a.close(); await up.close(); await closeHttpPools(); });

const CONFIG = `
interfaces:
  item:
    method: GET
    actions:
      - name: Fetch
        http:
          url: a|var::API|/v1/items/a|params::id|?q=a|params::q|#a|params::f|
          bearer_auth: a|secret::TOKEN|
          expect_status: [2xx, 404]
        output: http
`;

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  let url = '';
  beforeAll(async () => {
    const s = await serveOn([await planOf('urls.yaml', mode, CONFIG)], testEnv({ API: up.url }, { TOKEN: 'tok-123' }));
    apps.push(s.app);
    url = s.url;
  });

  it('a path value stays one segment: ../x is sent as ..%2Fx', async () => {
    const r = await fetch(`${url}/item?id=${encodeURIComponent('../x')}&q=1`);
    expect(r.status).toBe(200);
    expect(up.last()!.url).toBe('/v1/items/..%2Fx?q=1');
  });

  it('a path value of exactly .. is refused with 400 and nothing is sent', async () => {
    const before = up.received.length;
    const r = await fetch(`${url}/item?id=..`);
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).toContain('would move the URL path');
    expect(up.received.length).toBe(before);
  });

  it('a query value cannot add parameters or a fragment', async () => {
    await fetch(`${url}/item?id=7&q=${encodeURIComponent('a&admin=1#x')}&f=${encodeURIComponent('y z')}`);
    expect(up.last()!.url).toBe('/v1/items/7?q=a%26admin%3D1%23x');
    expect(up.last()!.headers.authorization).toBe('Bearer tok-123');
  });
});

describe('a request marker in the scheme or host', () => {
  const refused = (url: string, credential = true) => {
    const c = compileConfig('host.yaml', `interfaces:\n  x:\n    actions:\n      - name: Prev\n        input: { host: h, url: 'http://h' }\n      - name: A\n        http:\n          url: "${url}"\n${credential ? '          bearer_auth: a|secret::TOKEN|\n' : ''}`);
    return c.ok ? undefined : c.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n');
  };
  it('is refused at check time with its position', () => {
    expect(refused('http://a|params::region|.api.example.com/v1')).toMatch(/^8:11 a\|params::region\| sets the scheme or host of the URL/);
    expect(refused('a|body::base|.example.com/v1')).toMatch(/would extend its host/);
    expect(refused('https://a|Prev::host|:8080/x')).toMatch(/sets the scheme or host/);
  });
  it('is allowed from operator settings, in the path, as the whole URL, or starting it (url-base.test.ts)', () => {
    expect(refused('a|body::base|/v1', false)).toBeUndefined();
    expect(refused('a|var::BASE|/v1/a|params::id|')).toBeUndefined();
    expect(refused('https://a|secret::HOST|/v1')).toBeUndefined();
    expect(refused('a|body::callback|', false)).toBeUndefined();
    // With the operator's credential on the call, a request-chosen destination is refused
    // (request-values-check.test.ts, "credentials to a chosen host").
    expect(refused('a|body::base|/v1')).toMatch(/chooses where action "A" sends its credential/);
    expect(refused('a|body::callback|')).toMatch(/chooses where action "A" sends its credential/);
  });
});
