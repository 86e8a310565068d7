// discover with the static backend, in both execution paths (runBoth requires byte-identical
// responses): entries and ports, the item shape, scheme and IPv6 URLs, include/exclude precedence,
// fail_when_empty, check-time refusals, and a lookup fanning out over the discovered members.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBoth } from '../support/run-both.ts';
import { compileConfig } from '../../compiler/project.ts';
import { discoverConfig, members, names } from './run.ts';

const config = discoverConfig;

describe('discover: static', () => {
  it('takes a comma string or a list, drops empty and null entries, and honours each entry\'s port over the action\'s', async () => {
    const r = await members('{ static: " 10.0.0.1:81, ,web.internal, [2001:db8::5]:9000, 2001:db8::6 ", port: 8080, cache_ttl_secs: 0 }');
    expect(r.status).toBe(200);
    expect(r.body.Members).toEqual([
      { name: '10.0.0.1', address: '10.0.0.1', port: 81, url: 'http://10.0.0.1:81', source: 'static' },
      { name: 'web.internal', address: 'web.internal', port: 8080, url: 'http://web.internal:8080', source: 'static' },
      { name: '2001:db8::5', address: '2001:db8::5', port: 9000, url: 'http://[2001:db8::5]:9000', source: 'static' },
      { name: '2001:db8::6', address: '2001:db8::6', port: 8080, url: 'http://[2001:db8::6]:8080', source: 'static' },
    ]);
    const list = await members('{ static: ["a.internal:1", null, "", "b.internal"], scheme: https, cache_ttl_secs: 0 }');
    expect(list.body.Members).toEqual([
      { name: 'a.internal', address: 'a.internal', port: 1, url: 'https://a.internal:1', source: 'static' },
      { name: 'b.internal', address: 'b.internal', url: 'https://b.internal', source: 'static' },
    ]);
  });

  it('parses a string port after interpolation', async () => {
    const r = await members('{ static: "10.0.0.1", port: "a|var::PORT|", cache_ttl_secs: 0 }', { vars: { PORT: ' 9090 ' } });
    expect(r.body.Members[0].port).toBe(9090);
    const bad = await members('{ static: "10.0.0.1", port: "a|var::PORT|", cache_ttl_secs: 0 }', { vars: { PORT: '90a' } });
    expect(bad.status).toBe(500);
    expect(bad.body.error).toMatchObject({ action: 'Members', detail: 'discover: port "90a" is not a port (a whole number from 1 to 65535)' });
  });

  it('include applies first, then exclude, and exclusion wins; a field the backend does not give never matches', async () => {
    const list = '["api-1:80", "api-2:80", "web-1:80", "api-canary:80"]';
    const kept = (filters: string) => names(`{ static: ${list}, ${filters} cache_ttl_secs: 0 }`);
    expect(await kept('')).toEqual(['api-1', 'api-2', 'web-1', 'api-canary']);
    expect(await kept('include: { name: "^api-" },')).toEqual(['api-1', 'api-2', 'api-canary']);
    expect(await kept('exclude: { name: canary },')).toEqual(['api-1', 'api-2', 'web-1']);
    expect(await kept('include: { name: "^api-" }, exclude: { name: "canary|^api-2$" },')).toEqual(['api-1']);
    // Both name the same member: it is dropped.
    expect(await kept('include: { name: "api-1" }, exclude: { name: "api-1" },')).toEqual([]);
    // static gives no image or namespace: an include on them keeps nothing, an exclude drops nothing.
    expect(await kept('include: { image: ".*" },')).toEqual([]);
    expect(await kept('exclude: { namespace: ".*" },')).toEqual(['api-1', 'api-2', 'web-1', 'api-canary']);
    // An empty filter: include keeps everything, exclude drops nothing.
    expect(await kept('include: {}, exclude: {},')).toEqual(['api-1', 'api-2', 'web-1', 'api-canary']);
  });

  it('fail_when_empty: an empty result fails (retried, naming the action); without it an empty array', async () => {
    const empty = await members('{ static: ", ,", cache_ttl_secs: 0 }');
    expect(empty).toMatchObject({ status: 200, body: { Members: [] } });
    const r = await runBoth(config('{ static: "a:1", include: { name: nothing }, fail_when_empty: true }', '        retry: { attempts: 2, delay: 0, jitter: none }'), 'members');
    expect(r.response.status).toBe(500);
    expect((r.response.body as any).error).toMatchObject({ message: 'action "Members" failed', action: 'Members', detail: 'discover: no members found (static) and fail_when_empty is set' });
    expect(r.state.steps.Members!.attempts).toBe(2);
  });

  it('more than 1000 members fail, asking for a narrower query', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => `10.0.${i >> 8}.${i & 255}:80`).join(',');
    const r = await members(`{ static: "${many}", cache_ttl_secs: 0 }`);
    expect(r.status).toBe(500);
    expect(r.body.error.detail).toBe('discover: 1001 members found, more than the limit of 1000; narrow the query or add an include filter');
    expect((await members(`{ static: "${many}", exclude: { name: '^10[.]0[.]3[.]232$' }, cache_ttl_secs: 0 }`)).body.Members).toHaveLength(1000);
  });

  it('is refused at check without a backend, or with a literal port or scheme that cannot be used', () => {
    const problems = (d: string) => {
      const c = compileConfig('bad.yaml', config(d));
      return c.diagnostics.filter((x) => x.severity === 'error').map((x) => `${x.line}:${x.col} ${x.message}${x.hint ? ` (${x.hint})` : ''}`);
    };
    expect(problems('{ port: 80 }')).toEqual(['7:9 discover needs a backend (set one of dns, kubernetes, docker, static (each one set adds its members))']);
    expect(problems('{ static: "a", port: 70000 }')).toEqual([expect.stringMatching(/^7:\d+ port 70000 is not a port/)]);
    expect(problems('{ static: "a", scheme: "http://" }')).toEqual([expect.stringMatching(/^7:\d+ scheme "http:\/\/" is not a URL scheme/)]);
    expect(problems('{ static: "a", include: { name: "(a)\\\\1" } }')).toEqual([expect.stringMatching(/^7:\d+ invalid regex .*backreferences/)]);
  });
});

describe('discover then lookup', () => {
  const servers: Array<ReturnType<typeof createServer>> = [];
  const ports: number[] = [];
  beforeAll(async () => {
    for (const who of ['first', 'second']) {
      const s = createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ who, path: req.url })); });
      await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
      servers.push(s);
      ports.push((s.address() as { port: number }).port);
    }
  });
  afterAll(async () => { for (const s of servers) await new Promise((r) => s.close(r)); });

  it('fans out over the discovered members, one call per member URL plus a path (the member URL is the base)', async () => {
    const yaml = config(`{ static: "127.0.0.1:${ports[0]},127.0.0.1:${ports[1]}", cache_ttl_secs: 0 }`, `      - name: Health
        lookup: a|Members|
        actions:
          - name: Ping
            url: a|body::url|/health
        output: http`);
    const r = await runBoth(yaml, 'members');
    expect(r.response.status).toBe(200);
    expect(r.response.body).toEqual([{ who: 'first', path: '/health' }, { who: 'second', path: '/health' }]);
  });
});
