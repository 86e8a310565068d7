// discover with the docker backend against an HTTP server on a unix socket speaking the Docker
// Engine API (GET /containers/json with label and status filters), in both paths: labels, the
// network choice, ports, health, filters, caching, and a socket nobody listens on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearDiscoverCache } from '../../runtime/actions/discover/cache.ts';
import { members, names, RETRY_TWICE } from './run.ts';
import { container, dockerApi } from './servers.ts';

let docker: Awaited<ReturnType<typeof dockerApi>>;
beforeAll(async () => {
  docker = await dockerApi([
    container({ name: 'shop-api-2', image: 'shop/api:1.4', labels: { app: 'api', env: 'prod' }, networks: { backend: { ip: '172.20.0.3' }, bridge: { ip: '172.17.0.3' } }, ports: [8080, 9100] }),
    container({ name: 'shop-api-1', image: 'shop/api:1.4', labels: { app: 'api', env: 'prod' }, networks: { backend: { ip: '172.20.0.2' }, bridge: { ip: '172.17.0.2' } }, ports: [9100, 8080], status: 'Up 5 minutes (healthy)' }),
    container({ name: 'shop-api-3', image: 'shop/api:1.5', labels: { app: 'api', env: 'prod' }, networks: { bridge: { ip: '172.17.0.4' } }, ports: [8080], status: 'Up 1 minute (unhealthy)' }),
    container({ name: 'shop-api-4', image: 'shop/api:1.5', labels: { app: 'api', env: 'prod' }, networks: { bridge: { ip: '172.17.0.5' } }, ports: [8080], status: 'Up 3 seconds (health: starting)' }),
    container({ name: 'shop-api-v6', image: 'shop/api:1.4', labels: { app: 'api', env: 'staging' }, networks: { v6net: { ipv6: 'fd00:dead::2' } }, ports: [] }),
    container({ name: 'shop-db', image: 'postgres:17', labels: { app: 'db', env: 'prod' }, networks: { backend: { ip: '172.20.0.9' } }, ports: [5432] }),
  ]);
});
afterAll(async () => { await docker.close(); });

const on = () => `socket: ${JSON.stringify(docker.socket)}`;

describe('discover: docker', () => {
  it('running, healthy containers with all the labels, on the chosen network, in the one item shape', async () => {
    const r = await members(`{ docker: { labels: { app: api, env: prod }, network: backend, ${on()} }, cache_ttl_secs: 0 }`);
    expect(r.status).toBe(200);
    expect(r.body.Members).toEqual([
      { name: 'shop-api-1', address: '172.20.0.2', port: 8080, url: 'http://172.20.0.2:8080', source: 'docker', ready: true, image: 'shop/api:1.4', labels: { app: 'api', env: 'prod' } },
      { name: 'shop-api-2', address: '172.20.0.3', port: 8080, url: 'http://172.20.0.3:8080', source: 'docker', ready: true, image: 'shop/api:1.4', labels: { app: 'api', env: 'prod' } },
    ]);
    const filters = JSON.parse(new URL(docker.requests.at(-1)!, 'http://x').searchParams.get('filters')!);
    expect(filters).toEqual({ status: ['running'], label: ['app=api', 'env=prod'] });
  });

  it('without a network the first attached one; the action\'s port over the exposed ones; IPv6-only containers bracketed', async () => {
    const r = await members(`{ docker: { labels: { app: api }, ${on()} }, port: 3000, cache_ttl_secs: 0 }`);
    expect(r.body.Members.map((m: any) => m.url)).toEqual(['http://172.20.0.2:3000', 'http://172.20.0.3:3000', 'http://[fd00:dead::2]:3000']);
    const noPort = await members(`{ docker: { labels: { env: staging }, ${on()} }, cache_ttl_secs: 0 }`);
    expect(noPort.body.Members).toEqual([{ name: 'shop-api-v6', address: 'fd00:dead::2', url: 'http://[fd00:dead::2]', source: 'docker', ready: true, image: 'shop/api:1.4', labels: { app: 'api', env: 'staging' } }]);
  });

  it('include/exclude on image; namespace is not given by docker, so an include on it keeps nothing', async () => {
    const kept = (f: string) => names(`{ docker: { ${on()} }, ${f} cache_ttl_secs: 0 }`);
    expect(await kept('include: { image: "^shop/" }, exclude: { name: v6 },')).toEqual(['shop-api-1', 'shop-api-2']);
    expect(await kept('exclude: { image: "^shop/" },')).toEqual(['shop-db']);
    expect(await kept('include: { namespace: "" },')).toEqual([]);
  });

  it('answers from the cache within cache_ttl_secs', async () => {
    clearDiscoverCache();
    const before = docker.requests.length;
    const d = `{ docker: { labels: { app: db }, ${on()} } }`;
    expect((await members(d)).body.Members.map((m: any) => m.url)).toEqual(['http://172.20.0.9:5432']);
    await members(d);
    expect(docker.requests.length - before).toBe(1);
  });

  it('a socket nobody listens on: a clear error naming the action, retried', async () => {
    const r = await members('{ docker: { socket: /nonexistent/docker.sock }, cache_ttl_secs: 0 }', { extra: RETRY_TWICE });
    expect(r.status).toBe(502);
    expect(r.body.error).toMatchObject({ message: 'action "Members" failed', action: 'Members' });
    expect(r.body.error.detail).toMatch(/^discover: docker API on \/nonexistent\/docker\.sock: .*ENOENT/);
    expect(r.attempts).toBe(2);
  });
});
